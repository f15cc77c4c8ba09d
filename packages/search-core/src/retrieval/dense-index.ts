import { SearchCoreError, SearchCoreErrorCode } from '../errors.js';
import { checkLimit, compareHits } from './ranking.js';
import type {
  Embedder,
  RetrievalDocument,
  RetrievalHit,
  Retriever,
  SearchOptions,
} from './types.js';

/** Options of {@link DenseIndex.build}. */
export interface DenseIndexOptions {
  /** Texts per call of the embedder; defaults to 32. */
  batchSize?: number;
}

/**
 * A dense retriever: documents and queries are embedded and compared by cosine similarity.
 * `rawScore` is the cosine in [−1, 1]; `score` is max(0, cosine), so that 0 means "unrelated or
 * opposed" as it does for the full-text index, and 1 means the same direction as the query. How
 * high a related document scores depends on the embedding model, so a threshold calibrated for one
 * model does not carry over to another.
 */
export class DenseIndex implements Retriever {
  /** Number of indexed documents. */
  readonly documentCount: number;
  /** Length of the embedding vectors. */
  readonly dimension: number;

  private readonly embedder: Embedder;
  private readonly documents: readonly RetrievalDocument[];
  private readonly vectors: readonly Float32Array[];

  private constructor(state: {
    embedder: Embedder;
    documents: readonly RetrievalDocument[];
    vectors: readonly Float32Array[];
    dimension: number;
  }) {
    this.embedder = state.embedder;
    this.documents = state.documents;
    this.vectors = state.vectors;
    this.documentCount = state.documents.length;
    this.dimension = state.dimension;
  }

  /** Embeds every document's text and returns the index. */
  static async build(
    documents: Iterable<RetrievalDocument>,
    embedder: Embedder,
    options: DenseIndexOptions = {},
  ): Promise<DenseIndex> {
    const batchSize = options.batchSize ?? 32;
    if (!Number.isInteger(batchSize) || batchSize < 1) {
      throw new SearchCoreError(
        SearchCoreErrorCode.INVALID_CONFIG,
        `batchSize must be a positive integer, got ${String(batchSize)}`,
      );
    }
    const list = [...documents];
    const seen = new Set<string>();
    list.forEach((document, position) => {
      if (seen.has(document.id)) {
        throw new SearchCoreError(
          SearchCoreErrorCode.INVALID_INPUT,
          `duplicate document id "${document.id}" at position ${position}`,
        );
      }
      seen.add(document.id);
    });
    const vectors: Float32Array[] = [];
    let dimension = -1;
    for (let start = 0; start < list.length; start += batchSize) {
      const texts = list.slice(start, start + batchSize).map((document) => document.text);
      for (const vector of await embedChecked(embedder, texts, dimension)) {
        dimension = vector.length;
        vectors.push(unit(vector));
      }
    }
    return new DenseIndex({
      embedder,
      documents: list,
      vectors,
      dimension: Math.max(dimension, 0),
    });
  }

  /** Ranks every document by cosine similarity to the query; see the class for the scores. */
  async search(query: string, options: SearchOptions = {}): Promise<RetrievalHit[]> {
    const limit = checkLimit(options.limit);
    if (this.documentCount === 0 || limit === 0) return [];
    const [embedded] = await embedChecked(this.embedder, [query], this.dimension);
    const queryVector = unit(embedded!);
    const hits = this.documents.map((document, position) => {
      const vector = this.vectors[position]!;
      let cosine = 0;
      for (let index = 0; index < vector.length; index += 1) {
        cosine += vector[index]! * queryVector[index]!;
      }
      cosine = Math.max(-1, Math.min(1, cosine));
      return { id: document.id, score: Math.max(0, cosine), rawScore: cosine, document, position };
    });
    hits.sort(compareHits);
    return hits.slice(0, limit).map(({ position: _position, ...hit }) => hit);
  }
}

async function embedChecked(
  embedder: Embedder,
  texts: string[],
  dimension: number,
): Promise<Float32Array[]> {
  const vectors = await embedder.embed(texts);
  if (!Array.isArray(vectors) || vectors.length !== texts.length) {
    throw new SearchCoreError(
      SearchCoreErrorCode.INFERENCE_FAILED,
      `the embedder returned ${Array.isArray(vectors) ? vectors.length : 'no array of'} vectors for ${texts.length} texts`,
    );
  }
  for (const vector of vectors) {
    const expected = dimension >= 0 ? dimension : vectors[0]!.length;
    if (!(vector instanceof Float32Array) || vector.length !== expected || vector.length === 0) {
      throw new SearchCoreError(
        SearchCoreErrorCode.INFERENCE_FAILED,
        `the embedder returned a vector of length ${vector?.length} where ${expected} was expected`,
      );
    }
    if (vector.some((value) => !Number.isFinite(value))) {
      throw new SearchCoreError(
        SearchCoreErrorCode.INFERENCE_FAILED,
        'the embedder returned a vector with a non-finite value',
      );
    }
  }
  return vectors;
}

function unit(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm);
  // a zero vector stays zero and so has cosine 0 with everything
  if (norm === 0) return new Float32Array(vector.length);
  const result = new Float32Array(vector.length);
  for (let index = 0; index < vector.length; index += 1) result[index] = vector[index]! / norm;
  return result;
}
