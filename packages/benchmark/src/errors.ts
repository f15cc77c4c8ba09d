import { ErrorKind, QualmError } from '@qualm/errors';

/** Error codes raised by @qualm/benchmark. */
export const BenchmarkErrorCode = {
  INVALID_INPUT: 'INVALID_INPUT',
  INVALID_CONFIG: 'INVALID_CONFIG',
  FILE_NOT_FOUND: 'FILE_NOT_FOUND',
  /** The input holds nothing to work on: no questions, or none that the options select. */
  NOTHING_TO_DO: 'NOTHING_TO_DO',
  /** The caller stopped the work with its signal before it was done. */
  ABORTED: 'ABORTED',
} as const;

/** One of the codes of {@link BenchmarkErrorCode}, as a {@link BenchmarkError} carries it. */
export type BenchmarkErrorCode = (typeof BenchmarkErrorCode)[keyof typeof BenchmarkErrorCode];

const kinds: Record<BenchmarkErrorCode, ErrorKind> = {
  INVALID_INPUT: ErrorKind.INVALID_INPUT,
  INVALID_CONFIG: ErrorKind.SETUP,
  FILE_NOT_FOUND: ErrorKind.INVALID_INPUT,
  NOTHING_TO_DO: ErrorKind.INVALID_INPUT,
  ABORTED: ErrorKind.ABORTED,
};

const marker = 'qualm.error.benchmark';
const markerSymbol = Symbol.for(marker);

/** A problem raised on purpose by @qualm/benchmark, with a code and a message fit to print. */
export class BenchmarkError extends QualmError {
  readonly [markerSymbol] = true;
  override readonly name = 'BenchmarkError';
  declare readonly code: BenchmarkErrorCode;

  constructor(code: BenchmarkErrorCode, message: string, options: { cause?: unknown } = {}) {
    super({ code, kind: kinds[code], message, cause: options.cause });
  }

  /** Whether a value is a BenchmarkError, from any installed copy of this package. */
  static override isInstance(value: unknown): value is BenchmarkError {
    return QualmError.hasMarker(value, marker);
  }
}
