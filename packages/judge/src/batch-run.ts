import { ErrorKind, QualmError } from '@qualm/errors';
import { linkSignal } from './abort-link.js';
import { checkConcurrency, mapConcurrently } from './concurrency.js';
import { JudgeError, JudgeErrorCode } from './errors.js';
import type { ResumableOutput } from './resumable-output.js';
import { addUsage, emptyUsage, type TokenUsage } from './usage.js';

/**
 * What a resumable run does with an item whose work failed, by the kind of the error:
 * - `stop`: the failure would repeat on every item (a set-up error: a rejected key, a wrong
 *   endpoint or model, a bad option), the caller aborted, or a bug: the calls under way are
 *   aborted and the run ends with the error.
 * - `leave-out`: the item is not written and is listed in `failures`, so a rerun tries it again:
 *   a transient failure (an endpoint down, rate-limited, timing out or sending broken replies),
 *   or one of this item alone (its input, or a reply that could not be used).
 * A transient failure is never written as a finished result.
 */
export type FailureAction = 'stop' | 'leave-out';

/** The failure policy of every resumable run: see {@link FailureAction}. */
export function failureAction(error: unknown): FailureAction {
  if (!QualmError.isInstance(error)) return 'stop';
  switch (error.kind) {
    case ErrorKind.UNAVAILABLE:
    case ErrorKind.FAILED:
    case ErrorKind.INVALID_INPUT:
      return 'leave-out';
    default:
      return 'stop';
  }
}

/** An item a run could not finish; it is not written, so a rerun tries it again. */
export interface RunFailure {
  /** The item's key in the output. */
  id: string;
  code: string;
  /** The kind of the error (`unavailable` for the transient ones). */
  kind: ErrorKind;
  message: string;
}

/** Progress of a resumable run, reported after each item. */
export interface RunProgress {
  /** Items finished in this run, failed ones included. */
  done: number;
  /** Items this run has to do (those already in the output are not counted). */
  total: number;
  /** Of the finished items, those left out (in `failures`). */
  failed: number;
}

/**
 * Why a run stopped before its last item when the endpoint kept failing: how many items in a row
 * failed with it unavailable, and the last of those failures.
 */
export interface EndpointStop {
  inARow: number;
  last: RunFailure;
}

/** Items in a row that may fail with the endpoint unavailable before a run stops, by default. */
export const defaultEndpointFailuresToStop = 5;

/** What one item's work produced: the line to write and the tokens spent on it. */
export interface BatchOutcome {
  record: Record<string, unknown>;
  usage?: TokenUsage;
}

/** Options of {@link runBatch}. */
export interface RunBatchOptions<Item> {
  /** The items still to do (a resumable caller leaves out those whose key is in the output). */
  items: Iterable<Item> | AsyncIterable<Item>;
  /** How many items there are, for progress. */
  total: number;
  /** The key of an item, as failures name it. */
  key: (item: Item) => string;
  /** Does one item. It throws to fail it; {@link failureAction} decides what follows. */
  work: (item: Item, signal: AbortSignal) => Promise<BatchOutcome>;
  /**
   * Where each record is appended as soon as it is done; without one, the records are returned
   * in `records`.
   */
  output?: ResumableOutput;
  /** Items worked on at the same time (default 4). */
  concurrency?: number;
  /** Stops the run: no item starts after it aborts, the calls under way are aborted. */
  signal?: AbortSignal;
  onProgress?: (progress: RunProgress) => void;
  /** Called as the work on each item starts, with the progress so far. */
  onStart?: (item: Item, progress: RunProgress) => void;
  /**
   * Stops the run when this many items in a row have failed with the endpoint unavailable (kind
   * `unavailable`: down, timing out, rate-limited, broken replies; any other outcome in between
   * starts the count over), since every item after them would most likely fail too, each after
   * all its retries. The calls under way are aborted and the run returns with `endpointStop` set.
   * 0, or not given, never stops.
   */
  stopAfterEndpointFailures?: number;
  /**
   * Called once for each item whose record is done, as soon as it is appended to the output (or
   * kept), in the order items finish. A promise it returns holds the item's slot until it
   * settles, so a slow reader slows the run instead of piling results up; a throw (or a
   * rejection) stops the run as a bug in the work does.
   */
  onRecord?: (record: Record<string, unknown>, item: Item) => void | Promise<void>;
  /** Called once for each item left out (see {@link failureAction}), as {@link onRecord} is. */
  onFailure?: (failure: RunFailure, item: Item) => void | Promise<void>;
}

