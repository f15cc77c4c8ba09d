#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';

// V8 first runs a regular expression in its interpreter and compiles it after one run; the
// validator's large patterns could stay interpreted for text of the other string encoding (a
// response with a curly quote), which made 10 KB responses 2-3 times as slow. Compiling each at
// its first run avoids that. Set before the CLI loads.
setFlagsFromString('--regexp-tier-up-ticks=0');
const { main } = await import('../dist/index.js');

// a reader that stops early (| head) closes the pipe: that ends the output, not the run
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  process.stderr.write(`qualm: cannot write the output: ${error.message}\n`);
  process.exit(1);
});

process.exitCode = await main(process.argv);
