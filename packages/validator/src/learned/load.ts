import { ValidatorError, ValidatorErrorCode } from '../errors.js';
import { decodeModel, type LearnedModel } from './model-file.js';

/** The model that ships with the package: refusals, trained on the labelled sources in BENCHMARKS.md. */
export const SHIPPED_MODEL_FILE = 'refusal.qlm';

type FileSystem = {
  readFileSync(path: string | URL): Uint8Array;
  existsSync(path: string | URL): boolean;
};

// read through the running Node's own module, so that the package imports nothing from node: and
// still loads in a browser, where a model is given as bytes
function fileSystem(): FileSystem | undefined {
  const host = (globalThis as { process?: { getBuiltinModule?: (name: string) => unknown } })
    .process;
  return host?.getBuiltinModule?.('node:fs') as FileSystem | undefined;
}

/** Reads a model file from disk; a missing or unreadable file is a ValidatorError naming it. */
export function readModelFile(path: string | URL): LearnedModel {
  const fs = fileSystem();
  const name = typeof path === 'string' ? path : decodeURIComponent(path.pathname);
  if (name.trim() === '') {
    throw new ValidatorError(
      ValidatorErrorCode.INVALID_OPTIONS,
      'the model path is empty: give the path of a model file qualm train wrote',
    );
  }
  if (!fs) {
    throw new ValidatorError(
      ValidatorErrorCode.INVALID_OPTIONS,
      `cannot read ${name}: reading a model from a path needs Node; pass the model's bytes instead`,
    );
  }
  let bytes: Uint8Array;
  try {
    bytes = fs.readFileSync(path);
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new ValidatorError(
      code === 'ENOENT' ? ValidatorErrorCode.MODEL_NOT_FOUND : ValidatorErrorCode.INVALID_MODEL,
      code === 'ENOENT'
        ? `model file not found: ${name}`
        : code === 'EISDIR'
          ? `${name} is a folder, not a model file: give the file qualm train wrote`
          : `cannot read the model file ${name}: ${code ?? (error as Error).message}`,
      { cause: error },
    );
  }
  return decodeModel(bytes, name);
}

let shipped: LearnedModel | undefined;

/**
 * The shipped model, read once per process. It sits in `model/` beside `dist/` in the published
 * package, and beside `src/` in the repository.
 */
export function shippedModel(): LearnedModel {
  if (shipped) return shipped;
  const fs = fileSystem();
  const candidates = [
    new URL(`../model/${SHIPPED_MODEL_FILE}`, import.meta.url),
    new URL(`../../model/${SHIPPED_MODEL_FILE}`, import.meta.url),
  ];
  const found = fs ? candidates.find((candidate) => fs.existsSync(candidate)) : undefined;
  if (fs && !found) {
    throw new ValidatorError(
      ValidatorErrorCode.MODEL_NOT_FOUND,
      `the shipped model ${SHIPPED_MODEL_FILE} is missing from @qualm/validator's model/ folder`,
    );
  }
  shipped = readModelFile(found ?? (candidates[0] as URL));
  return shipped;
}

/** A model given as bytes, a path, or already read. */
export type ModelInput = Uint8Array | ArrayBuffer | string | LearnedModel;

/** Turns what a caller gave into a model; bytes and paths are checked and decoded here. */
export function resolveModel(input: ModelInput): LearnedModel {
  if (typeof input === 'string') return readModelFile(input);
  if (input instanceof Uint8Array) return decodeModel(input);
  if (input instanceof ArrayBuffer) return decodeModel(new Uint8Array(input));
  if (
    typeof input === 'object' &&
    input !== null &&
    Array.isArray((input as LearnedModel).labels) &&
    (input as LearnedModel).weights instanceof Int8Array
  ) {
    return input;
  }
  throw new ValidatorError(
    ValidatorErrorCode.INVALID_OPTIONS,
    'learned.model must be the model file as bytes (Uint8Array or ArrayBuffer), its path, or a model from readLearnedModel()',
  );
}

/**
 * Reads a learned model: the shipped one without an argument, else from bytes or a path. Use it
 * to check a model file before validating (a corrupt or missing file throws here), or to share one
 * read model between validators (`createValidator({ learned: { model } })`).
 */
export function readLearnedModel(input?: ModelInput): LearnedModel {
  return input === undefined ? shippedModel() : resolveModel(input);
}
