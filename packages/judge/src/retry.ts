/** How long to wait between attempts. */
export interface BackoffOptions {
  /** Delay before the first retry, doubled for each retry after it (default 500 ms). */
  baseDelayMs?: number;
  /** Upper bound of the exponential delay (default 8,000 ms). */
  maxDelayMs?: number;
  /**
   * Share of the delay drawn at random, 0 to 1 (default 0.5): a delay `d` becomes a value between
   * `d × (1 − jitter)` and `d`, so that many clients do not retry in step.
   */
  jitter?: number;
  /** Upper bound of a wait a server asks for with `retry-after` (default 30,000 ms). */
  maxRetryAfterMs?: number;
}

/** Backoff settings with every default filled in. */
export type ResolvedBackoff = Required<BackoffOptions>;

/** Fills in the defaults of a backoff configuration. */
export function resolveBackoff(options: BackoffOptions = {}): ResolvedBackoff {
  return {
    baseDelayMs: options.baseDelayMs ?? 500,
    maxDelayMs: options.maxDelayMs ?? 8_000,
    jitter: Math.min(1, Math.max(0, options.jitter ?? 0.5)),
    maxRetryAfterMs: options.maxRetryAfterMs ?? 30_000,
  };
}

/** The exponential delay with jitter before retry number `retry` (1 for the first retry). */
export function backoffDelay(
  retry: number,
  options: BackoffOptions = {},
  random: () => number = Math.random,
): number {
  const backoff = resolveBackoff(options);
  const exponential = Math.min(backoff.maxDelayMs, backoff.baseDelayMs * 2 ** (retry - 1));
  return exponential * (1 - backoff.jitter * random());
}

/** Reads the headers a response exposes, whatever their container. */
export interface HeaderSource {
  get(name: string): string | null | undefined;
}

/**
 * The wait a server asked for, in milliseconds: `retry-after-ms`, else `retry-after` in seconds
 * or as an HTTP date. Undefined when there is no such header or it cannot be read.
 */
export function parseRetryAfter(
  headers: HeaderSource | undefined,
  now: number = Date.now(),
): number | undefined {
  if (!headers) return undefined;
  const milliseconds = headers.get('retry-after-ms');
  if (milliseconds != null && milliseconds.trim() !== '') {
    const value = Number(milliseconds);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const header = headers.get('retry-after');
  if (header == null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(header);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** The wait before the next attempt: what the server asked for (capped), else the backoff. */
export function retryDelay(options: {
  retry: number;
  retryAfterMs: number | undefined;
  backoff: BackoffOptions | undefined;
  random?: () => number;
}): number {
  const backoff = resolveBackoff(options.backoff);
  if (options.retryAfterMs !== undefined) {
    return Math.min(options.retryAfterMs, backoff.maxRetryAfterMs);
  }
  return backoffDelay(options.retry, backoff, options.random);
}

/** Waits, or rejects as soon as the signal aborts. */
export function sleep(milliseconds: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, milliseconds);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
