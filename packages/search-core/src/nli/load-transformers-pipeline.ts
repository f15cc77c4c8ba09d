import { access } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { type MissingModel, SearchCoreError, SearchCoreErrorCode } from '../errors.js';

/** Weight formats transformers.js can load; each reads its own file (`q8` → `model_quantized.onnx`). */
export const MODEL_DTYPES = ['fp32', 'fp16', 'q8', 'int8', 'uint8', 'q4', 'q4f16', 'bnb4'] as const;

/** A weight format transformers.js can load. */
export type ModelDtype = (typeof MODEL_DTYPES)[number];

/** Where and how a transformers.js model is loaded. */
export interface TransformersModelOptions {
  /** Hugging Face model id (`<org>/<name>`) or a path to a model folder. */
  modelId?: string;
  /**
   * Folder holding models as `<modelsDir>/<org>/<name>/`; defaults to `$QUALM_MODELS_DIR`.
   * When set, it becomes transformers.js's `env.localModelPath` for the load.
   */
  modelsDir?: string;
  /**
   * Whether files missing locally may be downloaded from the Hugging Face hub (and cached in
   * `cacheDir`). Defaults to false when a models folder is given, so a local setup never reaches
   * the network by surprise, and to true otherwise.
   */
  allowRemoteModels?: boolean;
  /** Where downloaded files are cached; defaults to transformers.js's `env.cacheDir`. */
  cacheDir?: string;
  /** Weight format: `fp32` reads `onnx/model.onnx`, `q8` reads `onnx/model_quantized.onnx`. */
  dtype?: ModelDtype;
  /** Hub revision (branch, tag or commit) for remote loading; defaults to `main`. */
  revision?: string;
}

/** Loading options after defaults and environment are applied. */
export interface ResolvedModelOptions {
  modelId: string;
  modelsDir: string | undefined;
  allowRemoteModels: boolean;
  cacheDir: string | undefined;
  dtype: ModelDtype;
  revision: string;
}

const DTYPE_FILE_SUFFIX: Record<ModelDtype, string> = {
  fp32: '',
  fp16: '_fp16',
  q8: '_quantized',
  int8: '_int8',
  uint8: '_uint8',
  q4: '_q4',
  q4f16: '_q4f16',
  bnb4: '_bnb4',
};

const optionsSchema = z.object({
  modelId: z.string().trim().min(1).optional(),
  modelsDir: z.string().trim().min(1).optional(),
  allowRemoteModels: z.boolean().optional(),
  cacheDir: z.string().trim().min(1).optional(),
  dtype: z.enum(MODEL_DTYPES).optional(),
  revision: z.string().trim().min(1).optional(),
});

/** Describes zod issues as `path: message` lines joined by `; `. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map(
      (issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(options)'}: ${issue.message}`,
    )
    .join('; ');
}

/** Parses options with a schema; invalid ones throw `invalid <what> options: <issues>`. */
export function parseOptions<Output>(
  schema: z.ZodType<Output>,
  value: unknown,
  what: string,
): Output {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new SearchCoreError(
      SearchCoreErrorCode.INVALID_CONFIG,
      `invalid ${what} options: ${describeIssues(parsed.error)}`,
      { cause: parsed.error },
    );
  }
  return parsed.data;
}

/** Applies defaults: `$QUALM_MODELS_DIR` for the folder, remote loading only without a folder. */
export function resolveModelOptions(
  options: TransformersModelOptions,
  defaults: { modelId: string; what: string },
): ResolvedModelOptions {
  const parsed = parseOptions(optionsSchema, options, defaults.what);
  const environmentDir = process.env.QUALM_MODELS_DIR?.trim();
  const modelsDir = parsed.modelsDir ?? (environmentDir ? environmentDir : undefined);
  return {
    modelId: parsed.modelId ?? defaults.modelId,
    modelsDir: modelsDir === undefined ? undefined : path.resolve(modelsDir),
    allowRemoteModels: parsed.allowRemoteModels ?? modelsDir === undefined,
    cacheDir: parsed.cacheDir === undefined ? undefined : path.resolve(parsed.cacheDir),
    dtype: parsed.dtype ?? 'fp32',
    revision: parsed.revision ?? 'main',
  };
}

