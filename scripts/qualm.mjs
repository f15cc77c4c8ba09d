// `pnpm -s qualm …` from anywhere in the repository: builds the CLI and the packages it uses when
// their sources changed (quietly; the build's output shows only when it fails), then runs `qualm`
// as a child process in the folder the command was typed in, so stdout holds the command's output
// alone and paths resolve from where the user stands.
//
// Ctrl-C: the launcher forwards SIGINT to `qualm` (which takes the copies that arrive together,
// from the terminal and from pnpm, as one Ctrl-C) and exits with its status, 130 for an
// interrupted run. pnpm turns a second SIGINT into SIGTERM: that is forwarded as a second Ctrl-C.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const interruptedStatus = 130;

let child;
let interrupted = false;
const forward = () => {
  interrupted = true;
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
};
process.on('SIGINT', forward);
process.on('SIGTERM', forward);

/** Runs a command and resolves to how it ended. */
function run(command, args, options) {
  return new Promise((resolve) => {
    const started = spawn(command, args, options);
    let output = '';
    started.stdout?.setEncoding('utf8').on('data', (text) => {
      output += text;
    });
    started.stderr?.setEncoding('utf8').on('data', (text) => {
      output += text;
    });
    started.on('error', (error) => resolve({ code: null, signal: null, output, error }));
    started.on('close', (code, signal) => resolve({ code, signal, output }));
    if (options.track) {
      child = started;
      // a Ctrl-C between the build and this start still reaches the command
      if (interrupted) started.kill('SIGINT');
    }
  });
}

// the first build on a fresh clone takes a minute with nothing to show: say so, on stderr
if (!existsSync(new URL('../apps/cli/dist', import.meta.url))) {
  process.stderr.write(
    'qualm: building the command and its packages (the first run takes about a minute)…\n',
  );
}
const build = await run(
  process.execPath,
  [
    fileURLToPath(new URL('../node_modules/turbo/bin/turbo', import.meta.url)),
    'run',
    'build',
    '--filter=@qualm/cli...',
    '--output-logs=errors-only',
  ],
  { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
);
if (interrupted) {
  process.stderr.write('\nqualm: interrupted while building the command; nothing was run\n');
  process.exit(interruptedStatus);
}
if (build.code !== 0) {
  process.stderr.write(build.output);
  process.stderr.write(
    `qualm: building the command failed${build.error ? ` (${build.error.message})` : ''}; run pnpm build to see why\n`,
  );
  process.exit(70);
}

// pnpm runs scripts in the repository's root and says in INIT_CWD where it was called from
// biome-ignore lint/suspicious/noUndeclaredEnvVars: this script runs outside any turbo task
const cwd = process.env.INIT_CWD || process.cwd();
const bin = fileURLToPath(new URL('../apps/cli/bin/qualm.js', import.meta.url));
const ended = await run(process.execPath, [bin, ...process.argv.slice(2)], {
  cwd,
  stdio: 'inherit',
  track: true,
});
if (ended.error) {
  process.stderr.write(`qualm: cannot start the command (${ended.error.message})\n`);
  process.exit(70);
}
// a child ended by a signal exits as a shell reports it: 128 + the signal's number
process.exit(ended.code ?? 128 + (constants.signals[ended.signal] ?? constants.signals.SIGTERM));
