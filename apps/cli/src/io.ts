import { createReadStream, existsSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { CliError, CliErrorCode } from './errors.js';

/** Opens a file, or stdin for `-` or no path, as a stream, with a clear error for a missing file. */
export function openInput(path: string | undefined): Readable {
  if (path === undefined || path === '-') return process.stdin;
  if (!existsSync(path)) {
    throw new CliError(CliErrorCode.FILE_NOT_FOUND, `file not found: ${path}`);
  }
  if (statSync(path).isDirectory()) {
    throw new CliError(CliErrorCode.INVALID_ARGUMENT, `expected a file, got a directory: ${path}`);
  }
  return createReadStream(path);
}

/** Reads a whole input (file or stdin) as UTF-8 text. */
export async function readText(path: string | undefined): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of openInput(path)) chunks.push(Buffer.from(chunk));
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
  input: Readable,
  options: { source: string; skipInvalid?: boolean; skipped?: { count: number } },
): AsyncGenerator<JsonLine> {
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber += 1;
    if (line.trim() === '') continue;
    let value: unknown;
    let problem: string | undefined;
    try {
      value = JSON.parse(line);
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
      throw new CliError(CliErrorCode.INVALID_INPUT, `${options.source}:${lineNumber} ${problem}`);
    }
    yield { lineNumber, value };
  }
}

/** Parses a CLI option as a number within bounds, or throws a CliError naming the option. */
export function parseNumberOption(
  name: string,
  raw: string,
  bounds: { min?: number; max?: number; integer?: boolean } = {},
): number {
  const value = Number(raw);
  const ok =
    raw.trim() !== '' &&
    Number.isFinite(value) &&
    (!bounds.integer || Number.isInteger(value)) &&
    (bounds.min === undefined || value >= bounds.min) &&
    (bounds.max === undefined || value <= bounds.max);
  if (!ok) {
    const range = [
      bounds.integer ? 'an integer' : 'a number',
      bounds.min !== undefined ? `>= ${bounds.min}` : '',
      bounds.max !== undefined ? `<= ${bounds.max}` : '',
    ]
      .filter(Boolean)
      .join(' ');
    throw new CliError(CliErrorCode.INVALID_ARGUMENT, `${name} must be ${range}, got "${raw}"`);
  }
  return value;
}

/** Renders rows as an aligned plain-text table. */
export function formatTable(
  columns: readonly { header: string; align?: 'left' | 'right' }[],
  rows: readonly (readonly string[])[],
): string {
  const widths = columns.map((column, index) =>
    Math.max(column.header.length, ...rows.map((row) => (row[index] ?? '').length)),
  );
  const render = (cells: readonly string[]) =>
    cells
      .map((cell, index) =>
        columns[index]?.align === 'right'
          ? cell.padStart(widths[index] ?? 0)
          : cell.padEnd(widths[index] ?? 0),
      )
      .join('  ')
      .trimEnd();
  return [
    render(columns.map((column) => column.header)),
    render(widths.map((width) => '-'.repeat(width))),
    ...rows.map(render),
  ].join('\n');
}

/** The first five ids joined by commas, and `…` when there are more. */
export function formatIdList(ids: readonly string[]): string {
  return `${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', …' : ''}`;
}

/**
 * A progress line on stderr for long work. It draws only when stderr is a terminal or when
 * `QUALM_PROGRESS=1`, and at most ten times a second.
 */
export class Progress {
  private done = 0;
  private lastDraw = 0;
  private readonly started = Date.now();
  private readonly enabled: boolean;

  constructor(
    private readonly label: string,
    private readonly total: number | undefined,
    stream: NodeJS.WriteStream = process.stderr,
  ) {
    this.enabled = Boolean(stream.isTTY) || process.env.QUALM_PROGRESS === '1';
    this.stream = stream;
  }

  private readonly stream: NodeJS.WriteStream;

  /** Counts finished units of work and redraws when due. */
  tick(count = 1): void {
    this.done += count;
    const now = Date.now();
    if (now - this.lastDraw >= 100) this.draw(now);
  }

  /** Draws the final state and ends the line. */
  finish(): void {
    if (!this.enabled) return;
    this.draw(Date.now());
    this.stream.write('\n');
  }

  private draw(now: number): void {
    if (!this.enabled) return;
    this.lastDraw = now;
    const seconds = (now - this.started) / 1000;
    const rate = seconds > 0 ? this.done / seconds : 0;
    let line = `${this.label} ${this.done}`;
    if (this.total !== undefined && this.total > 0) {
      const fraction = Math.min(1, this.done / this.total);
      const width = 24;
      const filled = Math.round(fraction * width);
      line = `${this.label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${this.done}/${this.total}`;
      if (rate > 0 && this.done < this.total) {
        line += ` eta ${Math.ceil((this.total - this.done) / rate)}s`;
      }
    }
    line += ` ${rate.toFixed(1)}/s`;
    this.stream.write(this.stream.isTTY ? `\r\x1b[2K${line}` : `${line}\n`);
  }
}
