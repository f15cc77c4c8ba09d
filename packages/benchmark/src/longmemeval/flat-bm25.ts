import type { RetrievalDocument, RetrievalHit, Retriever, SearchOptions } from '@qualm/search-core';

/** The parameters of rank_bm25's `BM25Okapi`, which the official harness leaves at their defaults. */
export const FLAT_BM25_PARAMETERS = { k1: 1.5, b: 0.75, epsilon: 0.25 } as const;

/**
 * The official harness's `flat-bm25` retriever (github.com/xiaowu0162/LongMemEval,
 * src/retrieval/run_retrieval.py): rank_bm25 0.2.2's `BM25Okapi` with k1 1.5, b 0.75 and epsilon
 * 0.25 over `text.split(" ")` (no lower-casing, punctuation kept, consecutive spaces giving empty
 * tokens), the query split the same way, every document ranked by `np.argsort(scores)[::-1]`. Each
 * float operation is done in rank_bm25's order, so the scores are the same to the last bit but for
 * rare last-bit differences between JavaScript's and C's `log`. Equal scores are ranked later
 * corpus position first, as a stable argsort reversed ranks them (numpy's default sort is not
 * stable, so the official order among exactly equal scores depends on numpy and the processor).
 * `score` is the raw score divided by the best one (0 when nothing scored above 0), `rawScore`
 * the BM25 sum.
 */
export class FlatBm25Index implements Retriever {
  private readonly frequencies: Map<string, number>[];
  private readonly lengthNorms: number[];
  private readonly idf = new Map<string, number>();

  constructor(private readonly documents: readonly RetrievalDocument[]) {
    const { k1, b, epsilon } = FLAT_BM25_PARAMETERS;
    const tokens = documents.map((document) => document.text.split(' '));
    let total = 0;
    for (const list of tokens) total += list.length;
    const average = total / documents.length;
    // rank_bm25 evaluates k1 * (1 - b + b * doc_len / avgdl) left to right
    this.lengthNorms = tokens.map((list) => k1 * (1 - b + (b * list.length) / average));
    this.frequencies = tokens.map((list) => {
      const counts = new Map<string, number>();
      for (const token of list) counts.set(token, (counts.get(token) ?? 0) + 1);
      return counts;
    });
    // words in the order they are first met, as rank_bm25's dict holds them
    const documentFrequency = new Map<string, number>();
    for (const counts of this.frequencies) {
      for (const token of counts.keys()) {
        documentFrequency.set(token, (documentFrequency.get(token) ?? 0) + 1);
      }
    }
    let sum = 0;
    const negative: string[] = [];
    for (const [token, frequency] of documentFrequency) {
      const value = Math.log(documents.length - frequency + 0.5) - Math.log(frequency + 0.5);
      this.idf.set(token, value);
      sum += value;
      if (value < 0) negative.push(token);
    }
    const floor = epsilon * (sum / documentFrequency.size);
    for (const token of negative) this.idf.set(token, floor);
  }

  /** The BM25Okapi score of every document for a query, in corpus order. */
  scores(query: string): number[] {
    const { k1 } = FLAT_BM25_PARAMETERS;
    const scores = new Array<number>(this.documents.length).fill(0);
    for (const term of query.split(' ')) {
      const idf = this.idf.get(term) ?? 0;
      for (let position = 0; position < scores.length; position += 1) {
        const frequency = this.frequencies[position]!.get(term) ?? 0;
        scores[position]! +=
          idf * ((frequency * (k1 + 1)) / (frequency + this.lengthNorms[position]!));
      }
    }
    return scores;
  }

  /** The best `limit` documents (10 by default; `Infinity` for all), best first. */
  searchSync(query: string, options: SearchOptions = {}): RetrievalHit[] {
    if (this.documents.length === 0) return [];
    const scores = this.scores(query);
    const order = scores
      .map((_, position) => position)
      .sort((left, right) => scores[right]! - scores[left]! || right - left);
    const best = Math.max(0, scores[order[0]!]!);
    const limit = options.limit ?? 10;
    return order.slice(0, limit).map((position) => {
      const rawScore = scores[position]!;
      return {
        id: this.documents[position]!.id,
        score: best > 0 ? Math.max(0, rawScore) / best : 0,
        rawScore,
        document: this.documents[position]!,
      };
    });
  }

  async search(query: string, options: SearchOptions = {}): Promise<RetrievalHit[]> {
    return this.searchSync(query, options);
  }
}
