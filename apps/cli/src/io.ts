import { accessSync, constants, createReadStream, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { looksBinary, withoutByteOrderMark } from '@qualm/errors';
import type { Command } from 'commander';
import { CliError, CliErrorCode } from './errors.js';

/** What an input is called in messages: its path, or `stdin`. */
export function inputName(path: string | undefined): string {
  return path === undefined || path === '-' ? 'stdin' : path;
}

/**
 * Streams a file, or stdin for `-` or no path, as buffers. A missing file, a folder, and binary
 * data (checked on the first 8 KB) are errors that name the input.
 */
export async function* readChunks(path: string | undefined): AsyncGenerator<Buffer> {
  const source = inputName(path);
  let input: NodeJS.ReadableStream;
  if (path === undefined || path === '-') input = process.stdin;
  else {
    if (!existsSync(path)) {
      throw new CliError(CliErrorCode.FILE_NOT_FOUND, `file not found: ${path}`);
    }
    if (statSync(path).isDirectory()) {
      throw new CliError(CliErrorCode.INVALID_INPUT, `expected a file, got a directory: ${path}`);
    }
    input = createReadStream(path);
  }
  let first = true;
  for await (const chunk of input) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    if (first) {
      first = false;
      if (looksBinary(bytes.subarray(0, 8192))) {
        throw new CliError(
          CliErrorCode.INVALID_INPUT,
          `${source} is binary data, not text (it holds NUL or control bytes)`,
        );
      }
    }
    yield bytes;
  }
}

/** Reads a whole input (file or stdin) as UTF-8 text; binary data is an error. */
export async function readText(path: string | undefined): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of readChunks(path)) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** A parsed line of a JSON Lines input. */
export interface JsonLine {
  lineNumber: number;
  value: unknown;
}

/**
 * Streams the JSON objects of a JSON Lines input. A line that is not a JSON object is an error
 * naming the line, unless `skipInvalid` is set, in which case it is counted in `skipped`.
 */
export async function* readJsonLines(
  path: string | undefined,
  options: { skipInvalid?: boolean; skipped?: { count: number } } = {},
): AsyncGenerator<JsonLine> {
  const source = inputName(path);
  const lines = createInterface({
    input: Readable.from(readChunks(path)),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber += 1;
    if (line.trim() === '') continue;
    let value: unknown;
    let problem: string | undefined;
    try {
      value = JSON.parse(lineNumber === 1 ? withoutByteOrderMark(line) : line);
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        problem = 'is not a JSON object';
      }
    } catch (error) {
      problem = `is not valid JSON (${(error as Error).message})`;
    }
    if (problem !== undefined) {
      if (options.skipInvalid) {
        if (options.skipped) options.skipped.count += 1;
        continue;
      }
      throw new CliError(CliErrorCode.INVALID_INPUT, `${source}:${lineNumber} ${problem}`);
    }
    yield { lineNumber, value };
  }
}

/**
 * Says on stderr that input is awaited from the terminal, when stdin is a terminal and the input
 * is stdin: otherwise the command would seem to hang.
 */
export function noteTerminalInput(path: string | undefined, what: string): void {
  if ((path === undefined || path === '-') && process.stdin.isTTY) {
    process.stderr.write(
      `qualm: reading ${what} from the terminal; end with Ctrl-D (or give a file)\n`,
    );
  }
}

/** Parses a CLI option as a number within bounds, or throws a CliError naming the option. */
export function parseNumberOption(
  name: string,
  raw: string,
  bounds: { min?: number; max?: number; integer?: boolean } = {},
): number {
  const value = Number(raw);
  // plain decimal notation only: Number() would also take "1e3", "0x10" and "0b11"
  const ok =
    /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)\s*$/.test(raw) &&
    Number.isFinite(value) &&
    (!bounds.integer || Number.isInteger(value)) &&
    (bounds.min === undefined || value >= bounds.min) &&
    (bounds.max === undefined || value <= bounds.max);
  if (!ok) {
    const { min, max } = bounds;
    const kind = bounds.integer ? 'an integer' : 'a number';
    const range =
      min !== undefined && max !== undefined
        ? `${kind} from ${min} to ${max}`
        : min !== undefined
          ? `${kind} of at least ${min}`
          : max !== undefined
            ? `${kind} of at most ${max}`
            : kind;
    throw new CliError(CliErrorCode.INVALID_ARGUMENT, `${name} must be ${range}, got "${raw}"`);
  }
  return value;
}

/** Whether the user gave an option on the command line (not its default). */
export function given(command: Command, name: string): boolean {
  const source = command.getOptionValueSource(name);
  return source === 'cli' || source === 'env';
}

