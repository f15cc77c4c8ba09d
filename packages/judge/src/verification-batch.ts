import { createReadStream, existsSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { ErrorKind, looksBinary } from '@qualm/errors';
import { z } from 'zod';
import { summarizeResults, type VerificationSummary } from './batch.js';
import {
  defaultEndpointFailuresToStop,
  type EndpointStop,
  type RunFailure,
  type RunProgress,
  runBatch,
} from './batch-run.js';
import { VerificationConfig } from './config.js';
import { JudgeError, JudgeErrorCode, judgeErrorKinds } from './errors.js';
import {
  type AgentTrace,
  runPipeline,
  type StageError,
  type StageName,
  type VerificationItem,
  type VerificationResult,
  type VerifyOptions,
} from './pipeline.js';
import { openResumableOutput } from './resumable-output.js';
import { checkExpected, type Template } from './template.js';
import type { TokenUsage } from './usage.js';

/** One line of a verification input: `{id, question, response?, expected?, trace?}`. */
export const verificationInputSchema = z.object({
  id: z
    .union([z.string().min(1), z.number()], { error: 'must be a non-empty string or a number' })
    .transform(String),
  question: z.string().min(1, 'must not be empty'),
  response: z.string().optional(),
  expected: z.record(z.string(), z.unknown()).optional(),
  trace: z
    .object({
      messages: z.array(z.object({ role: z.string(), content: z.string().nullable() })),
      recursionLimitReached: z.boolean().optional(),
    })
    .optional(),
});

/** An item of a verification input, its id a string. */
export type VerificationInputItem = VerificationItem & { id: string };

/** Options of {@link readVerificationItems}. */
export interface ReadVerificationItemsOptions {
  /** The template the items' expected values must fit. */
  template?: Template;
}

/**
 * Reads a JSON Lines file of items to verify (`-` for stdin), each line checked: a line that is
 * not a JSON object, misses its question or id, repeats an id (which would make resuming
 * ambiguous) or has expected values that do not fit the template is an error naming the line.
 * A binary file, or a file without items, is an error too.
 */
export async function readVerificationItems(
  path: string,
  options: ReadVerificationItemsOptions = {},
): Promise<VerificationInputItem[]> {
  const source = path === '-' ? 'stdin' : path;
  const items: VerificationInputItem[] = [];
  const seen = new Map<string, number>();
  const invalid = (lineNumber: number, problem: string) =>
    new JudgeError(JudgeErrorCode.INVALID_INPUT, `${source}:${lineNumber} ${problem}`);
  for await (const { lineNumber, line } of textLines(path, source)) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw invalid(lineNumber, `is not valid JSON (${(error as Error).message})`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw invalid(lineNumber, 'is not a JSON object');
    }
    const parsed = verificationInputSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue && issue.path.length > 0 ? issue.path.join('.') : 'line';
      const top = issue?.path[0];
      if (typeof top === 'string' && issue?.path.length === 1 && !(top in value)) {
        throw invalid(lineNumber, `has no "${top}" (each line needs "id" and "question")`);
      }
      throw invalid(lineNumber, `${field}: ${issue?.message ?? 'invalid'}`);
    }
    const entry = parsed.data;
    const earlier = seen.get(entry.id);
    if (earlier !== undefined) {
      throw invalid(lineNumber, `id "${entry.id}" was already used on line ${earlier}`);
    }
    seen.set(entry.id, lineNumber);
    if (options.template && entry.expected) {
      const problem = checkExpected(options.template.schema, entry.expected);
      if (problem !== undefined) {
        throw invalid(lineNumber, `expected values do not fit the template: ${problem}`);
      }
    }
    items.push({
      id: entry.id,
      question: entry.question,
      response: entry.response,
      expected: entry.expected,
      trace: entry.trace as AgentTrace | undefined,
    });
  }
  if (items.length === 0) {
    throw new JudgeError(
      JudgeErrorCode.INVALID_INPUT,
      `${source} holds no items: each line should be {"id", "question", …}`,
    );
  }
  return items;
}

