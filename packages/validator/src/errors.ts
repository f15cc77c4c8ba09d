import { ErrorKind, QualmError } from '@qualm/errors';

/** Error codes a validator raises. */
export const ValidatorErrorCode = {
  INVALID_INPUT: 'INVALID_INPUT',
  INVALID_OPTIONS: 'INVALID_OPTIONS',
  INVALID_PATTERN: 'INVALID_PATTERN',
  UNSAFE_PATTERN: 'UNSAFE_PATTERN',
  STREAM_ENDED: 'STREAM_ENDED',
  INVALID_MODEL: 'INVALID_MODEL',
  MODEL_NOT_FOUND: 'MODEL_NOT_FOUND',
  INVALID_TRAINING_DATA: 'INVALID_TRAINING_DATA',
} as const;

/** One of the codes in {@link ValidatorErrorCode}. */
export type ValidatorErrorCode = (typeof ValidatorErrorCode)[keyof typeof ValidatorErrorCode];

const kinds: Record<ValidatorErrorCode, ErrorKind> = {
  INVALID_INPUT: ErrorKind.INVALID_INPUT,
  INVALID_OPTIONS: ErrorKind.SETUP,
  INVALID_PATTERN: ErrorKind.SETUP,
  UNSAFE_PATTERN: ErrorKind.SETUP,
  // pushing to a stream that has ended is a mistake in the calling code
  STREAM_ENDED: ErrorKind.INTERNAL,
  // a model file that is missing, corrupt or of another format: the set-up is wrong
  INVALID_MODEL: ErrorKind.SETUP,
  MODEL_NOT_FOUND: ErrorKind.SETUP,
  INVALID_TRAINING_DATA: ErrorKind.INVALID_INPUT,
};

const marker = 'qualm.error.validator';
const markerSymbol = Symbol.for(marker);

/**
 * A problem with what the validator was given: a non-string text, a bad option or pattern, a
 * missing or corrupt model file, rows a model cannot be trained on.
 */
export class ValidatorError extends QualmError {
  readonly [markerSymbol] = true;
  override readonly name = 'ValidatorError';
  declare readonly code: ValidatorErrorCode;

  constructor(code: ValidatorErrorCode, message: string, options: { cause?: unknown } = {}) {
    super({ code, kind: kinds[code], message, cause: options.cause });
  }

  /** Whether a value is a ValidatorError, from any installed copy of this package. */
  static override isInstance(value: unknown): value is ValidatorError {
    return QualmError.hasMarker(value, marker);
  }
}