// a tokenizer without a real limit declares a huge model_max_length
const UNBOUNDED_LENGTH = 1_000_000;
const FALLBACK_MAX_TOKENS = 512;

/**
 * The longest input a loaded pipeline takes, special tokens included: what the tokenizer declares,
 * else the model's position embeddings, else 512; lowered to `requested` when that is smaller.
 */
export function modelTokenLimit(
  pipeline: {
    tokenizer: { model_max_length?: number };
    model: { config: { max_position_embeddings?: number } };
  },
  requested: number | undefined,
): number {
  const declared = pipeline.tokenizer.model_max_length;
  const modelLimit =
    declared !== undefined && declared < UNBOUNDED_LENGTH
      ? declared
      : (pipeline.model.config.max_position_embeddings ?? FALLBACK_MAX_TOKENS);
  return Math.min(modelLimit, requested ?? modelLimit);
}

type TransformersModule = typeof import('@huggingface/transformers');

// loaded on first use, so importing @qualm/search-core for retrieval alone stays light
let transformersModule: Promise<TransformersModule> | undefined;
function transformers(): Promise<TransformersModule> {
  transformersModule ??= import('@huggingface/transformers');
  return transformersModule;
}

const loads = new Map<string, Promise<unknown>>();
// env is global to transformers.js: loads run one at a time so each sees its own settings
let loadQueue: Promise<unknown> = Promise.resolve();

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

function modelFiles(resolved: ResolvedModelOptions): string[] {
  const weights = `onnx/model${DTYPE_FILE_SUFFIX[resolved.dtype]}.onnx`;
  return ['config.json', 'tokenizer.json', 'tokenizer_config.json', weights];
}

function howToProvide(resolved: ResolvedModelOptions, folder: string): string {
  return (
    `put the files of https://huggingface.co/${resolved.modelId} (${modelFiles(resolved).join(', ')}) ` +
    `in ${folder}, or allow remote loading (allowRemoteModels: true) on a machine that can reach ` +
    'the Hugging Face hub'
  );
}

function missingModel(
  resolved: ResolvedModelOptions,
  folder: string,
  what: string,
  downloadFailure?: string,
): MissingModel {
  return {
    what,
    modelId: resolved.modelId,
    folder,
    folderGiven: resolved.modelsDir !== undefined,
    files: modelFiles(resolved),
    ...(downloadFailure !== undefined ? { downloadFailure } : {}),
  };
}

// transformers.js reads a hub-style id under the local root and any other id as a path
function localFolder(modelId: string, localRoot: string): string {
  return /^[\w.-]+(\/[\w.-]+)?$/.test(modelId)
    ? path.resolve(localRoot, modelId)
    : path.resolve(modelId);
}

// without remote loading, a missing file is reported before transformers.js is asked
async function checkLocalFiles(
  resolved: ResolvedModelOptions,
  localRoot: string,
  what: string,
): Promise<void> {
  const folder = localFolder(resolved.modelId, localRoot);
  const weights = `onnx/model${DTYPE_FILE_SUFFIX[resolved.dtype]}.onnx`;
  for (const file of ['config.json', 'tokenizer.json', weights]) {
    if (!(await exists(path.join(folder, file)))) {
      throw new SearchCoreError(
        SearchCoreErrorCode.MODEL_NOT_FOUND,
        `${what} "${resolved.modelId}" not found: ${path.join(folder, file)} does not exist and ` +
          `remote loading is off; ${howToProvide(resolved, folder)}`,
        { missingModel: missingModel(resolved, folder, what) },
      );
    }
  }
}

const NETWORK_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
]);

