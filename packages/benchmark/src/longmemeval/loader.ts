import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { looksBinary, withoutByteOrderMark } from '@qualm/errors';
import type { z } from 'zod';
import { BenchmarkError, BenchmarkErrorCode } from '../errors.js';
import { JsonArraySplitter, JsonArraySyntaxError } from './json-array-splitter.js';
import {
  formatIssues,
  type LongMemEvalQuestion,
  type LongMemEvalRunEntry,
  longMemEvalQuestionSchema,
  longMemEvalRunEntrySchema,
} from './schema.js';

/**
 * Opens a file as a byte stream, gunzipping it when it starts with the gzip magic bytes (so a
 * `.gz` file works under any name), with a clear error for a missing file, a directory, or binary
 * data that is not gzip (an executable, an image: checked on the first 8 KB).
 */
export async function openDataFile(path: string): Promise<Readable> {
  let isFile: boolean;
  try {
    isFile = (await stat(path)).isFile();
  } catch (error) {
    throw new BenchmarkError(BenchmarkErrorCode.FILE_NOT_FOUND, `file not found: ${path}`, {
      cause: error,
    });
  }
  if (!isFile) {
    throw new BenchmarkError(BenchmarkErrorCode.INVALID_INPUT, `not a regular file: ${path}`);
  }
  const handle = await open(path, 'r');
  const head = Buffer.alloc(8192);
  let length: number;
  try {
    ({ bytesRead: length } = await handle.read(head, 0, head.length, 0));
  } finally {
    await handle.close();
  }
  const gzip = length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
  if (!gzip && looksBinary(head.subarray(0, length))) {
    throw new BenchmarkError(
      BenchmarkErrorCode.INVALID_INPUT,
      `${path} is binary data, not JSON text (it holds NUL or control bytes)`,
    );
  }
  const file = createReadStream(path, { highWaterMark: 1 << 20 });
  if (!gzip) return file;
  const gunzip = createGunzip({ chunkSize: 1 << 20 });
  // errors of either stream end the iteration of `gunzip` with that error
  pipeline(file, gunzip, () => {});
  return gunzip;
}

/**
 * Streams the questions of a LongMemEval file (oracle, S or M; plain or gzip), one record at a
 * time, each validated. A malformed record, invalid JSON, a truncated file or corrupt gzip data
 * throws a {@link BenchmarkError} naming the file, the record's index and id, and the field.
 */
export function streamLongMemEval(path: string): AsyncGenerator<LongMemEvalQuestion> {
  return streamLongMemEvalRecords(path, longMemEvalQuestionSchema);
}

/**
 * Streams the records of a LongMemEval file as {@link streamLongMemEval} does, each validated with
 * the given schema instead of the full one: a pass that needs a few fields (such as
 * `longMemEvalQuestionKeySchema`) is spared validating every turn of every history. Besides the
 * official JSON array, a file of one record per line (JSON Lines, such as a retrieval log, which
 * the harness's generation also reads) is accepted.
 */
export async function* streamLongMemEvalRecords<Schema extends z.ZodType<{ question_id: string }>>(
  path: string,
  schema: Schema,
): AsyncGenerator<z.output<Schema>> {
  const input = await openDataFile(path);
  const splitter = new JsonArraySplitter();
  let lastId: string | undefined;
  let lines: JsonLineSplitter | undefined;
  let started = false;
  const where = () =>
    lastId === undefined
      ? 'before any record'
      : lines
        ? `after line ${lines.lineCount} (question_id "${lastId}")`
        : `after record ${splitter.elementCount - 1} (question_id "${lastId}")`;
  try {
    const chunks = input[Symbol.asyncIterator]();
    while (true) {
      let next: IteratorResult<Buffer>;
      try {
        next = await chunks.next();
      } catch (error) {
        throw new BenchmarkError(
          BenchmarkErrorCode.INVALID_INPUT,
          `${path}: ${readProblem(error)} ${where()} (${(error as Error).message})`,
          { cause: error },
        );
      }
      if (next.done) break;
      if (!started) {
        const first = next.value.find((byte) => !whitespaceBytes.has(byte));
        if (first === undefined) continue;
        started = true;
        // a record first: JSON Lines, one record per line
        if (first === 0x7b) lines = new JsonLineSplitter();
      }
      if (lines) {
        for (const line of lines.push(next.value)) {
          const question = parseLine(path, line.number, line.bytes, schema);
          lastId = question.question_id;
          yield question;
        }
        continue;
      }
      let elements: Buffer[];
      try {
        elements = splitter.push(next.value);
      } catch (error) {
        throw syntaxError(path, error);
      }
      const first = splitter.elementCount - elements.length;
      for (const [offset, bytes] of elements.entries()) {
        const question = parseRecord(path, first + offset, bytes, schema);
        lastId = question.question_id;
        yield question;
      }
    }
    if (lines) {
      const last = lines.end();
      if (last) {
        const question = parseLine(path, last.number, last.bytes, schema);
        lastId = question.question_id;
        yield question;
      }
      return;
    }
    try {
      splitter.end();
    } catch (error) {
      throw syntaxError(path, error, lastId);
    }
  } finally {
    input.destroy();
  }
}

