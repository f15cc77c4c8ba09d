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
} from '../nli/load-transformers-pipeline.js';
import { splitIntoWindows } from '../nli/windows.js';
import type { Embedder } from '../retrieval/types.js';

/** The sentence-embedding model loaded when no model id is given. */
export const DEFAULT_EMBEDDING_MODEL_ID = 'Xenova/all-MiniLM-L6-v2';

/** Options of {@link loadEmbedder}: where the model comes from and how it is run. */
export interface EmbedderOptions extends TransformersModelOptions {
  /** Texts per forward pass; defaults to 16. */
  batchSize?: number;
  /** Lowers the longest text the model is given (never above what the tokenizer declares). */
  maxTokens?: number;
  /**
   * What to do with a text longer than the window: `windows` (default) embeds overlapping windows
   * and averages them, so every part of the text counts; `truncate` keeps only the first window,
   * as sentence-transformers does.
   */
  longTexts?: 'windows' | 'truncate';
}

/** The parts of a transformers.js feature-extraction pipeline the embedder uses. */
export interface FeatureExtractionPipeline {
  (
    texts: string[],
    options: { pooling: 'mean'; normalize: true },
  ): Promise<{ dims: number[]; data: ArrayLike<number> }>;
  tokenizer: {
    encode(text: string, options?: { add_special_tokens?: boolean }): number[];
    model_max_length?: number;
  };
  model: { config: { max_position_embeddings?: number } };
  dispose(): Promise<void>;
}

const runOptionsSchema = z.object({
  batchSize: z.number().int().min(1).optional(),
  maxTokens: z.number().int().min(4).optional(),
  longTexts: z.enum(['windows', 'truncate']).optional(),
});

function normalise(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm);
  if (norm > 0) {
    for (let index = 0; index < vector.length; index++) vector[index] = vector[index]! / norm;
  }
  return vector;
}

/**
 * An {@link Embedder} on a transformers.js `feature-extraction` pipeline: token vectors are
 * mean-pooled over the attention mask and normalised to unit length, so a dot product is a cosine.
 */
export class TransformersEmbedder implements Embedder {
  /** Longest text, special tokens included, embedded in one pass. */
  readonly maxTokens: number;
  /** The loading options after defaults, which identify the shared session. */
  readonly resolved: ResolvedModelOptions;
  private readonly extractor: FeatureExtractionPipeline;
  private readonly batchSize: number;
  private readonly longTexts: 'windows' | 'truncate';
  private readonly specialTokens: number;
  private dimensionCache: number | undefined;

  /** Wraps a loaded pipeline; use {@link loadEmbedder} rather than calling this directly. */
  constructor(parts: {
    extractor: FeatureExtractionPipeline;
    resolved: ResolvedModelOptions;
    batchSize: number;
    maxTokens: number | undefined;
    longTexts: 'windows' | 'truncate';
  }) {
    this.extractor = parts.extractor;
    this.resolved = parts.resolved;
    this.batchSize = parts.batchSize;
    this.longTexts = parts.longTexts;
    this.maxTokens = modelTokenLimit(parts.extractor, parts.maxTokens);
    this.specialTokens = parts.extractor.tokenizer.encode('a').length - this.countTokens('a');
  }

  /** The model id this instance runs. */
  get modelId(): string {
    return this.resolved.modelId;
  }

  /** Length of the vectors, known after the first call of {@link embed}. */
  get dimension(): number | undefined {
    return this.dimensionCache;
  }

  /** Number of tokens a text takes, without special tokens. */
  countTokens(text: string): number {
    return this.extractor.tokenizer.encode(text, { add_special_tokens: false }).length;
  }

