import { ErrorKind, QualmError } from '@qualm/errors';

/** Error codes of @qualm/promptfoo. */
export const PromptfooErrorCode = {
  /** An assertion's `config` is not what it reads. */
  INVALID_CONFIG: 'INVALID_CONFIG',
  /** A test case lacks what the assertion needs (the evidence, the question). */
  INVALID_INPUT: 'INVALID_INPUT',
} as const;

/** One of the codes in {@link PromptfooErrorCode}. */
export type PromptfooErrorCode = (typeof PromptfooErrorCode)[keyof typeof PromptfooErrorCode];

const kinds: Record<PromptfooErrorCode, ErrorKind> = {
  INVALID_CONFIG: ErrorKind.SETUP,
  INVALID_INPUT: ErrorKind.INVALID_INPUT,
};

const marker = 'qualm.error.promptfoo';
const markerSymbol = Symbol.for(marker);

/** A problem with an assertion's config or test case; promptfoo reports its message. */
export class PromptfooError extends QualmError {
  readonly [markerSymbol] = true;
  override readonly name = 'PromptfooError';
  declare readonly code: PromptfooErrorCode;

  constructor(code: PromptfooErrorCode, message: string, options: { cause?: unknown } = {}) {
    super({ code, kind: kinds[code], message, cause: options.cause });
  }

  /** Whether a value is a PromptfooError, from any installed copy of this package. */
  static override isInstance(value: unknown): value is PromptfooError {
    return QualmError.hasMarker(value, marker);
  }
}
