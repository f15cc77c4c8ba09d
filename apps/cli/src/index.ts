import { Command, CommanderError, type Option, type ParseOptionsResult } from 'commander';
import packageJson from '../package.json' with { type: 'json' };
import { registersFor } from './commands/index.js';
import { describeError } from './errors.js';
import { withInterruptHandler } from './interrupt.js';
import { setProgressMode } from './progress.js';

export { CliError, CliErrorCode } from './errors.js';

/** What `qualm --version` prints: the version, whether it is a release, and the Node runtime. */
export function versionText(): string {
  const build = packageJson.version === '0.0.0' ? ' (unreleased, built from source)' : '';
  return `qualm ${packageJson.version}${build} on node ${process.version}`;
}

// every option's default and choices in one style: "(default: 4)", "(one of: table, json)"
function optionDescription(option: Option): string {
  const extra: string[] = [];
  if (option.argChoices) extra.push(`one of: ${option.argChoices.join(', ')}`);
  const shown =
    option.defaultValueDescription ??
    (option.defaultValue !== undefined && typeof option.defaultValue !== 'boolean'
      ? String(option.defaultValue)
      : undefined);
  if (shown !== undefined) extra.push(`default: ${shown}`);
  if (option.envVar !== undefined) extra.push(`env: ${option.envVar}`);
  return extra.length > 0 ? `${option.description} (${extra.join('; ')})` : option.description;
}

const epilog = `
Output goes to stdout; progress, notes and errors to stderr. Progress: a live line when stderr is
a terminal, otherwise a line every 10 s of long work; --progress prints a line a second, and
--no-progress nothing (before or after the verb).

Models are named by what they do: judge --judge-model, bench longmemeval generate
--reader-model, evaluate --judge-model, retrieve --embedding-model (each replaces --model).

Exit status: 0 done; 1 a gate fired (validate --fail-on-escalate, abstain saying to abstain) or
items failed on the way or ended in errors (a rerun retries them); 2 bad input, options or set-up,
nothing to do included (one line on stderr says which); 130 interrupted with Ctrl-C (a rerun of a
resumable run continues it); 70 a bug.

Examples:
  qualm validate answers.jsonl --jsonl --id-field id --summary
  qualm judge --input items.jsonl --template schema.json --judge-model gpt-4o-mini --out judged.jsonl
  qualm --no-progress bench longmemeval evaluate --data longmemeval_oracle.json --run hypotheses.jsonl`;

/**
 * A command that refuses a flag where an option's value should be: commander takes the word after
 * `--id-field` as its value whatever it is, so `--id-field --summary` would name the field
 * "--summary" and swallow the flag. Every verb is one, as subcommands are made by `createCommand`.
 */
class QualmCommand extends Command {
  override createCommand(name?: string): Command {
    return new QualmCommand(name);
  }

  override parseOptions(argv: string[]): ParseOptionsResult {
    rejectFlagsAsValues(this, argv);
    return super.parseOptions(argv);
  }
}

/**
 * Refuses `--option --other` for an option that needs a value, naming both. Any word of the form
 * `--x` counts as a flag there, known to the command or not (a misspelt flag is still a flag);
 * words that start with a single dash are values, so `-0.5` and `-` (stdin) still work. A value
 * that does start with `--` can be given as `--option=--value`, which commander reads as one word.
 */
function rejectFlagsAsValues(command: Command, argv: readonly string[]): void {
  for (let index = 0; index < argv.length; index += 1) {
    const word = argv[index];
    // after "--" every word is an operand
    if (word === '--') return;
    const option = command.options.find(
      (candidate) => candidate.long === word || candidate.short === word,
    );
    if (!option?.required) continue;
    const value = argv[index + 1];
    if (value !== undefined && /^--./.test(value)) {
      const name = option.long ?? option.short ?? option.flags;
      command.error(
        `option ${name} needs a value, got the flag ${value}; a value that starts with -- is written ${name}=VALUE`,
        { exitCode: 2, code: 'commander.optionMissingArgument' },
      );
    }
    index += 1;
  }
}

/**
 * Builds the `qualm` program for a command line (`process.argv`'s form): with the verb it names
 * registered, or every verb when it names none (see `registersFor`); without one, every verb.
 */
export async function createProgram(argv?: readonly string[]): Promise<Command> {
  const program = new QualmCommand('qualm')
    .description('Tell when an LLM answer should not be trusted as it stands.')
    .version(versionText(), '-V, --version', 'print the version and exit')
    .option(
      '--progress',
      'show progress on stderr even when it is not a terminal (a line a second)',
    )
    .option('--no-progress', 'never show progress')
    .exitOverride()
    .configureHelp({ optionDescription, showGlobalOptions: true })
    .configureOutput({ writeErr: (text) => process.stderr.write(text) })
    .addHelpText('after', epilog)
    .hook('preAction', (_program, action) => {
      const { progress } = action.optsWithGlobals() as { progress?: boolean };
      setProgressMode(progress === undefined ? 'auto' : progress ? 'on' : 'off');
    });
  for (const register of await registersFor(argv?.slice(2) ?? [])) register(program);
  reportUsageErrors(program);
  return program;
}

/**
 * Makes every command print commander's own usage errors (a missing required option, a value
 * outside its choices, an unknown option) as one `qualm:` line with the command's --help hint.
 */
function reportUsageErrors(command: Command): void {
  const name = commandPath(command);
  command.configureOutput({
    outputError: (text, write) => {
      const message = text
        .replace(/^error: /, '')
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '')
        .join(' ')
        // commander's hint in the style of the other messages: "(did you mean validate?)"
        .replace('(Did you mean', '(did you mean');
      write(`qualm: ${message} (see ${name} --help)\n`);
    },
  });
  for (const subcommand of command.commands) reportUsageErrors(subcommand);
}

function commandPath(command: Command): string {
  const names: string[] = [];
  for (let current: Command | null = command; current; current = current.parent) {
    names.unshift(current.name());
  }
  return names.join(' ');
}

/** Runs the CLI and resolves to the process exit code; known errors print as one line. */
export async function main(argv: readonly string[]): Promise<number> {
  return withInterruptHandler(async () => {
    try {
      const program = await createProgram(argv);
      await program.parseAsync([...argv]);
      return typeof process.exitCode === 'number' ? process.exitCode : 0;
    } catch (error) {
      if (error instanceof CommanderError) {
        return error.exitCode === 0 ? 0 : 2;
      }
      const known = describeError(error);
      if (known) {
        process.stderr.write(`${known.line}\n`);
        return known.status;
      }
      process.stderr.write(`qualm: unexpected error (this is a bug)\n`);
      process.stderr.write(
        `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      return 70;
    }
  });
}
