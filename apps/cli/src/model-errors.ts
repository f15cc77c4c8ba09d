import { SearchCoreError } from '@qualm/search-core';
import { CliError, CliErrorCode } from './errors.js';

/**
 * Rewords a model that could not be found in the CLI's terms: the folder actually searched, and
 * the flags that fix it (`--models-dir`, `$QUALM_MODELS_DIR`, and `skip` when a flag does without
 * the model). Other errors pass through unchanged.
 */
export function explainMissingModel(error: unknown, skip?: string): unknown {
  if (!SearchCoreError.isInstance(error) || error.missingModel === undefined) return error;
  const { what, modelId, folder, folderGiven, files, downloadFailure } = error.missingModel;
  const searched = folderGiven
    ? folder
    : `${folder} (the default: neither --models-dir nor $QUALM_MODELS_DIR is set)`;
  const download =
    downloadFailure !== undefined ? `, and it could not be downloaded (${downloadFailure})` : '';
  const fix = `put its files (${files.join(', ')}) in DIR/${modelId}/ and give --models-dir DIR (or set QUALM_MODELS_DIR=DIR)`;
  return new CliError(
    CliErrorCode.INVALID_ARGUMENT,
    `${what} "${modelId}" not found: searched ${searched}${download}; ${fix}${skip ? `, or pass ${skip}` : ''}`,
    { cause: error },
  );
}