const whitespaceBytes = new Set([0x20, 0x09, 0x0a, 0x0d, 0xef, 0xbb, 0xbf]);

// cuts bytes into lines, keeping only what a line not yet ended needs
class JsonLineSplitter {
  lineCount = 0;
  private pending: Buffer[] = [];

  push(chunk: Buffer): { number: number; bytes: Buffer }[] {
    const lines: { number: number; bytes: Buffer }[] = [];
    let start = 0;
    for (let end = chunk.indexOf(0x0a); end !== -1; end = chunk.indexOf(0x0a, start)) {
      this.pending.push(chunk.subarray(start, end));
      this.lineCount += 1;
      const bytes = Buffer.concat(this.pending);
      this.pending = [];
      if (bytes.some((byte) => !whitespaceBytes.has(byte))) {
        lines.push({ number: this.lineCount, bytes });
      }
      start = end + 1;
    }
    if (start < chunk.length) this.pending.push(chunk.subarray(start));
    return lines;
  }

  end(): { number: number; bytes: Buffer } | undefined {
    const bytes = Buffer.concat(this.pending);
    this.pending = [];
    if (!bytes.some((byte) => !whitespaceBytes.has(byte))) return undefined;
    this.lineCount += 1;
    return { number: this.lineCount, bytes };
  }
}

function parseLine<Schema extends z.ZodType>(
  path: string,
  lineNumber: number,
  bytes: Buffer,
  schema: Schema,
): z.output<Schema> {
  let value: unknown;
  try {
    // a mark that some editors write at the start of a file is not part of the first line
    const text = bytes.toString('utf8');
    value = JSON.parse(lineNumber === 1 ? withoutByteOrderMark(text) : text);
  } catch (error) {
    throw new BenchmarkError(
      BenchmarkErrorCode.INVALID_INPUT,
      `${path}:${lineNumber} is not valid JSON (${(error as Error).message})`,
      { cause: error },
    );
  }
  return validated(`${path}:${lineNumber}`, value, schema);
}

/**
 * Loads a whole LongMemEval file into a map by question id; a question id that occurs twice is an
 * error naming both records.
 */
export async function loadLongMemEval(path: string): Promise<Map<string, LongMemEvalQuestion>> {
  const questions = new Map<string, LongMemEvalQuestion>();
  const indexes = new Map<string, number>();
  let index = 0;
  for await (const question of streamLongMemEval(path)) {
    const previous = indexes.get(question.question_id);
    if (previous !== undefined) {
      throw new BenchmarkError(
        BenchmarkErrorCode.INVALID_INPUT,
        `${path}: records ${previous} and ${index} have the same question_id "${question.question_id}"`,
      );
    }
    indexes.set(question.question_id, index);
    questions.set(question.question_id, question);
    index += 1;
  }
  return questions;
}

// zlib's errors carry Z_… codes: the bytes are not complete gzip data
function readProblem(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('Z_')
    ? 'truncated or corrupt gzip data'
    : 'cannot read the file';
}

