import { access, stat } from 'node:fs/promises';
import path from 'node:path';
import { BenchmarkError, BenchmarkErrorCode } from '../errors.js';

/**
 * The context length of each model the official harness knows, in tokens, copied from
 * `run_generation.py`'s `model2maxlength` (github.com/xiaowu0162/LongMemEval); any other model
 * needs its length given.
 */
export const MODEL_CONTEXT_LIMITS: Readonly<Record<string, number>> = {
  'gpt-4o': 128000,
  'gpt-4o-2024-08-06': 128000,
  'gpt-4o-mini-2024-07-18': 128000,
  'meta-llama/Meta-Llama-3.1-8B-Instruct': 128000,
  'meta-llama/Meta-Llama-3.1-70B-Instruct': 128000,
  'microsoft/Phi-3-medium-128k-instruct': 120000,
  'mistral-7b-instruct-v0.2': 32000,
  'mistral-7b-instruct-v0.3': 32000,
  'In2Training/FILM-7B': 32000,
};

/** The short reader names of `run_generation.sh` (its `model_zoo`), and the models they stand for. */
export const READER_MODEL_ALIASES: Readonly<Record<string, string>> = {
  'gpt-4o': 'gpt-4o-2024-08-06',
  'gpt-4o-mini': 'gpt-4o-mini-2024-07-18',
  'llama-3-8b-instruct': 'meta-llama/Meta-Llama-3-8B-Instruct',
  'llama-3-70b-instruct': 'meta-llama/Meta-Llama-3-70B-Instruct',
  'llama-3.1-8b-instruct': 'meta-llama/Meta-Llama-3.1-8B-Instruct',
  'llama-3.1-70b-instruct': 'meta-llama/Meta-Llama-3.1-70B-Instruct',
  'mistral-7b-instruct-v0.2': 'mistralai/Mistral-7B-Instruct-v0.2',
  'mistral-7b-instruct-v0.3': 'mistralai/Mistral-7B-Instruct-v0.3',
  'film-7b': 'In2Training/FILM-7B',
  'phi-3-medium-128k-instruct': 'microsoft/Phi-3-medium-128k-instruct',
};

/** Tokens the harness keeps free besides the answer: the history gets limit − answer − 1000. */
export const CONTEXT_RESERVE_TOKENS = 1000;

/**
 * The context length of a model: the harness's table by the exact name, else by the name its
 * short reader name stands for; undefined for a model the table does not list.
 */
export function modelContextLimit(model: string): number | undefined {
  const alias = READER_MODEL_ALIASES[model];
  return MODEL_CONTEXT_LIMITS[model] ?? (alias ? MODEL_CONTEXT_LIMITS[alias] : undefined);
}

/** Whether the harness counts a model's tokens with tiktoken's `o200k_base` (GPT-4 and GPT-3.5 names). */
export function countsWithO200k(model: string): boolean {
  const name = model.toLowerCase();
  return name.includes('gpt-4') || name.includes('gpt-3.5');
}

/** The tokens the history may take: the context limit less the answer and 1000 tokens. */
export function historyTokenBudget(contextLimit: number, answerTokens: number): number {
  return contextLimit - answerTokens - CONTEXT_RESERVE_TOKENS;
}

/** What fitting a history into its budget did. */
export interface HistoryFit {
  /** The history, cut when it was over the budget. */
  text: string;
  /** Its length in tokens before any cut (special tokens the tokenizer adds included). */
  tokens: number;
  truncated: boolean;
}

/** Counts a history's tokens and cuts it to a budget, as the harness does with its tokenizer. */
export interface HistoryTokenizer {
  /** `o200k_base`, or the folder of a model's tokenizer. */
  readonly name: string;
  fit(text: string, maxTokens: number): HistoryFit;
}

const END_OF_TEXT = '<|endoftext|>';
const END_OF_PROMPT = '<|endofprompt|>';
const END_OF_TEXT_ID = 199999;

type O200kModule = typeof import('gpt-tokenizer/encoding/o200k_base');
type BytePairModule = typeof import('gpt-tokenizer/BytePairEncodingCore');
let o200kModule: Promise<[O200kModule, BytePairModule]> | undefined;

/**
 * tiktoken's `o200k_base` as the harness calls it for GPT models:
 * `encode(history, allowed_special={'<|endoftext|>'})`, and when that is over the budget,
 * `decode(tokens[:budget])` (a character cut in the middle becomes U+FFFD, as tiktoken's decode
 * does). A history holding `<|endofprompt|>` is refused, as tiktoken refuses it. Encoding is done
 * by `gpt-tokenizer`, which gives tiktoken's tokens (checked against `js-tiktoken` by the tests)
 * at about 10 MB/s.
 */
export async function o200kTokenizer(): Promise<HistoryTokenizer> {
  o200kModule ??= Promise.all([
    import('gpt-tokenizer/encoding/o200k_base'),
    import('gpt-tokenizer/BytePairEncodingCore'),
  ]);
  const [{ encode, decode }, { decoder }] = await o200kModule;
  // gpt-tokenizer decodes with one shared streaming TextDecoder that it never flushes: flushing it
  // before clears bytes another decode left, and after turns a character cut in two into U+FFFD,
  // as tiktoken's decode(errors="replace") does
  const decodeCut = (tokens: number[]) => {
    decoder.decode();
    return decode(tokens) + decoder.decode();
  };
  const plain = { disallowedSpecial: new Set<string>() };
  return {
    name: 'o200k_base',
    fit(text, maxTokens) {
      if (text.includes(END_OF_PROMPT)) {
        throw new BenchmarkError(
          BenchmarkErrorCode.INVALID_INPUT,
          `the history holds the special token ${END_OF_PROMPT}, which tiktoken refuses to encode (the harness stops there)`,
        );
      }
      // tiktoken encodes the text between allowed special tokens piece by piece
      const tokens: number[] = [];
      text.split(END_OF_TEXT).forEach((piece, index) => {
        if (index > 0) tokens.push(END_OF_TEXT_ID);
        for (const token of encode(piece, plain)) tokens.push(token);
      });
      if (tokens.length <= maxTokens) return { text, tokens: tokens.length, truncated: false };
      return {
        text: decodeCut(tokens.slice(0, Math.max(0, maxTokens))),
        tokens: tokens.length,
        truncated: true,
      };
    },
  };
}

