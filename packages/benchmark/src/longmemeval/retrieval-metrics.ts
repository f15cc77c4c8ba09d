import { numpySum } from './python-format.js';

/** The cutoffs k the official harness reports. */
export const retrievalCutoffs: readonly number[] = [1, 3, 5, 10, 30, 50];

/** Retrieval quality of one ranking at one cutoff. */
export interface RankingScores {
  /** 1 if any gold item is in the top k, else 0. */
  recallAny: number;
  /** 1 if every gold item is in the top k, else 0 (1 when there is no gold item). */
  recallAll: number;
  /** NDCG at k with binary relevance, as the harness computes it. */
  ndcgAny: number;
}

// the harness's dcg: rel₁ + Σ_{i≥2} relᵢ / log2(i), the first two positions undiscounted, summed
// in numpy's pairwise order so that the values match the harness's to the last bit
function discountedGain(relevances: readonly number[], k: number): number {
  const count = Math.min(k, relevances.length);
  if (count === 0) return 0;
  const discounted = new Array<number>(count - 1);
  for (let index = 1; index < count; index += 1) {
    discounted[index - 1] = relevances[index]! / Math.log2(index + 1);
  }
  return relevances[0]! + numpySum(discounted);
}

/** What a ranking is scored against. */
export interface RankingScoreOptions {
  /** Ids of the gold items. */
  goldIds: readonly string[];
  /** The id at each corpus position (ids may repeat). */
  corpusIds: readonly string[];
  /** The cutoff. */
  k: number;
}

/**
 * Scores a ranking as the official harness does (xiaowu0162/LongMemEval,
 * src/retrieval/eval_utils.py, `evaluate_retrieval` and `ndcg`). `rankings` lists corpus
 * positions best first.
 */
export function scoreRanking(
  rankings: readonly number[],
  { goldIds, corpusIds, k }: RankingScoreOptions,
): RankingScores {
  const top = rankings.slice(0, k);
  const recalled = new Set(top.map((position) => corpusIds[position]));
  const gold = new Set(goldIds);
  const recallAny = goldIds.some((id) => recalled.has(id)) ? 1 : 0;
  const recallAll = goldIds.every((id) => recalled.has(id)) ? 1 : 0;
  const relevances = corpusIds.map((id) => (gold.has(id) ? 1 : 0));
  const ranked = top.map((position) => relevances[position] ?? 0);
  const ideal = [...relevances].sort((left, right) => right - left);
  const idealGain = discountedGain(ideal, k);
  const ndcgAny = idealGain === 0 ? 0 : discountedGain(ranked, k) / idealGain;
  return { recallAny, recallAll, ndcgAny };
}

function stripTurn(id: string): string {
  return id.split('_').slice(0, -1).join('_');
}

/**
 * Scores a turn ranking at session level as the harness does (`evaluate_retrieval_turn2session`):
 * turn ids lose their last `_` part, and k grows until the top k turns cover k distinct sessions.
 */
export function scoreTurnRankingBySession(
  rankings: readonly number[],
  { goldIds, corpusIds, k }: RankingScoreOptions,
): RankingScores {
  const gold = [...new Set(goldIds.map(stripTurn))];
  const sessions = corpusIds.map(stripTurn);
  let effective = k;
  const distinctAt = (cutoff: number) =>
    new Set(rankings.slice(0, cutoff).map((position) => sessions[position])).size;
  while (effective <= sessions.length && distinctAt(effective) < k) effective += 1;
  return scoreRanking(rankings, { goldIds: gold, corpusIds: sessions, k: effective });
}
