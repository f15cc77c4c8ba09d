import { JudgeError, JudgeErrorCode } from './errors.js';

/** Options of {@link mapConcurrently}. */
export interface MapConcurrentlyOptions {
  /** Items worked on at the same time (an integer >= 1). */
  concurrency: number;
  /**
   * Hand results out in input order (`true`), each as soon as it and every earlier one are done,
   * or in the order they finish (`false`, the default).
   */
  ordered?: boolean;
}

/** Checks a concurrency limit: an integer >= 1 (4 when not given). */
export function checkConcurrency(concurrency: number | undefined): number {
  const value = concurrency ?? 4;
  if (!Number.isInteger(value) || value < 1) {
    throw new JudgeError(
      JudgeErrorCode.INVALID_CONFIG,
      `concurrency must be an integer >= 1, got ${value}`,
    );
  }
  return value;
}

/**
 * Maps items with at most `concurrency` calls of `mapper` at a time and yields each result as
 * it is ready. Items are pulled only as slots free up, and in ordered mode at most
 * `concurrency × 32` finished results wait for an earlier one, so a streamed source is never read
 * far ahead and memory stays flat. When `mapper` rejects, no item starts after it; the calls under
 * way finish, the results that can still be handed out are, and then the error is thrown. Leaving the loop
 * early starts no further item and closes the source.
 */
export async function* mapConcurrently<Item, Result>(
  items: Iterable<Item> | AsyncIterable<Item>,
  mapper: (item: Item, index: number) => Promise<Result>,
  options: MapConcurrentlyOptions,
): AsyncGenerator<Result, void, undefined> {
  const concurrency = checkConcurrency(options.concurrency);
  const ordered = options.ordered ?? false;
  const iterator =
    Symbol.asyncIterator in items
      ? (items as AsyncIterable<Item>)[Symbol.asyncIterator]()
      : (items as Iterable<Item>)[Symbol.iterator]();
  const maxAhead = concurrency * 32;
  // finished results by input position; in completion order they leave in arrival order
  const finished = new Map<number, Result>();
  let started = 0;
  let handedOut = 0;
  let running = 0;
  let exhausted = false;
  // set once the consumer stops (a break or a throw) or a mapper fails: no item starts after that
  let stopped = false;
  let pulling = false;
  let failure: { error: unknown } | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };

  const pump = async () => {
    if (pulling) return;
    pulling = true;
    try {
      while (
        !stopped &&
        failure === undefined &&
        !exhausted &&
        running < concurrency &&
        started - handedOut < maxAhead
      ) {
        const next = await iterator.next();
        if (next.done) {
          exhausted = true;
          break;
        }
        if (stopped) {
          // the consumer stopped while this pull was pending; the source is closed here
          await iterator.return?.();
          break;
        }
        const index = started;
        started += 1;
        running += 1;
        mapper(next.value, index).then(
          (result) => {
            finished.set(index, result);
            running -= 1;
            notify();
            void pump();
          },
          (error: unknown) => {
            failure ??= { error };
            running -= 1;
            notify();
          },
        );
      }
    } catch (error) {
      failure ??= { error };
      exhausted = true;
    } finally {
      pulling = false;
      notify();
    }
  };

  const next = (): { found: true; result: Result } | { found: false } => {
    if (ordered) {
      if (!finished.has(handedOut)) return { found: false };
      const result = finished.get(handedOut) as Result;
      finished.delete(handedOut);
      return { found: true, result };
    }
    const first = finished.entries().next();
    if (first.done) return { found: false };
    finished.delete(first.value[0]);
    return { found: true, result: first.value[1] };
  };

  void pump();
  try {
    while (true) {
      const taken = next();
      if (taken.found) {
        handedOut += 1;
        void pump();
        yield taken.result;
        continue;
      }
      if (running === 0 && !pulling && (exhausted || failure !== undefined)) {
        if (failure !== undefined) throw failure.error;
        return;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  } finally {
    stopped = true;
    // a pull under way closes the source itself once it returns, so this never waits on it
    if (!exhausted && !pulling) await iterator.return?.();
  }
}
