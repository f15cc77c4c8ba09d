import {
  DenseIndex,
  type Embedder,
  FullTextIndex,
  type FullTextIndexOptions,
  HybridRetriever,
  type Retriever,
} from '@qualm/search-core';
import { BenchmarkError, BenchmarkErrorCode } from '../errors.js';
import { FlatBm25Index } from './flat-bm25.js';
import type { RetrievalCorpus } from './retrieval-corpus.js';

/**
 * The retrievers a LongMemEval retrieval run can use: qualm's full-text index (the default), the
 * official harness's `flat-bm25` (rank_bm25 over whitespace tokens, to reproduce published BM25
 * baselines), and dense or hybrid retrieval with an embedding model.
 */
export type RetrieverKind = 'fulltext' | 'flat-bm25' | 'dense' | 'hybrid';

/** The retriever kinds, for option parsing. */
export const retrieverKinds: readonly RetrieverKind[] = [
  'fulltext',
  'flat-bm25',
  'dense',
  'hybrid',
];

/** Whether a retriever kind needs an embedding model. */
export function needsEmbedder(kind: RetrieverKind): boolean {
  return kind === 'dense' || kind === 'hybrid';
}

/** Options of the LongMemEval retrievers. */
export interface LongMemEvalRetrieverOptions {
  /**
   * Index the assistant side as a second BM25F field of weight 0.1 (the official harness indexes
   * user turns only). Better recall, about five times the indexing time.
   */
  assistantTurns?: boolean;
  /** Embeds documents and queries for the dense and hybrid retrievers. */
  embedder?: Embedder;
  /** Weight of the full-text side of the hybrid, 0 to 1; defaults to 0.5. */
  hybridWeight?: number;
}

/**
 * The full-text settings used for LongMemEval: the library defaults (BM25 k1 1.2, b 0.75, English
 * stop words, Porter stemming), over user turns, plus the assistant side when asked.
 */
export function longMemEvalFullTextOptions(
  options: Pick<LongMemEvalRetrieverOptions, 'assistantTurns'> = {},
): FullTextIndexOptions {
  return {
    k1: 1.2,
    b: 0.75,
    fields: options.assistantTurns
      ? [
          { name: 'user', text: (document) => document.text },
          {
            name: 'assistant',
            weight: 0.1,
            text: (document) => String(document.metadata?.assistantText ?? ''),
          },
        ]
      : [{ name: 'user', text: (document) => document.text }],
  };
}

/** Builds the retriever of a kind over one question's corpus. */
export async function createLongMemEvalRetriever(
  kind: RetrieverKind,
  corpus: RetrievalCorpus,
  options: LongMemEvalRetrieverOptions = {},
): Promise<Retriever> {
  if (!retrieverKinds.includes(kind)) {
    throw new BenchmarkError(
      BenchmarkErrorCode.INVALID_CONFIG,
      `unknown retriever "${String(kind)}" (expected ${retrieverKinds.join(', ')})`,
    );
  }
  if (kind === 'fulltext') {
    return new FullTextIndex(corpus.documents, longMemEvalFullTextOptions(options));
  }
  if (kind === 'flat-bm25') return new FlatBm25Index(corpus.documents);
  if (!options.embedder) {
    throw new BenchmarkError(
      BenchmarkErrorCode.INVALID_CONFIG,
      `the ${kind} retriever needs an embedding model`,
    );
  }
  const dense = await DenseIndex.build(corpus.documents, options.embedder);
  if (kind === 'dense') return dense;
  const weight = options.hybridWeight ?? 0.5;
  return new HybridRetriever([
    { retriever: new FullTextIndex(corpus.documents, longMemEvalFullTextOptions(options)), weight },
    { retriever: dense, weight: 1 - weight },
  ]);
}