// an error and its causes, outermost first
function* causes(error: unknown): Generator<Error> {
  let current = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth += 1) {
    yield current;
    current = current.cause;
  }
}

// a download that never reached the hub (offline, refused, a name that does not resolve)
function isNetworkFailure(error: unknown): boolean {
  return [...causes(error)].some((current) => {
    const code = (current as NodeJS.ErrnoException).code;
    return (
      current.message === 'fetch failed' ||
      (typeof code === 'string' && NETWORK_ERROR_CODES.has(code))
    );
  });
}

// the folder searched is the models folder, else transformers.js's own local model path
function loadError(
  error: unknown,
  resolved: ResolvedModelOptions,
  what: string,
  localRoot: string,
): SearchCoreError {
  const message = error instanceof Error ? error.message : String(error);
  const folder = localFolder(resolved.modelId, localRoot);
  if (isNetworkFailure(error)) {
    const failure = [...causes(error)].map((current) => current.message).join(': ');
    return new SearchCoreError(
      SearchCoreErrorCode.MODEL_NOT_FOUND,
      `${what} "${resolved.modelId}" is not in ${folder} and could not be downloaded ` +
        `(${failure}); ${howToProvide(resolved, folder)}`,
      { cause: error, missingModel: missingModel(resolved, folder, what, failure) },
    );
  }
  if (/not found locally|could not locate file|404|401|unauthorized/i.test(message)) {
    return new SearchCoreError(
      SearchCoreErrorCode.MODEL_NOT_FOUND,
      `${what} "${resolved.modelId}" could not be found in ${folder} (${message}); ${howToProvide(resolved, folder)}`,
      { cause: error, missingModel: missingModel(resolved, folder, what, message) },
    );
  }
  return new SearchCoreError(
    SearchCoreErrorCode.MODEL_LOAD_FAILED,
    `${what} "${resolved.modelId}" failed to load: ${message}`,
    { cause: error },
  );
}

/**
 * Loads a transformers.js pipeline once per task and loading options: concurrent callers share one
 * load, and a failed load is forgotten so that a later call can try again.
 */
export function loadTransformersPipeline(
  task: 'text-classification' | 'feature-extraction',
  resolved: ResolvedModelOptions,
  what: string,
): Promise<unknown> {
  const key = JSON.stringify([task, resolved]);
  const cached = loads.get(key);
  if (cached) return cached;
  const load = loadQueue
    .catch(() => undefined)
    .then(async () => {
      const localRoot = resolved.modelsDir;
      if (!resolved.allowRemoteModels) {
        const { env } = await transformers();
        await checkLocalFiles(resolved, localRoot ?? env.localModelPath, what);
      }
      const { env, pipeline } = await transformers();
      const previous = {
        localModelPath: env.localModelPath,
        allowLocalModels: env.allowLocalModels,
        allowRemoteModels: env.allowRemoteModels,
      };
      try {
        if (localRoot !== undefined) {
          env.localModelPath = `${localRoot}${path.sep}`;
          env.allowLocalModels = true;
        }
        env.allowRemoteModels = resolved.allowRemoteModels;
        return await pipeline(task, resolved.modelId, {
          dtype: resolved.dtype,
          revision: resolved.revision,
          local_files_only: !resolved.allowRemoteModels,
          ...(resolved.cacheDir === undefined ? {} : { cache_dir: resolved.cacheDir }),
        });
      } catch (error) {
        throw loadError(error, resolved, what, localRoot ?? env.localModelPath);
      } finally {
        Object.assign(env, previous);
      }
    });
  loadQueue = load;
  loads.set(key, load);
  load.catch(() => loads.delete(key));
  return load;
}

/** Forgets a memoised load, so the next call loads the model again. */
export function forgetTransformersPipeline(
  task: 'text-classification' | 'feature-extraction',
  resolved: ResolvedModelOptions,
): void {
  loads.delete(JSON.stringify([task, resolved]));
}
