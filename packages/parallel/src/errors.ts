import { ErrorKind, QualmError } from '@qualm/errors';

/** Error codes of @qualm/parallel. */
export const ParallelErrorCode = {
  /** A line of the input is not a JSON object with the response text where it should be. */
  INVALID_INPUT: 'INVALID_INPUT',
  /**
   * A line of the input is too long to read as one string; `skipInvalid` does not skip it, as it
   * cannot be read to its end.
   */
  LINE_TOO_LONG: 'LINE_TOO_LONG',
  /** An option is out of range or of the wrong kind. */
  INVALID_OPTIONS: 'INVALID_OPTIONS',
  /** A worker thread failed (it could not start, or it crashed). */
  WORKER_FAILED: 'WORKER_FAILED',
} as const;

/** One of the codes in {@link ParallelErrorCode}. */
export type ParallelErrorCode = (typeof ParallelErrorCode)[keyof typeof ParallelErrorCode];

const kinds: Record<ParallelErrorCode, ErrorKind> = {
  INVALID_INPUT: ErrorKind.INVALID_INPUT,
  LINE_TOO_LONG: ErrorKind.INVALID_INPUT,
  INVALID_OPTIONS: ErrorKind.SETUP,
  WORKER_FAILED: ErrorKind.FAILED,
};

const marker = 'qualm.error.parallel';
const markerSymbol = Symbol.for(marker);

/** A problem raised on purpose by @qualm/parallel, with a code and a message fit to print. */
export class ParallelError extends QualmError {
  readonly [markerSymbol] = true;
  override readonly name = 'ParallelError';
  declare readonly code: ParallelErrorCode;

  constructor(code: ParallelErrorCode, message: string, options: { cause?: unknown } = {}) {
    super({ code, kind: kinds[code], message, cause: options.cause });
  }

  /** Whether a value is a ParallelError, from any installed copy of this package. */
  static override isInstance(value: unknown): value is ParallelError {
    return QualmError.hasMarker(value, marker);
  }
}
