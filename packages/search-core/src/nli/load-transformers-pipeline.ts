import { stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { type MissingModel, SearchCoreError, SearchCoreErrorCode } from '../errors.js';
import { configProblem, onnxProblem, readJsonObject, tokenizerProblem } from './model-files.js';

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

const weightsFile = (resolved: ResolvedModelOptions) =>
  `onnx/model${DTYPE_FILE_SUFFIX[resolved.dtype]}.onnx`;

function modelFiles(resolved: ResolvedModelOptions): string[] {
  return ['config.json', 'tokenizer.json', 'tokenizer_config.json', weightsFile(resolved)];
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
const isHubModelId = (modelId: string) => /^[\w.-]+(\/[\w.-]+)?$/.test(modelId);

function localFolder(modelId: string, localRoot: string): string {
  return isHubModelId(modelId) ? path.resolve(localRoot, modelId) : path.resolve(modelId);
}

/**
 * Checks a model's `config.json` for what one kind of model needs; returns what is wrong, worded
 * to follow the model's name (`is not an NLI classifier: …`), or undefined.
 */
export type ConfigCheck = (config: Record<string, unknown>) => string | undefined;

/** How a message names a model folder: the id and the folder, or the folder a path id is. */
function folderLabel(resolved: ResolvedModelOptions, folder: string, what: string): string {
  return isHubModelId(resolved.modelId)
    ? `${what} "${resolved.modelId}" in ${folder}`
    : `${what} folder ${folder}`;
}

function replaceAdvice(resolved: ResolvedModelOptions, file: string): string {
  return isHubModelId(resolved.modelId)
    ? `replace it with ${file} from https://huggingface.co/${resolved.modelId}`
    : `replace it with a good copy of the model's ${file}`;
}

const listed = (files: readonly string[]) =>
  files.length === 1 ? files[0]! : `${files.slice(0, -1).join(', ')} and ${files.at(-1)}`;

async function folderKind(folder: string): Promise<'absent' | 'empty' | 'file'> {
  try {
    return (await stat(folder)).isDirectory() ? 'empty' : 'file';
  } catch {
    return 'absent';
  }
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/**
 * Checks the local folder of a model before transformers.js reads it, so that a missing or broken
 * file is reported with the folder, the file and what is wrong with it (transformers.js's own
 * errors name neither, and some are a bare "Cannot read properties of undefined"): every file is
 * there unless a download may fetch it, no JSON file is empty or malformed, the ONNX file is whole,
 * and `config.json` has what `checkConfig` asks. A folder that is absent, or holds none of the
 * files, is a missing model (`MODEL_NOT_FOUND`, with `missingModel` for a hub id); a folder that
 * lacks some of them is `MODEL_NOT_FOUND` naming them; a broken file is `MODEL_LOAD_FAILED`, and a
 * `config.json` of another kind of model `UNSUPPORTED_MODEL`.
 */
async function checkModelFolder(
  resolved: ResolvedModelOptions,
  localRoot: string,
  options: { what: string; checkConfig?: ConfigCheck },
): Promise<boolean> {
  const { what } = options;
  const folder = localFolder(resolved.modelId, localRoot);
  const hub = isHubModelId(resolved.modelId);
  // a path is never downloaded: transformers.js refuses it as a hub id
  const mayDownload = resolved.allowRemoteModels && hub;
  const files = modelFiles(resolved);
  const present = new Set<string>();
  for (const file of files) if (await isFile(path.join(folder, file))) present.add(file);
  if (present.size === 0) {
    if (mayDownload) return false;
    const kind = await folderKind(folder);
    if (!hub) {
      // a path is the user's own folder: the hub and --models-dir advice would not fit it
      const state = {
        absent: 'does not exist',
        empty: 'holds none of the model files',
        file: 'is a file, not a folder',
      };
      throw new SearchCoreError(
        SearchCoreErrorCode.MODEL_NOT_FOUND,
        `${what} folder ${folder} ${state[kind]}; a model folder holds ${listed(files)}`,
      );
    }
    const where =
      kind === 'empty'
        ? `${folder} holds none of its files`
        : `${path.join(folder, files[0]!)} does not exist`;
    throw new SearchCoreError(
      SearchCoreErrorCode.MODEL_NOT_FOUND,
      `${what} "${resolved.modelId}" not found: ${where} and remote loading is off; ` +
        howToProvide(resolved, folder),
      { missingModel: missingModel(resolved, folder, what) },
    );
  }
  const label = folderLabel(resolved, folder, what);
  const missing = files.filter((file) => !present.has(file));
  if (missing.length > 0 && !mayDownload) {
    const source = hub ? ` from https://huggingface.co/${resolved.modelId}` : '';
    throw new SearchCoreError(
      SearchCoreErrorCode.MODEL_NOT_FOUND,
      `${label}: ${listed(missing)} ${missing.length === 1 ? 'is' : 'are'} missing` +
        `${resolved.dtype === 'fp32' ? '' : ` (dtype ${resolved.dtype})`}; ` +
        `copy ${missing.length === 1 ? 'it' : 'them'}${source} into the folder`,
    );
  }
  const broken = (file: string, problem: string, code: SearchCoreErrorCode) =>
    new SearchCoreError(code, `${label}: ${file} ${problem}; ${replaceAdvice(resolved, file)}`);
  for (const file of files) {
    if (!present.has(file)) continue;
    const full = path.join(folder, file);
    if (file.endsWith('.onnx')) {
      const problem = await onnxProblem(full);
      if (problem) throw broken(file, problem, SearchCoreErrorCode.MODEL_LOAD_FAILED);
      continue;
    }
    const read = await readJsonObject(full);
    if ('problem' in read) throw broken(file, read.problem, SearchCoreErrorCode.MODEL_LOAD_FAILED);
    const problem =
      file === 'config.json'
        ? configProblem(read.value)
        : file === 'tokenizer.json'
          ? tokenizerProblem(read.value)
          : undefined;
    if (problem) throw broken(file, problem, SearchCoreErrorCode.MODEL_LOAD_FAILED);
    const unsupported = file === 'config.json' ? options.checkConfig?.(read.value) : undefined;
    if (unsupported) {
      throw new SearchCoreError(SearchCoreErrorCode.UNSUPPORTED_MODEL, `${label} ${unsupported}`);
    }
  }
  return true;
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

/** Where a load looked, for the wording of its errors. */
interface LoadContext {
  resolved: ResolvedModelOptions;
  what: string;
  /** The models folder, else transformers.js's own local model path. */
  localRoot: string;
  /** Whether the model's files were read from its local folder (which was checked first). */
  local: boolean;
}

// "Load model from <file> failed:<reason>", as onnxruntime-node words a session it cannot create
const ONNX_LOAD_FAILURE = /^Load model from (.+?) failed:\s*([\s\S]*)$/;

function loadError(error: unknown, context: LoadContext): SearchCoreError {
  const { resolved, what, localRoot } = context;
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
  const label = context.local
    ? folderLabel(resolved, folder, what)
    : `${what} "${resolved.modelId}"`;
  const weights = weightsFile(resolved);
  const onnxFailure = ONNX_LOAD_FAILURE.exec(message);
  if (onnxFailure) {
    const [, loaded = '', failure = ''] = onnxFailure;
    const reason = failure.trim().replace(/\.$/, '');
    // a downloaded file is in the cache, under a folder named by the model id
    const file = path.resolve(loaded);
    const ownFile = isHubModelId(resolved.modelId)
      ? file.endsWith(path.join(path.sep, weights)) &&
        file.includes(`${path.sep}${path.join(resolved.modelId)}${path.sep}`)
      : file === path.join(folder, weights);
    if (!ownFile) {
      return new SearchCoreError(
        SearchCoreErrorCode.MODEL_LOAD_FAILED,
        `${what} "${resolved.modelId}" cannot be loaded in this process: ONNX Runtime failed on ` +
          `an earlier model (${loaded}: ${reason}), and transformers.js then fails every ` +
          'later model load (huggingface/transformers.js#1767); start a new process',
        { cause: error },
      );
    }
    return new SearchCoreError(
      SearchCoreErrorCode.MODEL_LOAD_FAILED,
      `${label}: ONNX Runtime cannot load ${weights} (${reason}); ` +
        replaceAdvice(resolved, weights),
      { cause: error },
    );
  }
  const modelType = /^Unsupported model type: (.*)$/.exec(message);
  if (modelType) {
    return new SearchCoreError(
      SearchCoreErrorCode.UNSUPPORTED_MODEL,
      `${label}: config.json gives model_type ${modelType[1]}, which transformers.js cannot load`,
      { cause: error },
    );
  }
  return new SearchCoreError(
    SearchCoreErrorCode.MODEL_LOAD_FAILED,
    `${label} failed to load: ${message}`,
    { cause: error },
  );
}

/** Options of {@link loadTransformersPipeline}. */
export interface LoadPipelineOptions {
  /** What the model is for, as messages name it: `NLI model`, `embedding model`. */
  what: string;
  /** What this kind of model needs in `config.json`, checked before the load. */
  checkConfig?: ConfigCheck;
}

/**
 * Loads a transformers.js pipeline once per task and loading options: concurrent callers share one
 * load, and a failed load is forgotten so that a later call can try again. A model read from a
 * local folder has its files checked first (see {@link checkModelFolder}).
 */
export function loadTransformersPipeline(
  task: 'text-classification' | 'feature-extraction',
  resolved: ResolvedModelOptions,
  options: LoadPipelineOptions,
): Promise<unknown> {
  const key = JSON.stringify([task, resolved]);
  const cached = loads.get(key);
  if (cached) return cached;
  const load = loadQueue
    .catch(() => undefined)
    .then(async () => {
      const { env, pipeline } = await transformers();
      const localRoot = resolved.modelsDir ?? env.localModelPath;
      // transformers.js reads the local folder only when local models are allowed
      const local =
        (resolved.modelsDir !== undefined || env.allowLocalModels || !resolved.allowRemoteModels) &&
        (await checkModelFolder(resolved, localRoot, options));
      const previous = {
        localModelPath: env.localModelPath,
        allowLocalModels: env.allowLocalModels,
        allowRemoteModels: env.allowRemoteModels,
      };
      try {
        if (resolved.modelsDir !== undefined) {
          env.localModelPath = `${resolved.modelsDir}${path.sep}`;
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
        throw loadError(error, { resolved, what: options.what, localRoot, local });
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
