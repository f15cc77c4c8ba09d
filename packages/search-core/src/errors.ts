/** Error codes raised by @qualm/search-core. */
export const SearchCoreErrorCode = {
  INVALID_INPUT: 'INVALID_INPUT',
  INVALID_CONFIG: 'INVALID_CONFIG',
  MODEL_NOT_FOUND: 'MODEL_NOT_FOUND',
  MODEL_LOAD_FAILED: 'MODEL_LOAD_FAILED',
  UNSUPPORTED_MODEL: 'UNSUPPORTED_MODEL',
  INFERENCE_FAILED: 'INFERENCE_FAILED',
} as const;

/** One of the codes in {@link SearchCoreErrorCode}. */
export type SearchCoreErrorCode = (typeof SearchCoreErrorCode)[keyof typeof SearchCoreErrorCode];

/** A problem raised on purpose by @qualm/search-core, with a code and a message fit to print. */
export class SearchCoreError extends Error {
  override readonly name = 'SearchCoreError';
  readonly code: SearchCoreErrorCode;

  constructor(code: SearchCoreErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.code = code;
  }
}
