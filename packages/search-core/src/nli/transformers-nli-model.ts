import { z } from 'zod';
import { SearchCoreError, SearchCoreErrorCode } from '../errors.js';
import {
  forgetTransformersPipeline,
  loadTransformersPipeline,
  modelTokenLimit,
  parseOptions,
  type ResolvedModelOptions,
  resolveModelOptions,
  type TransformersModelOptions,
} from './load-transformers-pipeline.js';
import type { NliLabel, NliModel, NliPair, NliScores } from './nli-model.js';

/** The NLI cross-encoder loaded when no model id is given. */
export const DEFAULT_NLI_MODEL_ID = 'Xenova/nli-deberta-v3-xsmall';

/** Options of {@link loadNliModel}: where the model comes from and how it is run. */
export interface NliModelOptions extends TransformersModelOptions {
  /** Pairs per forward pass; defaults to 8. */
  batchSize?: number;
  /** Lowers the longest pair the model is given (never above what the tokenizer declares). */
  maxTokens?: number;
}

// the parts of a transformers.js text-classification pipeline this model uses
interface TokenizerEncoding {
  input_ids: number[][];
  attention_mask: number[][];
  token_type_ids?: number[][];
}
interface PipelineTokenizer {
  (
    text: string[],
    options: {
      text_pair: string[];
      padding: false;
      truncation: false;
      return_tensor: false;
    },
  ): TokenizerEncoding;
  encode(text: string, options?: { text_pair?: string; add_special_tokens?: boolean }): number[];
  model_max_length?: number;
  pad_token_id?: number;
  padding_side?: string;
}
interface PipelineModel {
  (
    inputs: Record<string, unknown>,
  ): Promise<{ logits?: { dims: number[]; data: ArrayLike<number> } }>;
  config: { id2label?: Record<string, string>; max_position_embeddings?: number };
}
/** The parts of a transformers.js text-classification pipeline the NLI model uses. */
export interface ClassificationPipeline {
  tokenizer: PipelineTokenizer;
  model: PipelineModel;
  dispose(): Promise<void>;
}
/** The transformers.js `Tensor` class, as far as the NLI model uses it. */
export type TensorConstructor = new (type: 'int64', data: BigInt64Array, dims: number[]) => unknown;

const runOptionsSchema = z.object({
  batchSize: z.number().int().min(1).optional(),
  maxTokens: z.number().int().min(8).optional(),
});

// the position of each NLI label in the model's output, or what is wrong with config.json's id2label
function findLabels(
  id2label: unknown,
): { indices: Record<NliLabel, number> } | { problem: string } {
  if (typeof id2label !== 'object' || id2label === null) {
    return {
      problem:
        id2label === undefined
          ? 'config.json has no id2label'
          : `config.json's id2label is not a map of label names (it is ${JSON.stringify(id2label)})`,
    };
  }
  const found: Partial<Record<NliLabel, number>> = {};
  const names: string[] = [];
  for (const [id, name] of Object.entries(id2label)) {
    names.push(typeof name === 'string' ? name : JSON.stringify(name));
    const label = typeof name === 'string' ? name.trim().toLowerCase() : '';
    if (label === 'entailment' || label === 'neutral' || label === 'contradiction') {
      found[label] = Number(id);
    }
  }
  const { entailment, neutral, contradiction } = found;
  if (entailment === undefined || neutral === undefined || contradiction === undefined) {
    return { problem: `config.json's id2label declares [${names.join(', ')}]` };
  }
  return { indices: { entailment, neutral, contradiction } };
}

const LABELS_NEEDED =
  'but entailment, neutral and contradiction labels are needed (any letter case)';

/** What {@link loadNliModel} asks of a local model's `config.json` before it loads the weights. */
function nliConfigProblem(config: Record<string, unknown>): string | undefined {
  const labels = findLabels(config.id2label);
  return 'problem' in labels
    ? `is not an NLI classifier: ${labels.problem}, ${LABELS_NEEDED}`
    : undefined;
}

function labelIndices(id2label: unknown, modelId: string): Record<NliLabel, number> {
  const labels = findLabels(id2label);
  if ('problem' in labels) {
    throw new SearchCoreError(
      SearchCoreErrorCode.UNSUPPORTED_MODEL,
      `NLI model "${modelId}" is not an NLI classifier: ${labels.problem}, ${LABELS_NEEDED}`,
    );
  }
  return labels.indices;
}