/** What {@link runBatch} did. */
export interface BatchRun {
  /** Records written (or, without an output, kept in `records`) by this run. */
  written: number;
  /** Items left out, in the order they failed. */
  failures: RunFailure[];
  /** Tokens spent by this run, failed calls included. */
  usage: TokenUsage;
  /** The run was stopped by its signal before every item was done. */
  interrupted: boolean;
  /**
   * Set when the run stopped early because the endpoint kept failing (see
   * `stopAfterEndpointFailures`): the items not started, and those cut short, were not done.
   */
  endpointStop: EndpointStop | undefined;
  /** Without an output: the records, in the order they finished. */
  records: Record<string, unknown>[];
}

/**
 * Runs `work` on every item with a concurrency limit, appending each record to the output as
 * soon as it is done (so the order on disk is the order of completion), with one failure policy
 * ({@link failureAction}): a failure that would repeat on every item aborts the calls under way
 * and is thrown; any other leaves its item out of the output and in `failures`, for a rerun. When
 * `signal` aborts, the run ends with what was written and `interrupted` set; nothing is lost but
 * the calls that were under way.
 */
export async function runBatch<Item>(options: RunBatchOptions<Item>): Promise<BatchRun> {
  const concurrency = checkConcurrency(options.concurrency);
  const stopAfter = options.stopAfterEndpointFailures ?? 0;
  if (!Number.isInteger(stopAfter) || stopAfter < 0) {
    throw new JudgeError(
      JudgeErrorCode.INVALID_CONFIG,
      `stopAfterEndpointFailures must be an integer >= 0, got ${stopAfter}`,
    );
  }
  const usage = emptyUsage();
  const failures: RunFailure[] = [];
  const records: Record<string, unknown>[] = [];
  let written = 0;
  let done = 0;
  // items finished in a row with the endpoint unavailable; any other outcome starts it over
  let endpointFailuresInARow = 0;
  let endpointStop: EndpointStop | undefined;
  const progress = (): RunProgress => ({ done, total: options.total, failed: failures.length });
  // one listener on the caller's signal, however many runs share it, removed when the run ends
  const controller = linkSignal(options.signal);
  const interrupted = () => options.signal?.aborted === true;

  // the source is not pulled once the run is stopped
  async function* pending() {
    for await (const item of options.items) {
      if (controller.signal.aborted) return;
      yield item;
    }
  }

  try {
    for await (const _ of mapConcurrently(
      pending(),
      async (item) => {
        if (controller.signal.aborted) return;
        options.onStart?.(item, progress());
        let finished: () => void | Promise<void>;
        try {
          const outcome = await options.work(item, controller.signal);
          if (outcome.usage) Object.assign(usage, addUsage(usage, outcome.usage));
          if (options.output) options.output.append(outcome.record);
          else records.push(outcome.record);
          written += 1;
          endpointFailuresInARow = 0;
          finished = () => options.onRecord?.(outcome.record, item);
        } catch (error) {
          if (JudgeError.isInstance(error)) Object.assign(usage, addUsage(usage, error.usage));
          // an abort the caller asked for, or the stop below, ends the run quietly: what was
          // written stays
          if (interrupted() || endpointStop) return;
          if (failureAction(error) === 'stop') {
            controller.abort(error);
            throw error;
          }
          const failure = failureOf(options.key(item), error);
          failures.push(failure);
          endpointFailuresInARow =
            failure.kind === ErrorKind.UNAVAILABLE ? endpointFailuresInARow + 1 : 0;
          if (stopAfter > 0 && endpointFailuresInARow >= stopAfter) {
            endpointStop = { inARow: endpointFailuresInARow, last: failure };
            controller.abort(
              new JudgeError(JudgeErrorCode.ABORTED, 'the run stopped: the endpoint kept failing'),
            );
          }
          finished = () => options.onFailure?.(failure, item);
        }
        // outside the work's failure policy: a callback that throws is the caller's bug
        try {
          await finished();
        } catch (error) {
          controller.abort(error);
          throw error;
        }
        done += 1;
        options.onProgress?.(progress());
      },
      { concurrency },
    )) {
      // every effect happens in the mapper, as each item finishes
    }
  } finally {
    controller.release();
  }
  return { written, failures, usage, interrupted: interrupted(), endpointStop, records };
}

/** A failure as a {@link RunFailure}. */
export function failureOf(id: string, error: unknown): RunFailure {
  if (QualmError.isInstance(error)) {
    return { id, code: error.code, kind: error.kind, message: error.message };
  }
  return {
    id,
    code: JudgeErrorCode.INTERNAL,
    kind: ErrorKind.INTERNAL,
    message: error instanceof Error ? error.message : String(error),
  };
}