  /** One unit-length vector per text, in the order given. */
  async embed(texts: string[]): Promise<Float32Array[]> {
    const pieces: string[] = [];
    const owners: number[] = [];
    texts.forEach((text, index) => {
      if (typeof text !== 'string') {
        throw new SearchCoreError(
          SearchCoreErrorCode.INVALID_INPUT,
          `text ${index} to embed is ${typeof text}, not a string`,
        );
      }
      for (const piece of this.piecesOf(text)) {
        pieces.push(piece);
        owners.push(index);
      }
    });
    const vectors = await this.embedPieces(pieces);
    const sums: (Float32Array | undefined)[] = new Array(texts.length);
    vectors.forEach((vector, position) => {
      const owner = owners[position]!;
      const sum = sums[owner];
      if (sum === undefined) {
        sums[owner] = vector;
      } else {
        for (let index = 0; index < sum.length; index++) sum[index] = sum[index]! + vector[index]!;
      }
    });
    return sums.map((sum) => normalise(sum!));
  }

  /** Releases the inference session; every instance loaded with the same options shares it. */
  async dispose(): Promise<void> {
    forgetTransformersPipeline('feature-extraction', this.resolved);
    await this.extractor.dispose();
  }

  private piecesOf(text: string): string[] {
    const budget = this.maxTokens - this.specialTokens;
    if (this.countTokens(text) <= budget) return [text];
    const windows = splitIntoWindows(text, {
      maxTokens: budget,
      overlapTokens: Math.floor(budget / 4),
      countTokens: (value) => this.countTokens(value),
    }).map((window) => window.text);
    return this.longTexts === 'truncate' ? windows.slice(0, 1) : windows;
  }

  private async embedPieces(pieces: string[]): Promise<Float32Array[]> {
    const vectors: Float32Array[] = [];
    for (let start = 0; start < pieces.length; start += this.batchSize) {
      const batch = pieces.slice(start, start + this.batchSize);
      let output: { dims: number[]; data: ArrayLike<number> };
      try {
        output = await this.extractor(batch, { pooling: 'mean', normalize: true });
      } catch (error) {
        throw new SearchCoreError(
          SearchCoreErrorCode.INFERENCE_FAILED,
          `embedding ${batch.length} texts with "${this.modelId}" failed: ${String(error)}`,
          { cause: error },
        );
      }
      const [rows, dimension] = output.dims;
      if (rows !== batch.length || dimension === undefined || output.dims.length !== 2) {
        throw new SearchCoreError(
          SearchCoreErrorCode.INFERENCE_FAILED,
          `"${this.modelId}" returned embeddings of shape [${output.dims.join(', ')}], ` +
            `expected [${batch.length}, dimension]`,
        );
      }
      this.dimensionCache = dimension;
      for (let row = 0; row < rows; row++) {
        vectors.push(
          Float32Array.from({ length: dimension }, (_, column) => {
            return output.data[row * dimension + column]!;
          }),
        );
      }
    }
    return vectors;
  }
}

/**
 * Loads a sentence-embedding model with @huggingface/transformers (default
 * `Xenova/all-MiniLM-L6-v2`) from `modelsDir`/`$QUALM_MODELS_DIR` or, when allowed, the hub;
 * the model loads once per set of loading options and concurrent callers share that load.
 */
export async function loadEmbedder(options: EmbedderOptions = {}): Promise<TransformersEmbedder> {
  const { batchSize, maxTokens, longTexts, ...loading } = options;
  const run = parseOptions(runOptionsSchema, { batchSize, maxTokens, longTexts }, 'embedder');
  const resolved = resolveModelOptions(loading, {
    modelId: DEFAULT_EMBEDDING_MODEL_ID,
    what: 'embedding model',
  });
  const extractor = (await loadTransformersPipeline('feature-extraction', resolved, {
    what: 'embedding model',
  })) as FeatureExtractionPipeline;
  return new TransformersEmbedder({
    extractor,
    resolved,
    batchSize: run.batchSize ?? 16,
    maxTokens: run.maxTokens,
    longTexts: run.longTexts ?? 'windows',
  });
}
