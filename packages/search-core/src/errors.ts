import { ErrorKind, QualmError } from '@qualm/errors';

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

const kinds: Record<SearchCoreErrorCode, ErrorKind> = {
  INVALID_INPUT: ErrorKind.INVALID_INPUT,
  INVALID_CONFIG: ErrorKind.SETUP,
  MODEL_NOT_FOUND: ErrorKind.SETUP,
  MODEL_LOAD_FAILED: ErrorKind.SETUP,
  UNSUPPORTED_MODEL: ErrorKind.SETUP,
  INFERENCE_FAILED: ErrorKind.FAILED,
};

const marker = 'qualm.error.search-core';
const markerSymbol = Symbol.for(marker);

/** A problem raised on purpose by @qualm/search-core, with a code and a message fit to print. */
export class SearchCoreError extends QualmError {
  readonly [markerSymbol] = true;
  override readonly name = 'SearchCoreError';
  declare readonly code: SearchCoreErrorCode;

  constructor(code: SearchCoreErrorCode, message: string, options: { cause?: unknown } = {}) {
    super({ code, kind: kinds[code], message, cause: options.cause });
  }

  /** Whether a value is a SearchCoreError, from any installed copy of this package. */
  static override isInstance(value: unknown): value is SearchCoreError {
    return QualmError.hasMarker(value, marker);
  }
}
