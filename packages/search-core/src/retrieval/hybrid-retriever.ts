import { SearchCoreError, SearchCoreErrorCode } from '../errors.js';
import { checkLimit, compareHits } from './ranking.js';
import type { RetrievalHit, Retriever, SearchOptions } from './types.js';

/** A retriever taking part in a hybrid, with its weight. */
export interface HybridComponent {
  retriever: Retriever;
  /** Relative weight; defaults to 1. Weights are divided by their sum. */
  weight?: number;
}

/** Options of a {@link HybridRetriever}. */
export interface HybridRetrieverOptions {
  /**
   * `weighted` (default) sums the components' normalised scores times their weights, so the
   * result stays comparable across queries; `reciprocal-rank` fuses ranks only.
   */
  fusion?: 'weighted' | 'reciprocal-rank';
  /** The constant k of reciprocal rank fusion, 1 / (k + rank); defaults to 60. */
  rankConstant?: number;
  /** Hits asked of each component; defaults to all, which makes the weighted fusion exact. */
  depth?: number;
}

/**
 * Combines retrievers over the same documents. With `weighted` fusion a document's score is
 * Σ wᵢ · scoreᵢ / Σ wᵢ, a document a component did not return counting 0 there, so it stays in
 * [0, 1] and keeps the components' meaning. With `reciprocal-rank` fusion the raw score
 * Σ wᵢ / (k + rankᵢ) is divided by its maximum Σ wᵢ / (k + 1): 1 means ranked first by every
 * component, which says nothing about how well the documents answer the query.
 */
export class HybridRetriever implements Retriever {
  private readonly components: readonly { retriever: Retriever; weight: number }[];
  private readonly fusion: 'weighted' | 'reciprocal-rank';
  private readonly rankConstant: number;
  private readonly depth: number;

  constructor(components: readonly HybridComponent[], options: HybridRetrieverOptions = {}) {
    if (components.length === 0) {
      throw new SearchCoreError(SearchCoreErrorCode.INVALID_CONFIG, 'a hybrid needs a retriever');
    }
    const weights = components.map((component) => component.weight ?? 1);
    if (weights.some((weight) => !Number.isFinite(weight) || weight < 0)) {
      throw new SearchCoreError(
        SearchCoreErrorCode.INVALID_CONFIG,
        `hybrid weights must be finite and non-negative, got ${weights.join(', ')}`,
      );
    }
    const total = weights.reduce((sum, weight) => sum + weight, 0);
    if (total === 0) {
      throw new SearchCoreError(SearchCoreErrorCode.INVALID_CONFIG, 'hybrid weights sum to 0');
    }
    this.components = components.map((component, index) => ({
      retriever: component.retriever,
      weight: weights[index]! / total,
    }));
    this.fusion = options.fusion ?? 'weighted';
    if (this.fusion !== 'weighted' && this.fusion !== 'reciprocal-rank') {
      throw new SearchCoreError(
        SearchCoreErrorCode.INVALID_CONFIG,
        `fusion must be "weighted" or "reciprocal-rank", got "${String(this.fusion)}"`,
      );
    }
    this.rankConstant = options.rankConstant ?? 60;
    if (!Number.isFinite(this.rankConstant) || this.rankConstant < 0) {
      throw new SearchCoreError(
        SearchCoreErrorCode.INVALID_CONFIG,
        `rankConstant must be a non-negative number, got ${String(this.rankConstant)}`,
      );
    }
    this.depth = checkLimit(options.depth ?? Number.POSITIVE_INFINITY);
  }

  /** Ranks documents by the fused score; see the class for its meaning. */
  async search(query: string, options: SearchOptions = {}): Promise<RetrievalHit[]> {
    const limit = checkLimit(options.limit);
    if (limit === 0) return [];
    const results = await Promise.all(
      this.components.map((component) => component.retriever.search(query, { limit: this.depth })),
    );
    const fused = new Map<string, RetrievalHit & { position: number }>();
    results.forEach((hits, componentIndex) => {
      const weight = this.components[componentIndex]!.weight;
      hits.forEach((hit, rank) => {
        const contribution =
          this.fusion === 'weighted' ? weight * hit.score : weight / (this.rankConstant + rank + 1);
        const entry = fused.get(hit.id);
        if (entry) {
          entry.rawScore += contribution;
          if (hit.matchedTerms) {
            entry.matchedTerms = [...new Set([...(entry.matchedTerms ?? []), ...hit.matchedTerms])];
          }
        } else {
          fused.set(hit.id, {
            id: hit.id,
            score: 0,
            rawScore: contribution,
            document: hit.document,
            ...(hit.matchedTerms ? { matchedTerms: [...hit.matchedTerms] } : {}),
            position: fused.size,
          });
        }
      });
    });
    const maximum = this.fusion === 'weighted' ? 1 : 1 / (this.rankConstant + 1);
    const hits = [...fused.values()];
    for (const hit of hits) hit.score = Math.min(1, hit.rawScore / maximum);
    hits.sort(compareHits);
    return hits
      .filter((hit) => hit.score > 0 || this.fusion === 'reciprocal-rank')
      .slice(0, limit)
      .map(({ position: _position, ...hit }) => hit);
  }
}
