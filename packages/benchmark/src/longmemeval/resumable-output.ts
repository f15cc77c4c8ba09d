import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  statSync,
  truncateSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { addUsage, emptyUsage, JudgeError, JudgeErrorCode, type TokenUsage } from '@qualm/judge';
import { BenchmarkError, BenchmarkErrorCode } from '../errors.js';

/** A JSON Lines output that a rerun continues: what is already in it, and how to add to it. */
export interface ResumableOutput {
  path: string;
  /** The lines already in the file, parsed, in file order. */
  records: Record<string, unknown>[];
  /** The key (`question_id` unless another `keyField` was given) of every line already in the file. */
  doneIds: Set<string>;
  /** Appends one record as a line at once, so a killed run loses at most the line being written. */
  append(record: Record<string, unknown>): void;
}

/** Options of {@link openResumableOutput}. */
export interface ResumableOutputOptions {
  /** The field holding the non-empty string that identifies each line (default `question_id`). */
  keyField?: string;
  /** What error messages call the output, e.g. the flag that named it (default `output`). */
  label?: string;
}

/**
 * Opens a JSON Lines output for a resumable run. Lines already there count as done; a last line
 * cut short by a killed run is dropped (and its question redone), a complete last line without
 * its newline is kept. Any other line that is not a JSON object with its key (`question_id`
 * unless `keyField` says otherwise) is an error naming the line, since appending to a file that
 * is not an output of this kind would spoil it. A missing folder is created.
 */
export function openResumableOutput(
  path: string,
  options: ResumableOutputOptions = {},
): ResumableOutput {
  const keyField = options.keyField ?? 'question_id';
  const label = options.label ?? 'output';
  const another = options.label ?? 'output file';
  const records: Record<string, unknown>[] = [];
  const doneIds = new Set<string>();
  if (existsSync(path)) {
    if (statSync(path).isDirectory()) {
      throw new BenchmarkError(
        BenchmarkErrorCode.INVALID_INPUT,
        `${label} is a directory: ${path}`,
      );
    }
    let text = readFileSync(path, 'utf8');
    if (text !== '' && !text.endsWith('\n')) {
      const end = text.lastIndexOf('\n') + 1;
      const last = text.slice(end);
      if (parseRecord(last, keyField)) {
        appendFileSync(path, '\n');
        text += '\n';
      } else {
        truncateSync(path, Buffer.byteLength(text.slice(0, end)));
        text = text.slice(0, end);
      }
    }
    for (const [index, line] of text.split('\n').entries()) {
      if (line.trim() === '') continue;
      const record = parseRecord(line, keyField);
      if (!record) {
        throw new BenchmarkError(
          BenchmarkErrorCode.INVALID_INPUT,
          `${path}:${index + 1} is not a result line with ${/^[aeiou]/i.test(keyField) ? 'an' : 'a'} ${keyField}; remove it or choose another ${another}`,
        );
      }
      records.push(record);
      doneIds.add(record[keyField] as string);
    }
  } else {
    mkdirSync(dirname(path), { recursive: true });
  }
  return {
    path,
    records,
    doneIds,
    append(record) {
      appendFileSync(path, `${JSON.stringify(record)}\n`);
      records.push(record);
      doneIds.add(String(record[keyField]));
    },
  };
}

