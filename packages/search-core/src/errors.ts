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

/** Where a model that could not be found was looked for, so a caller can word its own advice. */
export interface MissingModel {
  /** What the model is for: `NLI model`, `embedding model`. */
  what: string;
  /** The model id asked for. */
  modelId: string;
  /** The folder searched for its files. */
  folder: string;
  /** Whether that folder came from `modelsDir` or `$QUALM_MODELS_DIR` (else transformers.js's default). */
  folderGiven: boolean;
  /** The files the folder must hold. */
  files: string[];
  /** Why a download was not possible, when one was tried. */
  downloadFailure?: string;
}

/** A problem raised on purpose by @qualm/search-core, with a code and a message fit to print. */
export class SearchCoreError extends QualmError {
  readonly [markerSymbol] = true;
  override readonly name = 'SearchCoreError';
  declare readonly code: SearchCoreErrorCode;
  /**
   * For `MODEL_NOT_FOUND` of a hub id whose folder is absent or holds none of its files: where the
   * model was looked for. A folder that lacks only some files, or a path given as the model id,
   * has none: its message names the folder and the files, and is fit to print as it is.
   */
  readonly missingModel: MissingModel | undefined;

  constructor(
    code: SearchCoreErrorCode,
    message: string,
    options: { cause?: unknown; missingModel?: MissingModel } = {},
  ) {
    super({ code, kind: kinds[code], message, cause: options.cause });
    this.missingModel = options.missingModel;
  }

  /** Whether a value is a SearchCoreError, from any installed copy of this package. */
  static override isInstance(value: unknown): value is SearchCoreError {
    return QualmError.hasMarker(value, marker);
  }
}