/**
 * Refuses an empty model name, naming where it came from: the flag, or the environment variable
 * that gave it (`QUALM_JUDGE_MODEL=` set but empty).
 */
export function requireModelName(command: Command, option: string, flag: string): void {
  const value = command.getOptionValue(option) as unknown;
  if (typeof value !== 'string' || value.trim() !== '') return;
  const environment = command.options.find((entry) => entry.attributeName() === option)?.envVar;
  if (command.getOptionValueSource(option) === 'env' && environment !== undefined) {
    throw new CliError(
      CliErrorCode.INVALID_ARGUMENT,
      `${environment} is set but empty: set it to a model name, unset it, or give ${flag}`,
    );
  }
  throw new CliError(CliErrorCode.INVALID_ARGUMENT, `${flag} is empty: give a model name`);
}

/** A flag that only does something in some settings: `applies` says whether it does here. */
export interface FlagRule {
  /** The option's attribute name, as commander stores it (`topK` for `--top-k`). */
  option: string;
  /** The flag as the user writes it. */
  flag: string;
  applies: boolean;
  /** Why it does nothing, naming the other flag: `without --jsonl`, `with --no-nli`. */
  because: string;
}

/** Refuses a flag given where it would do nothing, in one line that names both flags. */
export function rejectUselessFlags(command: Command, rules: readonly FlagRule[]): void {
  for (const rule of rules) {
    if (!rule.applies && given(command, rule.option)) {
      throw new CliError(
        CliErrorCode.INVALID_ARGUMENT,
        `${rule.flag} has no effect ${rule.because}`,
      );
    }
  }
}

/**
 * Checks an output file before any work: its folder is created when missing (every verb does
 * this), the path must not be a folder, and the folder must be writable.
 */
export function prepareOutputFile(path: string, flag = '--out'): void {
  if (existsSync(path) && statSync(path).isDirectory()) {
    throw new CliError(CliErrorCode.INVALID_ARGUMENT, `${flag} ${path} is a folder; give a file`);
  }
  prepareFolder(dirname(resolve(path)), flag, path);
}

/**
 * Checks an output folder before any work: created when missing, and it must not be a file and
 * must be writable.
 */
export function prepareOutputFolder(path: string, flag = '--out'): void {
  if (existsSync(path) && !statSync(path).isDirectory()) {
    throw new CliError(CliErrorCode.INVALID_ARGUMENT, `${flag} ${path} is a file; give a folder`);
  }
  prepareFolder(resolve(path), flag, path);
}

function prepareFolder(folder: string, flag: string, given: string): void {
  try {
    mkdirSync(folder, { recursive: true });
    accessSync(folder, constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'an error';
    const why =
      code === 'ENOTDIR' || code === 'EEXIST'
        ? 'a part of its path is a file'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : code;
    throw new CliError(
      CliErrorCode.INVALID_ARGUMENT,
      `${flag} ${given}: cannot write there (${why})`,
      {
        cause: error,
      },
    );
  }
}

/** Renders rows as an aligned plain-text table. */
export function formatTable(
  columns: readonly { header: string; align?: 'left' | 'right' }[],
  rows: readonly (readonly string[])[],
): string {
  const widths = columnWidths(columns, rows);
  return [
    tableLine(
      columns,
      widths,
      columns.map((column) => column.header),
    ),
    tableLine(
      columns,
      widths,
      widths.map((width) => '-'.repeat(width)),
    ),
    ...rows.map((row) => tableLine(columns, widths, row)),
  ].join('\n');
}

/** The width of each column: its longest cell or header (a loop, so any number of rows will do). */
export function columnWidths(
  columns: readonly { header: string }[],
  rows: readonly (readonly string[])[],
): number[] {
  const widths = columns.map((column) => column.header.length);
  for (const row of rows) {
    for (const [index, cell] of row.entries()) {
      if (cell.length > (widths[index] ?? 0)) widths[index] = cell.length;
    }
  }
  return widths;
}

/** One line of a table with the given column widths; a longer cell pushes the rest right. */
export function tableLine(
  columns: readonly { align?: 'left' | 'right' }[],
  widths: readonly number[],
  cells: readonly string[],
): string {
  return cells
    .map((cell, index) =>
      columns[index]?.align === 'right'
        ? cell.padStart(widths[index] ?? 0)
        : cell.padEnd(widths[index] ?? 0),
    )
    .join('  ')
    .trimEnd();
}

/** The first five ids joined by commas, and `…` when there are more. */
export function formatIdList(ids: readonly string[]): string {
  return `${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', …' : ''}`;
}
