/** Error codes raised by @qualm/benchmark. */
export const BenchmarkErrorCode = {
  INVALID_INPUT: 'INVALID_INPUT',
  INVALID_CONFIG: 'INVALID_CONFIG',
  FILE_NOT_FOUND: 'FILE_NOT_FOUND',
} as const;

/** One of the codes of {@link BenchmarkErrorCode}, as a {@link BenchmarkError} carries it. */
export type BenchmarkErrorCode = (typeof BenchmarkErrorCode)[keyof typeof BenchmarkErrorCode];

/** A problem raised on purpose by @qualm/benchmark, with a code and a message fit to print. */
export class BenchmarkError extends Error {
  override readonly name = 'BenchmarkError';
  readonly code: BenchmarkErrorCode;

  constructor(code: BenchmarkErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.code = code;
  }
}
