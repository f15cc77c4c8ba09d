const marker = Symbol.for('qualm.error');

/** Error codes of @qualm/parallel. */
export const ParallelErrorCode = {
  /** A line of the input is not a JSON object with the response text where it should be. */
  INVALID_INPUT: 'INVALID_INPUT',
  /** An option is out of range or of the wrong kind. */
  INVALID_OPTIONS: 'INVALID_OPTIONS',
  /** A worker thread failed (it could not start, or it crashed). */
  WORKER_FAILED: 'WORKER_FAILED',
} as const;

/** One of the codes in {@link ParallelErrorCode}. */
export type ParallelErrorCode = (typeof ParallelErrorCode)[keyof typeof ParallelErrorCode];

/** A problem raised on purpose by @qualm/parallel, with a code and a message fit to print. */
export class ParallelError extends Error {
  override readonly name = 'ParallelError';
  readonly code: ParallelErrorCode;

  constructor(code: ParallelErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.code = code;
    Object.defineProperty(this, marker, { value: true });
  }

  /** Whether a value is a ParallelError, also one from another installed copy of the package. */
  static isInstance(value: unknown): value is ParallelError {
    return (
      typeof value === 'object' &&
      value !== null &&
      marker in value &&
      (value as { name?: unknown }).name === 'ParallelError'
    );
  }
}
