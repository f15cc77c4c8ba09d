import { Command, CommanderError } from 'commander';
import packageJson from '../package.json' with { type: 'json' };
import { commands } from './commands/index.js';
import { CliError, exitCodeOf, isKnownError, isSystemError } from './errors.js';

export { CliError, CliErrorCode, isKnownError } from './errors.js';

/** Builds the `qualm` program with every verb registered. */
export function createProgram(): Command {
  const program = new Command('qualm')
    .description('Tell when an LLM answer should not be trusted as it stands.')
    .version(packageJson.version)
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
  for (const register of commands) register(program);
  return program;
}

/** Runs the CLI and resolves to the process exit code; known errors print as one line. */
export async function main(argv: readonly string[]): Promise<number> {
  const program = createProgram();
  try {
    await program.parseAsync([...argv]);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? 0 : 2;
    }
    if (error instanceof CliError) {
      process.stderr.write(`qualm: ${error.message}\n`);
      return error.exitCode;
    }
    if (isKnownError(error)) {
      process.stderr.write(`qualm: ${error.message}\n`);
      return exitCodeOf(error);
    }
    if (isSystemError(error)) {
      // node's message already names the call and the path: "ENOENT: no such file …, open 'x'"
      process.stderr.write(`qualm: ${error.message.split('\n')[0]}\n`);
      return 2;
    }
    process.stderr.write(`qualm: unexpected error (this is a bug)\n`);
    process.stderr.write(
      `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return 70;
  }
}