// the lines of a file or of stdin; a missing file, a folder or binary data is an error
async function* textLines(
  path: string,
  source: string,
): AsyncGenerator<{ lineNumber: number; line: string }> {
  let input: NodeJS.ReadableStream;
  if (path === '-') input = process.stdin;
  else {
    if (!existsSync(path))
      throw new JudgeError(JudgeErrorCode.INVALID_INPUT, `file not found: ${path}`);
    if (statSync(path).isDirectory()) {
      throw new JudgeError(
        JudgeErrorCode.INVALID_INPUT,
        `expected a file, got a directory: ${path}`,
      );
    }
    input = createReadStream(path);
  }
  let checked = false;
  const checkedInput = async function* () {
    for await (const chunk of input) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      if (!checked) {
        checked = true;
        if (looksBinary(bytes.subarray(0, 8192))) {
          throw new JudgeError(
            JudgeErrorCode.INVALID_INPUT,
            `${source} is binary data, not JSON Lines text`,
          );
        }
      }
      yield bytes;
    }
  };
  const lines = createInterface({
    input: Readable.from(checkedInput()),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber += 1;
    yield { lineNumber, line };
  }
}

/** A verification result as a line of an output: the fields a summary and a reader need. */
export interface VerificationRecord {
  id: string;
  verifyResult: boolean | null;
  failedStage: StageName | null;
  error: StageError | null;
  abstentionCheckPerformed: boolean;
  abstentionDetected: boolean | null;
  sufficiencyCheckPerformed: boolean;
  sufficiencyDetected: boolean | null;
  llmCalls: number;
  usage: TokenUsage;
  [key: string]: unknown;
}

/** The line a verification batch writes for a result. */
export function verificationRecord(result: VerificationResult): VerificationRecord {
  const stageUsage: Record<string, { llmCalls: number; totalTokens: number }> = {};
  for (const stage of result.stages) {
    if (stage.usage.requests > 0) {
      stageUsage[stage.stage] = { llmCalls: stage.llmCalls, totalTokens: stage.usage.totalTokens };
    }
  }
  return {
    id: result.id ?? '',
    verifyResult: result.verifyResult,
    failedStage: result.failedStage,
    error: result.error,
    abstentionCheckPerformed: result.abstentionCheckPerformed,
    abstentionDetected: result.abstentionDetected,
    abstentionReasoning: result.abstentionReasoning,
    abstentionOverrideApplied: result.abstentionOverrideApplied,
    abstentionError: result.abstentionError,
    sufficiencyCheckPerformed: result.sufficiencyCheckPerformed,
    sufficiencyDetected: result.sufficiencyDetected,
    sufficiencyReasoning: result.sufficiencyReasoning,
    sufficiencyOverrideApplied: result.sufficiencyOverrideApplied,
    sufficiencyError: result.sufficiencyError,
    sufficiencyMissingFields: result.sufficiencyMissingFields,
    parsed: result.parsed,
    verifyMismatches: result.verifyMismatches,
    ...(result.evaluationMode !== 'template_only'
      ? { rubricScores: result.rubricScores, rubricError: result.rubricError }
      : {}),
    llmCalls: result.llmCalls,
    usage: result.usage,
    stageUsage,
  };
}

