import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  type TinyModelPrecision,
  tinyClassifierGraph,
  tinyFeatureExtractorGraph,
} from './graph.js';
import { tinyTokenizerFiles } from './tokenizer.js';

/** Labels the tiny classifier declares by default: the NLI labels, deliberately not alphabetical. */
export const TINY_NLI_LABELS = ['ENTAILMENT', 'CONTRADICTION', 'NEUTRAL'] as const;

/** Options shared by the tiny model writers. */
export interface TinyModelOptions {
  /** Model id as `<org>/<name>`; the files go to `<root>/<org>/<name>/`. */
  modelId?: string;
  /** Seed of the random weights; the same seed writes the same bytes. */
  seed?: number;
  /** Width of the embeddings and hidden states. */
  hiddenSize?: number;
  /** `model_max_length` the tokenizer declares, which bounds a pair of texts. */
  maxLength?: number;
  /** Which weight files to write: `fp32` → `onnx/model.onnx`, `q8` → `onnx/model_quantized.onnx`. */
  precisions?: readonly TinyModelPrecision[];
  /** Extra whole words for the tokenizer's vocabulary. */
  extraWords?: readonly string[];
  /** Whether the graph reads `token_type_ids`; defaults to true, as BERT does. */
  tokenTypes?: boolean;
}

/** Options of the tiny sequence classifier. */
export interface TinyClassifierOptions extends TinyModelOptions {
  /** Label names in id order, written to `config.json` as `id2label`. */
  labels?: readonly string[];
}

/** Where a tiny model was written and what it declares. */
export interface TinyModelInfo {
  /** Model id to load, relative to the root directory. */
  modelId: string;
  /** Absolute folder holding `config.json`, the tokenizer files and `onnx/`. */
  directory: string;
  /** Files written, relative to `directory`. */
  files: string[];
  vocabularySize: number;
  hiddenSize: number;
  maxLength: number;
}

const FILE_OF_PRECISION: Record<TinyModelPrecision, string> = {
  fp32: 'onnx/model.onnx',
  q8: 'onnx/model_quantized.onnx',
};

async function writeModelFolder(
  root: string,
  options: TinyModelOptions,
  defaults: { modelId: string; seed: number },
  build: (spec: {
    vocabularySize: number;
    hiddenSize: number;
    seed: number;
    precision: TinyModelPrecision;
    tokenTypes: boolean;
  }) => { config: Record<string, unknown>; graph: Uint8Array },
): Promise<TinyModelInfo> {
  const modelId = options.modelId ?? defaults.modelId;
  if (!/^[\w.-]+\/[\w.-]+$/.test(modelId)) {
    throw new Error(`model id "${modelId}" must look like <org>/<name>`);
  }
  const hiddenSize = options.hiddenSize ?? 16;
  const maxLength = options.maxLength ?? 128;
  const precisions = options.precisions ?? ['fp32'];
  const seed = options.seed ?? defaults.seed;
  const directory = path.resolve(root, ...modelId.split('/'));
  const tokenizer = tinyTokenizerFiles({
    maxLength,
    ...(options.extraWords ? { extraWords: options.extraWords } : {}),
  });
  const vocabularySize = tokenizer.vocabulary.length;

  await mkdir(path.join(directory, 'onnx'), { recursive: true });
  const files: string[] = [];
  const write = async (file: string, contents: string | Uint8Array) => {
    await writeFile(path.join(directory, file), contents);
    files.push(file);
  };
  let config: Record<string, unknown> = {};
  for (const precision of precisions) {
    const built = build({
      vocabularySize,
      hiddenSize,
      seed,
      precision,
      tokenTypes: options.tokenTypes ?? true,
    });
    config = built.config;
    await write(FILE_OF_PRECISION[precision], built.graph);
  }
  await write('config.json', `${JSON.stringify(config, null, 2)}\n`);
  await write('tokenizer.json', JSON.stringify(tokenizer.tokenizerJson));
  await write(
    'tokenizer_config.json',
    `${JSON.stringify(tokenizer.tokenizerConfigJson, null, 2)}\n`,
  );
  return { modelId, directory, files, vocabularySize, hiddenSize, maxLength };
}

function bertConfig(options: {
  architecture: string;
  vocabularySize: number;
  hiddenSize: number;
  maxLength: number;
}): Record<string, unknown> {
  return {
    model_type: 'bert',
    architectures: [options.architecture],
    vocab_size: options.vocabularySize,
    hidden_size: options.hiddenSize,
    num_hidden_layers: 1,
    num_attention_heads: 1,
    intermediate_size: options.hiddenSize,
    max_position_embeddings: options.maxLength,
    type_vocab_size: 2,
    pad_token_id: 0,
  };
}

/**
 * Writes a tiny BERT-shaped sequence classifier with random seeded weights, in the folder layout
 * transformers.js loads from `env.localModelPath`; its outputs mean nothing, its plumbing is real.
 */
export function writeTinyClassifier(
  root: string,
  options: TinyClassifierOptions = {},
): Promise<TinyModelInfo & { labels: string[] }> {
  const labels = [...(options.labels ?? TINY_NLI_LABELS)];
  const maxLength = options.maxLength ?? 128;
  return writeModelFolder(root, options, { modelId: 'qualm-test/tiny-nli', seed: 7 }, (spec) => ({
    graph: tinyClassifierGraph({ ...spec, labelCount: labels.length }),
    config: {
      ...bertConfig({ architecture: 'BertForSequenceClassification', maxLength, ...spec }),
      id2label: Object.fromEntries(labels.map((label, index) => [String(index), label])),
      label2id: Object.fromEntries(labels.map((label, index) => [label, index])),
    },
  })).then((info) => ({ ...info, labels }));
}

/**
 * Writes a tiny BERT-shaped feature extractor (`last_hidden_state` per token) with random seeded
 * weights, in the folder layout transformers.js loads from `env.localModelPath`.
 */
export function writeTinyFeatureExtractor(
  root: string,
  options: TinyModelOptions = {},
): Promise<TinyModelInfo> {
  const maxLength = options.maxLength ?? 128;
  return writeModelFolder(
    root,
    options,
    { modelId: 'qualm-test/tiny-embedder', seed: 11 },
    (spec) => ({
      graph: tinyFeatureExtractorGraph(spec),
      config: bertConfig({ architecture: 'BertModel', maxLength, ...spec }),
    }),
  );
}