interface TransformersTokenizer {
  encode(text: string, options?: { add_special_tokens?: boolean }): number[];
  decode(ids: number[], options?: { skip_special_tokens?: boolean }): string;
}

const folderTokenizers = new Map<string, Promise<HistoryTokenizer>>();
// env is global to transformers.js: loads run one at a time
let loadQueue: Promise<unknown> = Promise.resolve();

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * A model's own tokenizer from a local folder (`tokenizer.json` and `tokenizer_config.json`, as
 * Hugging Face ships them), loaded with transformers.js's `AutoTokenizer`, and used as the harness
 * uses `AutoTokenizer` for models other than GPT: the history is counted with the special tokens
 * the tokenizer adds, and when over the budget, cut to `budget` tokens special tokens included and
 * decoded without them. Nothing is downloaded.
 */
export function folderTokenizer(folder: string): Promise<HistoryTokenizer> {
  const resolved = path.resolve(folder);
  const cached = folderTokenizers.get(resolved);
  if (cached) return cached;
  const load = loadQueue
    .catch(() => undefined)
    .then(async () => {
      const isFolder = await stat(resolved).then(
        (entry) => entry.isDirectory(),
        () => false,
      );
      if (!isFolder || !(await exists(path.join(resolved, 'tokenizer.json')))) {
        throw new BenchmarkError(
          BenchmarkErrorCode.INVALID_CONFIG,
          `no tokenizer in ${resolved}: the folder must hold the model's tokenizer.json and tokenizer_config.json`,
        );
      }
      const { AutoTokenizer, env } = await import('@huggingface/transformers');
      const previous = {
        localModelPath: env.localModelPath,
        allowLocalModels: env.allowLocalModels,
        allowRemoteModels: env.allowRemoteModels,
      };
      let tokenizer: TransformersTokenizer;
      try {
        env.localModelPath = `${path.dirname(resolved)}${path.sep}`;
        env.allowLocalModels = true;
        env.allowRemoteModels = false;
        tokenizer = (await AutoTokenizer.from_pretrained(path.basename(resolved), {
          local_files_only: true,
        })) as unknown as TransformersTokenizer;
      } catch (error) {
        throw new BenchmarkError(
          BenchmarkErrorCode.INVALID_CONFIG,
          `cannot load the tokenizer in ${resolved}: ${(error as Error).message}`,
          { cause: error },
        );
      } finally {
        Object.assign(env, previous);
      }
      const specialTokens = tokenizer.encode('').length;
      return {
        name: resolved,
        fit(text: string, maxTokens: number): HistoryFit {
          const content = tokenizer.encode(text, { add_special_tokens: false });
          const tokens = content.length + specialTokens;
          if (tokens <= maxTokens) return { text, tokens, truncated: false };
          const kept = content.slice(0, Math.max(0, maxTokens - specialTokens));
          return {
            text: kept.length === 0 ? '' : tokenizer.decode(kept, { skip_special_tokens: true }),
            tokens,
            truncated: true,
          };
        },
      } satisfies HistoryTokenizer;
    });
  loadQueue = load;
  folderTokenizers.set(resolved, load);
  load.catch(() => folderTokenizers.delete(resolved));
  return load;
}

/**
 * The tokenizer a name stands for: `o200k_base`, or a folder holding a model's tokenizer (a path,
 * or a `<org>/<name>` id under `modelsDir`).
 */
export async function loadHistoryTokenizer(
  name: string,
  options: { modelsDir?: string } = {},
): Promise<HistoryTokenizer> {
  if (name === 'o200k_base') return o200kTokenizer();
  const underModels = options.modelsDir ? path.resolve(options.modelsDir, name) : undefined;
  if (underModels && (await exists(path.join(underModels, 'tokenizer.json')))) {
    return folderTokenizer(underModels);
  }
  return folderTokenizer(name);
}

/**
 * The tokenizer the harness would use for a model: `o200k_base` for GPT-4 and GPT-3.5 names, else
 * the model's own tokenizer when `<modelsDir>/<model>/tokenizer.json` exists (`modelsDir`
 * defaults to `$QUALM_MODELS_DIR`); undefined when it is not at hand.
 */
export async function defaultHistoryTokenizer(
  model: string,
  options: { modelsDir?: string } = {},
): Promise<HistoryTokenizer | undefined> {
  if (countsWithO200k(model)) return o200kTokenizer();
  const modelsDir = options.modelsDir ?? process.env.QUALM_MODELS_DIR?.trim();
  if (!modelsDir) return undefined;
  for (const name of [model, READER_MODEL_ALIASES[model]]) {
    if (!name) continue;
    const folder = path.resolve(modelsDir, name);
    if (await exists(path.join(folder, 'tokenizer.json'))) return folderTokenizer(folder);
  }
  return undefined;
}