/** Options of {@link runVerificationBatch}. */
export interface VerificationBatchOptions extends VerifyOptions {
  /** The items, each with an id (see {@link readVerificationItems}). */
  items: readonly VerificationInputItem[];
  /**
   * A JSON Lines output: each result is appended as it finishes and a rerun with the same output
   * verifies only the ids not in it yet. Without one, the results come back in `records`.
   */
  out?: string;
  /** What error messages call the output (default `output`). */
  outLabel?: string;
  /** Items verified at the same time (default 4). */
  concurrency?: number;
  /**
   * Stops the run when this many items in a row have failed with the endpoint unavailable (down,
   * timing out, rate-limited, broken replies): `endpointStop` says so, and a rerun with the same
   * output goes on from there. Default 5; 0 never stops.
   */
  stopAfterEndpointFailures?: number;
  onProgress?: (progress: RunProgress) => void;
  /** Called as the work on each item starts: `index` is its position in `items`. */
  onStart?: (index: number, progress: RunProgress) => void;
  /**
   * Called once for each item whose result is done (errored ones included), as soon as it is
   * written (or kept, without an output), in the order items finish, not in input order: `index`
   * is the item's position in `items`, so a caller can restore the input order. A promise it
   * returns holds the item's slot until it settles (a slow reader slows the run); a throw or a
   * rejection stops the run, aborts the calls under way and is thrown. Items already in the
   * output are not called back.
   */
  onRecord?: (record: VerificationRecord, index: number) => void | Promise<void>;
  /**
   * Called once for each item left out for a rerun (it is in `failures` too), as {@link onRecord}
   * is. Every item the run finishes gets one call of `onRecord` or of `onFailure`; items cut short
   * by the signal, or by a failure that stops the run, get none.
   */
  onFailure?: (failure: RunFailure, index: number) => void | Promise<void>;
}

/** What {@link runVerificationBatch} did. */
export interface VerificationBatchRun {
  /** Items this run had to do. */
  total: number;
  /** Items whose id was already in the output, skipped. */
  alreadyDone: number;
  /** Results written (or returned) by this run. */
  written: number;
  /**
   * The ids of this run's items that got no result, in input order: those left out
   * (`failures`), and those never finished because the run stopped early or was interrupted.
   */
  notJudged: string[];
  /** Without an output: this run's results, in input order. */
  records: VerificationRecord[];
  /** Items left out, for a rerun: an endpoint that failed on them, or a call cut short. */
  failures: RunFailure[];
  /**
   * Items of this run whose result holds an error: a stage that failed (a reply that never fit
   * the schema, say) or a fail-safe check that errored. Their results are written, error
   * included, but do not count as done: a rerun with the same output verifies them again and
   * replaces their lines.
   */
  errored: RunFailure[];
  /** Tokens and requests spent by this run, on items left out too. */
  usage: TokenUsage;
  interrupted: boolean;
  /**
   * Set when the run stopped early because the endpoint kept failing, with items it never
   * finished beyond those in `failures`.
   */
  endpointStop: EndpointStop | undefined;
  /** Rates and totals over everything in the output (or this run's results without one). */
  summary: VerificationSummary;
  /** Rates and totals over the results of this run alone. */
  runSummary: VerificationSummary;
}

// the kinds of stage error that say nothing about the item: the item is left out for a rerun
const notFinished = new Set<string>([
  ErrorKind.UNAVAILABLE,
  ErrorKind.ABORTED,
  ErrorKind.SETUP,
  ErrorKind.INTERNAL,
]);

/**
 * Verifies items as a resumable batch with the one failure policy of every qualm run
 * ({@link failureAction}): a result is written only when it is finished. A result whose pipeline
 * (or a fail-safe check) met a transient endpoint failure is left out and listed in `failures`,
 * so a rerun verifies it again; a set-up failure (a rejected key, a wrong endpoint or model)
 * stops the run and is thrown. When `stopAfterEndpointFailures` items in a row (default 5) found
 * the endpoint unavailable, the run stops there and says so in `endpointStop`. The endpoint is
 * checked before the first item.
 */
