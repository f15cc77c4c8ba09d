#!/usr/bin/env node
import { main } from '../dist/index.js';

// a reader that stops early (| head) closes the pipe: that ends the output, not the run
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  process.stderr.write(`qualm: cannot write the output: ${error.message}\n`);
  process.exit(1);
});

process.exitCode = await main(process.argv);