function softmax(logits: ArrayLike<number>, offset: number, count: number): number[] {
  let largest = Number.NEGATIVE_INFINITY;
  for (let index = 0; index < count; index++) {
    largest = Math.max(largest, logits[offset + index] ?? Number.NEGATIVE_INFINITY);
  }
  const exponentials: number[] = [];
  let total = 0;
  for (let index = 0; index < count; index++) {
    const value = Math.exp((logits[offset + index] ?? Number.NEGATIVE_INFINITY) - largest);
    exponentials.push(value);
    total += value;
  }
  return exponentials.map((value) => value / total);
}

/**
 * An {@link NliModel} running a cross-encoder with @huggingface/transformers: each pair is encoded
 * as `premise [SEP] hypothesis`, classified, and its logits turned into label probabilities by
 * softmax, with label names read from the model's `config.json`.
 */
export class TransformersNliModel implements NliModel {
  readonly maxTokens: number;
  readonly pairSpecialTokens: number;
  /** Label names by position in the model's output, as `config.json` declares them. */
  readonly labelIndices: Readonly<Record<NliLabel, number>>;
  private readonly labelCount: number;

  private readonly classifier: ClassificationPipeline;
  private readonly tensor: TensorConstructor;
  private readonly batchSize: number;
  /** The loading options after defaults, which identify the shared session. */
  readonly resolved: ResolvedModelOptions;

  /** Wraps a loaded pipeline; use {@link loadNliModel} rather than calling this directly. */
  constructor(parts: {
    classifier: ClassificationPipeline;
    tensor: TensorConstructor;
    resolved: ResolvedModelOptions;
    batchSize: number;
    maxTokens: number | undefined;
  }) {
    const { classifier, resolved, maxTokens } = parts;
    this.classifier = classifier;
    this.tensor = parts.tensor;
    this.resolved = resolved;
    this.batchSize = parts.batchSize;
    const id2label = classifier.model.config.id2label;
    this.labelIndices = labelIndices(id2label, resolved.modelId);
    this.labelCount = Object.keys(id2label ?? {}).length;
    const tokenizer = classifier.tokenizer;
    this.maxTokens = modelTokenLimit(classifier, maxTokens);
    this.pairSpecialTokens =
      tokenizer.encode('a', { text_pair: 'b' }).length -
      this.countTokens('a') -
      this.countTokens('b');
  }

  /** The model id this instance runs. */
  get modelId(): string {
    return this.resolved.modelId;
  }

  countTokens(text: string): number {
    return this.classifier.tokenizer.encode(text, { add_special_tokens: false }).length;
  }

  async classify(pairs: readonly NliPair[]): Promise<NliScores[]> {
    const results: NliScores[] = new Array(pairs.length);
    // similar lengths share a batch, so little is spent on padding
    const order = pairs
      .map((pair, index) => ({ index, length: pair.premise.length + pair.hypothesis.length }))
      .sort((left, right) => left.length - right.length)
      .map((entry) => entry.index);
    for (let start = 0; start < order.length; start += this.batchSize) {
      const indices = order.slice(start, start + this.batchSize);
      const scores = await this.classifyBatch(indices.map((index) => pairs[index]!));
      indices.forEach((index, position) => {
        results[index] = scores[position]!;
      });
    }
    return results;
  }

  /** Releases the inference session; every instance loaded with the same options shares it. */
  async dispose(): Promise<void> {
    forgetTransformersPipeline('text-classification', this.resolved);
    await this.classifier.dispose();
  }