function parseRecord(line: string, keyField: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const record = value as Record<string, unknown>;
    const key = record[keyField];
    return typeof key === 'string' && key !== '' ? record : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs `work` on every item with at most `concurrency` at a time, pulling items only as slots
 * free up (so a streamed source is never read far ahead). `work` handles its own failures; one that
 * throws stops new items from starting, and its error is thrown once the running ones are done.
 */
export async function forEachConcurrently<Item>(
  items: AsyncIterable<Item> | Iterable<Item>,
  concurrency: number,
  work: (item: Item) => Promise<void>,
): Promise<void> {
  const running = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  for await (const item of items) {
    if (failure) break;
    while (running.size >= concurrency) await Promise.race(running);
    if (failure) break;
    const task: Promise<void> = work(item)
      .catch((error: unknown) => {
        failure ??= { error };
      })
      .finally(() => running.delete(task));
    running.add(task);
  }
  await Promise.all(running);
  if (failure) throw failure.error;
}

/** Progress of a resumable run. */
export interface RunProgress {
  /** Questions finished in this run, failed ones included. */
  done: number;
  /** Questions this run had to do (those already in the output are not counted). */
  total: number;
  failed: number;
}

/** A question a run could not finish; it is not written, so a rerun tries it again. */
export interface RunFailure {
  questionId: string;
  code: string;
  message: string;
}

/** What a resumable run did, as the reader and the evaluator report it. */
export interface ResumableRun {
  outPath: string;
  /** Questions this run had to do. */
  total: number;
  /** Questions already in the output, skipped. */
  alreadyDone: number;
  written: number;
  failures: RunFailure[];
  /** Tokens spent by this run, failed calls included. */
  usage: TokenUsage;
}

/** Checks a concurrency limit (4 when not given). */
export function checkConcurrency(concurrency: number | undefined): number {
  const value = concurrency ?? 4;
  if (!Number.isInteger(value) || value < 1) {
    throw new BenchmarkError(
      BenchmarkErrorCode.INVALID_CONFIG,
      `concurrency must be a positive integer, got ${value}`,
    );
  }
  return value;
}

const fatalJudgeCodes = new Set<string>([
  JudgeErrorCode.AUTHENTICATION_FAILED,
  JudgeErrorCode.MISSING_CREDENTIALS,
  JudgeErrorCode.INVALID_CONFIG,
  JudgeErrorCode.ABORTED,
]);

/** Whether a failure would repeat on every question, so the run should stop at once. */
export function isFatal(error: unknown): boolean {
  if (error instanceof JudgeError) return fatalJudgeCodes.has(error.code);
  if (error instanceof BenchmarkError) return error.code === BenchmarkErrorCode.INVALID_CONFIG;
  return true;
}

/** A failure as a {@link RunFailure}. */
export function failureOf(questionId: string, error: unknown): RunFailure {
  const code =
    error instanceof JudgeError || error instanceof BenchmarkError ? error.code : 'UNKNOWN';
  return { questionId, code, message: error instanceof Error ? error.message : String(error) };
}

/** Options of {@link appendConcurrently}. */
export interface AppendConcurrentlyOptions<Item> {
  output: ResumableOutput;
  items: AsyncIterable<Item> | Iterable<Item>;
  /** How many items the run has to do, for progress. */
  total: number;
  concurrency: number;
  questionId: (item: Item) => string;
  /** Does one item: the line to append and the tokens spent on it. */
  work: (
    item: Item,
    signal: AbortSignal,
  ) => Promise<{ record: Record<string, unknown>; usage: TokenUsage }>;
  onProgress?: (progress: RunProgress) => void;
}

/**
 * Does every item with a concurrency limit and appends each line to the output as soon as it is
 * done. A failure that would repeat on every item aborts the calls under way and is thrown; any
 * other is listed, its item left out of the output so a rerun tries it again.
 */
export async function appendConcurrently<Item>(
  options: AppendConcurrentlyOptions<Item>,
): Promise<{ written: number; failures: RunFailure[]; usage: TokenUsage }> {
  const usage = emptyUsage();
  const failures: RunFailure[] = [];
  let written = 0;
  let done = 0;
  const controller = new AbortController();
  await forEachConcurrently(options.items, options.concurrency, async (item) => {
    try {
      const { record, usage: spent } = await options.work(item, controller.signal);
      Object.assign(usage, addUsage(usage, spent));
      options.output.append(record);
      written += 1;
    } catch (error) {
      if (isFatal(error)) {
        controller.abort();
        throw error;
      }
      if (error instanceof JudgeError) Object.assign(usage, addUsage(usage, error.usage));
      failures.push(failureOf(options.questionId(item), error));
    }
    done += 1;
    options.onProgress?.({ done, total: options.total, failed: failures.length });
  });
  return { written, failures, usage };
}
