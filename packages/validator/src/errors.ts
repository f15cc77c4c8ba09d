/** Error codes a validator raises. */
export const ValidatorErrorCode = {
  INVALID_INPUT: 'INVALID_INPUT',
  INVALID_OPTIONS: 'INVALID_OPTIONS',
  INVALID_PATTERN: 'INVALID_PATTERN',
  UNSAFE_PATTERN: 'UNSAFE_PATTERN',
  STREAM_ENDED: 'STREAM_ENDED',
} as const;

/** One of the codes in {@link ValidatorErrorCode}. */
export type ValidatorErrorCode = (typeof ValidatorErrorCode)[keyof typeof ValidatorErrorCode];

/** A problem with what the validator was given: a non-string text, a bad option or pattern. */
export class ValidatorError extends Error {
  override readonly name = 'ValidatorError';
  readonly code: ValidatorErrorCode;

  constructor(code: ValidatorErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.code = code;
  }
}
