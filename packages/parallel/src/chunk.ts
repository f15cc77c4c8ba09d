import { withoutByteOrderMark } from '@qualm/errors';
import type { ResponseQuality, Validator } from '@qualm/validator';
import { z } from 'zod';
import { type ResponseId, validationRecord } from './record.js';
import { packFlags } from './summary.js';

/** How the lines of a JSON Lines input are read and what is made of each. */
export interface LineOptions {
  /** The field holding the response text (default `response`). */
  field?: string;
  /** A field identifying each response, reported with its result. */
  idField?: string;
  /** Skip lines that are not valid and count them, instead of stopping at the first. */
  skipInvalid?: boolean;
  /**
   * What to make of each response: the line `qualm validate --format jsonl` writes (`jsonl`,
   * the default), or the whole result with its line number and id (`rows`).
   */
  output?: 'jsonl' | 'rows';
}

/** Where a chunk stands in its input: the lines before it, so that its line numbers are global. */
export interface ChunkPlace {
  /** The chunk ends the input, so a trailing line without a break counts. */
  last: boolean;
  /** Lines of the input before this chunk (default 0). */
  linesBefore?: number;
}

/** A validated response with where it came from. */
export interface ValidatedRow {
  /** Line number in the input, from 1, blank lines counted. */
  line: number;
  id: ResponseId | undefined;
  result: ResponseQuality;
}

/** What validating one chunk of lines gives. */
export interface ChunkOutcome {
  /** Lines read, blank and skipped ones included. */
  lines: number;
  /**
   * With `output: 'jsonl'`: one record per validated line, each ending in a line break, as UTF-8
   * bytes ready to write (bytes travel between threads without landing on the receiver's heap).
   */
  jsonl: Uint8Array;
  /** With `output: 'rows'`: the results, with line numbers counted over the whole input. */
  rows: ValidatedRow[];
  /** The score of each validated response, in order. */
  scores: Float64Array;
  /** Bit 0: the response escalates; bit i + 1: it has a signal of `SIGNAL_TYPES[i]`. */
  flags: Uint16Array;
  /** Lines skipped as not valid (with `skipInvalid`). */
  skipped: number;
  /** Validated lines that carry the id field (0 without `idField`). */
  withId: number;
  /** The first line that is not valid when `skipInvalid` is off; the chunk stops there. */
  failure?: { line: number; problem: string };
}

const encoder = new TextEncoder();

// a line break as Node's readline reads one: \n, \r\n, or a \r on its own
const LINE_BREAK = /\r?\n|\r(?!\n)/g;

function formatIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(top)'}: ${issue.message}`)
    .join('; ');
}

/** The shape a line must have: the response text in `field`, an optional string or number id. */
export function lineShape(field: string, idField: string | undefined) {
  return z.object({
    [field]: z.string({
      error: (issue) =>
        issue.input === undefined
          ? `the line has no field "${field}"`
          : `the field "${field}" must hold the response text as a string`,
    }),
    ...(idField !== undefined
      ? {
          [idField]: z
            .union([z.string(), z.number()], {
              error: `the field "${idField}" must be a string or a number`,
            })
            .optional(),
        }
      : {}),
  });
}

/** What is wrong with a line, or its response text and id. */
export function readLine(
  line: string,
  shape: ReturnType<typeof lineShape>,
  options: { field: string; idField: string | undefined },
): { problem: string } | { text: string; id: ResponseId | undefined } {
  let value: unknown;
  try {
    // a file's first line may carry the mark some editors write
    value = JSON.parse(withoutByteOrderMark(line));
  } catch (error) {
    return { problem: `is not valid JSON (${(error as Error).message})` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { problem: 'is not a JSON object' };
  }
  // the common case without the schema; the schema words what is wrong otherwise
  const fields = value as Record<string, unknown>;
  const text = fields[options.field];
  const id = options.idField !== undefined ? fields[options.idField] : undefined;
  if (
    typeof text === 'string' &&
    (id === undefined || typeof id === 'string' || typeof id === 'number')
  ) {
    return { text, id };
  }
  const parsed = shape.safeParse(value);
  if (!parsed.success) return { problem: formatIssues(parsed.error) };
  const record = parsed.data as Record<string, unknown>;
  const parsedId = options.idField !== undefined ? record[options.idField] : undefined;
  return {
    text: record[options.field] as string,
    id: typeof parsedId === 'string' || typeof parsedId === 'number' ? parsedId : undefined,
  };
}

/**
 * The line breaks in UTF-8 bytes, counted as the chunk reader counts them: \n, \r\n and a \r on
 * its own are one each (neither byte occurs inside another character's encoding).
 */
export function countLineBreaks(bytes: Uint8Array): number {
  let count = 0;
  if (bytes.indexOf(CARRIAGE_RETURN) === -1) {
    for (let at = bytes.indexOf(NEWLINE); at !== -1; at = bytes.indexOf(NEWLINE, at + 1))
      count += 1;
    return count;
  }
  for (let at = 0; at < bytes.length; at += 1) {
    const byte = bytes[at];
    if (byte === NEWLINE) count += 1;
    else if (byte === CARRIAGE_RETURN && bytes[at + 1] !== NEWLINE) count += 1;
  }
  return count;
}

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * Validates the lines of one chunk of JSON Lines text. The chunk ends with a line break, or is the
 * end of the input (`last`), so no line is cut; a trailing line without a break counts only then.
 */
export function validateChunk(
  validator: Validator,
  text: string,
  options: LineOptions & ChunkPlace,
): ChunkOutcome {
  const before = options.linesBefore ?? 0;
  const field = options.field ?? 'response';
  const idField = options.idField;
  const shape = lineShape(field, idField);
  const rowsWanted = options.output === 'rows';
  const rows: ValidatedRow[] = [];
  const records: string[] = [];
  const scores: number[] = [];
  const flags: number[] = [];
  let skipped = 0;
  let withId = 0;
  let lines = 0;
  let failure: ChunkOutcome['failure'];
  let start = 0;
  LINE_BREAK.lastIndex = 0;
  while (start < text.length) {
    const match = LINE_BREAK.exec(text);
    // a chunk that is not the last ends with a line break, so this only ends the input's last line
    if (match === null && !options.last) break;
    const line = text.slice(start, match ? match.index : text.length);
    start = match ? LINE_BREAK.lastIndex : text.length;
    lines += 1;
    if (line.trim() === '') continue;
    const read = readLine(line, shape, { field, idField });
    if ('problem' in read) {
      if (options.skipInvalid) {
        skipped += 1;
        continue;
      }
      failure = { line: before + lines, problem: read.problem };
      break;
    }
    if (read.id !== undefined) withId += 1;
    const result = validator.validate(read.text);
    scores.push(result.score);
    flags.push(
      packFlags(
        result.shouldEscalate,
        result.signals.map((signal) => signal.type),
      ),
    );
    if (rowsWanted) rows.push({ line: before + lines, id: read.id, result });
    else records.push(`${JSON.stringify(validationRecord(read.id, result, before + lines))}\n`);
  }
  return {
    lines,
    jsonl: encoder.encode(records.join('')),
    rows,
    scores: Float64Array.from(scores),
    flags: Uint16Array.from(flags),
    skipped,
    withId,
    ...(failure ? { failure } : {}),
  };
}
