import { describe, expect, it } from 'vitest';
import { scoreRanking, scoreTurnRankingBySession } from '../src/index.js';

// positions:     0      1           2     3           4
const corpusIds = ['s1', 'answer_a', 's2', 'answer_b', 's3'];
const gold = ['answer_a', 'answer_b'];
// ranked: s2, answer_a, s1, answer_b, s3
const ranking = [2, 1, 0, 3, 4];

describe('the retrieval metrics of the official harness', () => {
  it('gives 0 everywhere when nothing gold is in the top k', () => {
    expect(scoreRanking(ranking, { goldIds: gold, corpusIds, k: 1 })).toEqual({
      recallAny: 0,
      recallAll: 0,
      ndcgAny: 0,
    });
  });

  it('counts recall_any once one gold item is in, recall_all only when all are', () => {
    // top 3: s2, answer_a, s1 → dcg 0 + 1 + 0 = 1; ideal 1 + 1 + 0 = 2
    expect(scoreRanking(ranking, { goldIds: gold, corpusIds, k: 3 })).toEqual({
      recallAny: 1,
      recallAll: 0,
      ndcgAny: 0.5,
    });
    // top 5: dcg 0 + 1 + 0 + 1 / log2(4) = 1.5; ideal 2
    expect(scoreRanking(ranking, { goldIds: gold, corpusIds, k: 5 })).toEqual({
      recallAny: 1,
      recallAll: 1,
      ndcgAny: 0.75,
    });
  });

  it('treats a cutoff beyond the corpus as the whole ranking', () => {
    expect(scoreRanking(ranking, { goldIds: gold, corpusIds, k: 50 })).toEqual(
      scoreRanking(ranking, { goldIds: gold, corpusIds, k: 5 }),
    );
  });

  it('leaves the first two positions undiscounted, as the harness does', () => {
    expect(scoreRanking([1, 3, 0, 2, 4], { goldIds: gold, corpusIds, k: 2 }).ndcgAny).toBe(1);
    expect(scoreRanking([0, 1, 3, 2, 4], { goldIds: gold, corpusIds, k: 3 }).ndcgAny).toBeCloseTo(
      (1 + 1 / Math.log2(3)) / 2,
      12,
    );
  });

  it('gives recall_all 1 and ndcg 0 when there is no gold item', () => {
    expect(scoreRanking(ranking, { goldIds: [], corpusIds, k: 3 })).toEqual({
      recallAny: 0,
      recallAll: 1,
      ndcgAny: 0,
    });
  });

  it('scores a turn ranking by session, widening k until it covers k sessions', () => {
    // positions:     0       1       2             3            4       5
    const turnIds = ['s1_1', 's1_3', 'answer_a_1', 'noans_a_3', 's2_1', 'answer_b_5'];
    const turnGold = ['answer_a_1', 'answer_b_5'];
    const turnRanking = [0, 1, 4, 2, 5, 3];
    // k 2: the top 3 turns cover s1 and s2, no gold
    expect(
      scoreTurnRankingBySession(turnRanking, { goldIds: turnGold, corpusIds: turnIds, k: 2 }),
    ).toEqual({
      recallAny: 0,
      recallAll: 0,
      ndcgAny: 0,
    });
    // k 3: the top 4 turns cover s1, s2 and answer_a; dcg 1 / log2(4) = 0.5 over an ideal of 2
    expect(
      scoreTurnRankingBySession(turnRanking, { goldIds: turnGold, corpusIds: turnIds, k: 3 }),
    ).toEqual({
      recallAny: 1,
      recallAll: 0,
      ndcgAny: 0.25,
    });
  });
});