export async function runVerificationBatch(
  options: VerificationBatchOptions,
): Promise<VerificationBatchRun> {
  const config = VerificationConfig.from(options.config);
  const output = options.out
    ? openResumableOutput(options.out, {
        keyField: 'id',
        label: options.outLabel ?? 'output',
        isFinished: (record) => recordError(record) === undefined,
      })
    : undefined;
  // each item with its position in the input, for the callbacks
  const pending = options.items
    .map((item, index) => ({ item, index }))
    .filter(({ item }) => !output?.doneIds.has(item.id));
  if (pending.length > 0) await options.judge.checkEndpoint({ signal: options.signal });
  // the lines of results that ended in errors make way for the new ones
  if (output) {
    output.remove(
      new Set(pending.map(({ item }) => item.id).filter((id) => output.unfinishedIds.has(id))),
    );
  }
  const errored: RunFailure[] = [];
  // this run's results, for its own summary (the output's records hold the earlier runs' too)
  const judged: VerificationRecord[] = [];
  const { onRecord, onFailure, onStart } = options;
  const run = await runBatch({
    items: pending,
    total: pending.length,
    key: ({ item }) => item.id,
    output,
    concurrency: options.concurrency,
    signal: options.signal,
    stopAfterEndpointFailures: options.stopAfterEndpointFailures ?? defaultEndpointFailuresToStop,
    onProgress: options.onProgress,
    onStart: onStart && (({ index }, progress) => onStart(index, progress)),
    onRecord: onRecord && ((record, { index }) => onRecord(record as VerificationRecord, index)),
    onFailure: onFailure && ((failure, { index }) => onFailure(failure, index)),
    work: async ({ item }, signal) => {
      const result = await runPipeline(item, { ...options, signal }, config);
      const unfinished = [
        result.error,
        result.abstentionError,
        result.sufficiencyError,
        result.rubricError,
      ].find((error) => error !== null && notFinished.has(kindOf(error.code)));
      if (unfinished) {
        throw new JudgeError(unfinished.code as JudgeErrorCode, unfinished.message, {
          usage: result.usage,
        });
      }
      const record = verificationRecord(result);
      judged.push(record);
      const error = recordError(record);
      if (error) {
        errored.push({
          id: item.id,
          code: error.code,
          kind: kindOf(error.code),
          message: error.message,
        });
      }
      return { record, usage: result.usage };
    },
  });
  const order = new Map(options.items.map((item, index) => [item.id, index]));
  const records = (run.records as VerificationRecord[]).sort(
    (left, right) => (order.get(left.id) ?? 0) - (order.get(right.id) ?? 0),
  );
  const summarized = output ? (output.records as VerificationRecord[]) : records;
  const judgedIds = new Set(judged.map((record) => record.id));
  const runSummary = summarizeResults(judged);
  const notJudged = pending.map(({ item }) => item.id).filter((id) => !judgedIds.has(id));
  return {
    total: pending.length,
    alreadyDone: options.items.length - pending.length,
    written: run.written,
    notJudged,
    records,
    failures: run.failures,
    errored,
    usage: run.usage,
    interrupted: run.interrupted,
    // a stop after the last item had started left nothing undone: the failures say it all
    endpointStop: notJudged.length > run.failures.length ? run.endpointStop : undefined,
    summary: output ? summarizeResults(summarized) : runSummary,
    runSummary,
  };
}

function kindOf(code: string): ErrorKind {
  return judgeErrorKinds[code as JudgeErrorCode] ?? ErrorKind.INTERNAL;
}

/**
 * The first error a result line holds (the stage error, then the fail-safe checks' and the
 * rubric's), with its stage in the message; undefined for a finished result.
 */
export function recordError(
  record: Record<string, unknown>,
): { code: string; message: string } | undefined {
  for (const field of ['error', 'abstentionError', 'sufficiencyError', 'rubricError']) {
    const error = record[field] as Partial<StageError> | null | undefined;
    if (error && typeof error === 'object') {
      const stage = typeof error.stage === 'string' ? `${error.stage}: ` : '';
      return {
        code: typeof error.code === 'string' ? error.code : JudgeErrorCode.INTERNAL,
        message: `${stage}${typeof error.message === 'string' ? error.message : 'an error'}`,
      };
    }
  }
  return undefined;
}