  private async classifyBatch(pairs: NliPair[]): Promise<NliScores[]> {
    let encoding: TokenizerEncoding;
    try {
      encoding = this.classifier.tokenizer(
        pairs.map((pair) => pair.premise),
        {
          text_pair: pairs.map((pair) => pair.hypothesis),
          padding: false,
          truncation: false,
          return_tensor: false,
        },
      );
    } catch (error) {
      throw new SearchCoreError(
        SearchCoreErrorCode.INFERENCE_FAILED,
        `tokenizing ${pairs.length} pairs for "${this.modelId}" failed: ${String(error)}`,
        { cause: error },
      );
    }
    encoding.input_ids.forEach((ids, position) => {
      if (ids.length > this.maxTokens) {
        const pair = pairs[position]!;
        throw new SearchCoreError(
          SearchCoreErrorCode.INVALID_INPUT,
          `a pair of ${ids.length} tokens exceeds the ${this.maxTokens}-token window of ` +
            `"${this.modelId}" and would be truncated (premise starts "${pair.premise.slice(0, 40)}"); ` +
            'split long evidence with checkGrounding, which windows it',
        );
      }
    });
    const inputs = this.padToTensors(encoding);
    let logits: { dims: number[]; data: ArrayLike<number> } | undefined;
    try {
      logits = (await this.classifier.model(inputs)).logits;
    } catch (error) {
      throw new SearchCoreError(
        SearchCoreErrorCode.INFERENCE_FAILED,
        `inference with "${this.modelId}" failed on a batch of ${pairs.length} pairs: ${String(error)}`,
        { cause: error },
      );
    }
    if (!logits || logits.dims[0] !== pairs.length || logits.dims[1] !== this.labelCount) {
      throw new SearchCoreError(
        SearchCoreErrorCode.INFERENCE_FAILED,
        `"${this.modelId}" returned logits of shape [${logits?.dims.join(', ') ?? 'none'}], ` +
          `expected [${pairs.length}, ${this.labelCount}]`,
      );
    }
    const data = logits.data;
    return pairs.map((_, row) => {
      const probabilities = softmax(data, row * this.labelCount, this.labelCount);
      return {
        entailment: probabilities[this.labelIndices.entailment]!,
        neutral: probabilities[this.labelIndices.neutral]!,
        contradiction: probabilities[this.labelIndices.contradiction]!,
      };
    });
  }

  private padToTensors(encoding: TokenizerEncoding): Record<string, unknown> {
    const rows = encoding.input_ids.length;
    const width = Math.max(...encoding.input_ids.map((ids) => ids.length));
    const padLeft = this.classifier.tokenizer.padding_side === 'left';
    const padId = this.classifier.tokenizer.pad_token_id ?? 0;
    const inputs: Record<string, unknown> = {};
    const columns: [string, number[][] | undefined, number][] = [
      ['input_ids', encoding.input_ids, padId],
      ['attention_mask', encoding.attention_mask, 0],
      ['token_type_ids', encoding.token_type_ids, 0],
    ];
    // transformers.js passes the graph only the inputs it declares
    for (const [name, values, padValue] of columns) {
      if (!values) continue;
      const data = new BigInt64Array(rows * width).fill(BigInt(padValue));
      values.forEach((row, rowIndex) => {
        const offset = rowIndex * width + (padLeft ? width - row.length : 0);
        row.forEach((value, column) => {
          data[offset + column] = BigInt(value);
        });
      });
      inputs[name] = new this.tensor('int64', data, [rows, width]);
    }
    return inputs;
  }
}

/**
 * Loads an NLI cross-encoder with @huggingface/transformers (default
 * `Xenova/nli-deberta-v3-xsmall`) from `modelsDir`/`$QUALM_MODELS_DIR` or, when allowed, the hub;
 * the model loads once per set of loading options and concurrent callers share that load.
 */
export async function loadNliModel(options: NliModelOptions = {}): Promise<TransformersNliModel> {
  const { batchSize, maxTokens, ...loading } = options;
  const run = parseOptions(runOptionsSchema, { batchSize, maxTokens }, 'NLI model');
  const resolved = resolveModelOptions(loading, {
    modelId: DEFAULT_NLI_MODEL_ID,
    what: 'NLI model',
  });
  const classifier = (await loadTransformersPipeline('text-classification', resolved, {
    what: 'NLI model',
    checkConfig: nliConfigProblem,
  })) as ClassificationPipeline;
  const { Tensor } = await import('@huggingface/transformers');
  return new TransformersNliModel({
    classifier,
    tensor: Tensor as unknown as TensorConstructor,
    resolved,
    batchSize: run.batchSize ?? 8,
    maxTokens: run.maxTokens,
  });
}