function parseRecord<Schema extends z.ZodType>(
  path: string,
  index: number,
  bytes: Buffer,
  schema: Schema,
): z.output<Schema> {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new BenchmarkError(
      BenchmarkErrorCode.INVALID_INPUT,
      `${path}: record ${index} is not valid JSON (${(error as Error).message})`,
      { cause: error },
    );
  }
  return validated(`${path}: record ${index}`, value, schema);
}

function validated<Schema extends z.ZodType>(
  where: string,
  value: unknown,
  schema: Schema,
): z.output<Schema> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const id = (value as { question_id?: unknown } | null)?.question_id;
    const name = typeof id === 'string' ? ` (question_id "${id}")` : '';
    throw new BenchmarkError(
      BenchmarkErrorCode.INVALID_INPUT,
      `${where}${name}: ${formatIssues(result.error.issues)}`,
      { cause: result.error },
    );
  }
  return result.data;
}

function syntaxError(path: string, error: unknown, lastId?: string): BenchmarkError {
  if (!(error instanceof JsonArraySyntaxError)) throw error;
  const after = lastId === undefined ? '' : ` (the last complete record is "${lastId}")`;
  return new BenchmarkError(
    BenchmarkErrorCode.INVALID_INPUT,
    `${path}: ${error.message}${after}: truncated or malformed JSON`,
    { cause: error },
  );
}

/** What {@link readRunFile} returns. */
export interface RunFile {
  entries: LongMemEvalRunEntry[];
  /** Lines skipped as invalid when `skipInvalid` was set. */
  skippedLines: number;
}

/**
 * Reads a run file in the official JSON Lines format (`{question_id, hypothesis,
 * autoeval_label?: {model, label}}`, plain or gzip). An invalid line is an error naming the file,
 * the line number and the field, unless `skipInvalid` is set, in which case it is counted.
 */
export async function readRunFile(
  path: string,
  options: { skipInvalid?: boolean } = {},
): Promise<RunFile> {
  const input = await openDataFile(path);
  const entries: LongMemEvalRunEntry[] = [];
  let skippedLines = 0;
  let lineNumber = 0;
  try {
    const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
    for await (const line of lines) {
      lineNumber += 1;
      if (line.trim() === '') continue;
      let problem: string | undefined;
      let value: unknown;
      try {
        // a mark that some editors write at the start of a file is not part of the first line
        value = JSON.parse(lineNumber === 1 ? withoutByteOrderMark(line) : line);
      } catch (error) {
        problem = `is not valid JSON (${(error as Error).message})`;
      }
      if (problem === undefined) {
        const result = longMemEvalRunEntrySchema.safeParse(value);
        if (result.success) {
          entries.push(result.data);
          continue;
        }
        problem = formatIssues(result.error.issues);
      }
      if (options.skipInvalid) {
        skippedLines += 1;
        continue;
      }
      throw new BenchmarkError(
        BenchmarkErrorCode.INVALID_INPUT,
        `${path}:${lineNumber}: ${problem}`,
      );
    }
  } catch (error) {
    if (error instanceof BenchmarkError) throw error;
    throw new BenchmarkError(
      BenchmarkErrorCode.INVALID_INPUT,
      `${path}: ${readProblem(error)} after line ${lineNumber} (${(error as Error).message})`,
      { cause: error },
    );
  } finally {
    input.destroy();
  }
  return { entries, skippedLines };
}

/** Run entries paired with their questions, and the ids of the run that the data lacks. */
export interface RunJoin {
  pairs: { entry: LongMemEvalRunEntry; question: LongMemEvalQuestion }[];
  /** Question ids of run entries with no question in the data, in run order; they are skipped. */
  missingIds: string[];
}

/** Pairs each run entry with its question; entries whose id the data lacks are skipped and listed. */
export function joinRunWithQuestions(
  entries: readonly LongMemEvalRunEntry[],
  questions: ReadonlyMap<string, LongMemEvalQuestion>,
): RunJoin {
  const pairs: RunJoin['pairs'] = [];
  const missingIds: string[] = [];
  for (const entry of entries) {
    const question = questions.get(entry.question_id);
    if (question) pairs.push({ entry, question });
    else missingIds.push(entry.question_id);
  }
  return { pairs, missingIds };
}
