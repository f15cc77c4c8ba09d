import { describe, expect, it } from 'vitest';
import {
  DenseIndex,
  defaultAnalyzer,
  type Embedder,
  FullTextIndex,
  HybridRetriever,
  type RetrievalDocument,
  type Retriever,
} from '../src/index.js';

// a deterministic embedder for tests: each analysed word adds 1 to a hashed coordinate
class HashedBagOfWords implements Embedder {
  calls: number[] = [];
  constructor(private readonly dimension = 64) {}

  async embed(texts: string[]): Promise<Float32Array[]> {
    this.calls.push(texts.length);
    return texts.map((text) => {
      const vector = new Float32Array(this.dimension);
      for (const term of defaultAnalyzer.analyze(text)) {
        let hash = 0;
        for (const character of term) hash = (hash * 31 + character.charCodeAt(0)) >>> 0;
        vector[hash % this.dimension]! += 1;
      }
      return vector;
    });
  }
}

// an embedder that maps each text to a fixed vector
class TableEmbedder implements Embedder {
  constructor(private readonly table: Record<string, number[]>) {}
  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((text) => Float32Array.from(this.table[text] ?? [0, 0]));
  }
}

function cosine(left: Float32Array, right: Float32Array): number {
  let dot = 0;
  let leftNorm = 0;
  let rightNorm = 0;
  left.forEach((value, index) => {
    dot += value * right[index]!;
    leftNorm += value * value;
    rightNorm += right[index]! * right[index]!;
  });
  return dot / Math.sqrt(leftNorm * rightNorm);
}

const documents: RetrievalDocument[] = [
  { id: 'garden', text: 'I planted tomatoes and basil in the garden' },
  { id: 'car', text: 'The car needs new tyres before the trip' },
  { id: 'cooking', text: 'Basil pesto with pasta for dinner' },
];

describe('the dense index', () => {
  it('ranks documents by cosine similarity of their embeddings', async () => {
    const embedder = new HashedBagOfWords();
    const index = await DenseIndex.build(documents, embedder);
    const hits = await index.search('tomatoes in my garden', { limit: 3 });
    expect(hits[0]?.id).toBe('garden');
    const [query, garden] = await embedder.embed(['tomatoes in my garden', documents[0]!.text]);
    expect(hits[0]?.rawScore).toBeCloseTo(cosine(query!, garden!), 6);
    expect(hits[0]?.score).toBeCloseTo(hits[0]!.rawScore, 12);
    expect(index.dimension).toBe(64);
  });

  it('maps a negative cosine to a score of 0 and keeps the cosine as the raw score', async () => {
    const embedder = new TableEmbedder({ same: [1, 0], opposite: [-1, 0], query: [1, 0] });
    const index = await DenseIndex.build(
      [
        { id: 'same', text: 'same' },
        { id: 'opposite', text: 'opposite' },
      ],
      embedder,
    );
    const hits = await index.search('query');
    expect(hits.map((hit) => [hit.id, hit.score, hit.rawScore])).toEqual([
      ['same', 1, 1],
      ['opposite', 0, -1],
    ]);
  });

  it('embeds documents in batches of the given size', async () => {
    const embedder = new HashedBagOfWords();
    await DenseIndex.build(documents, embedder, { batchSize: 2 });
    expect(embedder.calls).toEqual([2, 1]);
  });

  it('fails clearly when the embedder returns the wrong number of vectors', async () => {
    const broken: Embedder = { embed: async () => [new Float32Array([1, 0])] };
    await expect(DenseIndex.build(documents, broken)).rejects.toMatchObject({
      name: 'SearchCoreError',
      code: 'INFERENCE_FAILED',
      message: expect.stringContaining('1 vectors for 3 texts'),
    });
  });

  it('fails clearly when vectors change length', async () => {
    let calls = 0;
    const shifting: Embedder = {
      embed: async (texts) => texts.map(() => new Float32Array(++calls === 1 ? 2 : 3)),
    };
    await expect(DenseIndex.build(documents, shifting, { batchSize: 1 })).rejects.toMatchObject({
      code: 'INFERENCE_FAILED',
    });
  });
});

describe('the hybrid retriever', () => {
  it('combines normalised scores by weight, so the result stays in [0, 1]', async () => {
    const fullText = new FullTextIndex(documents);
    const dense = await DenseIndex.build(documents, new HashedBagOfWords());
    const hybrid = new HybridRetriever([
      { retriever: fullText, weight: 3 },
      { retriever: dense, weight: 1 },
    ]);
    const query = 'basil for the garden';
    const all = { limit: Number.POSITIVE_INFINITY };
    const textScores = new Map(
      (await fullText.search(query, all)).map((hit) => [hit.id, hit.score]),
    );
    const denseScores = new Map((await dense.search(query, all)).map((hit) => [hit.id, hit.score]));
    const hits = await hybrid.search(query, all);
    expect(hits.length).toBeGreaterThan(0);
    for (const hit of hits) {
      const expected = 0.75 * (textScores.get(hit.id) ?? 0) + 0.25 * (denseScores.get(hit.id) ?? 0);
      expect(hit.score).toBeCloseTo(expected, 12);
      expect(hit.score).toBeLessThanOrEqual(1);
    }
    expect(hits.map((hit) => hit.score)).toEqual(
      [...hits.map((hit) => hit.score)].sort((a, b) => b - a),
    );
  });

  it('keeps a document only one component found, and the matched terms of the full-text side', async () => {
    const only = (id: string, score: number): Retriever => ({
      search: async () => [{ id, score, rawScore: score, document: { id, text: id } }],
    });
    const fullText = new FullTextIndex(documents);
    const hybrid = new HybridRetriever([{ retriever: fullText }, { retriever: only('car', 0.8) }]);
    const hits = await hybrid.search('pesto');
    expect(hits.map((hit) => hit.id).sort()).toEqual(['car', 'cooking']);
    expect(hits.find((hit) => hit.id === 'car')?.score).toBeCloseTo(0.4, 12);
    expect(hits.find((hit) => hit.id === 'cooking')?.matchedTerms).toEqual(['pesto']);
  });

  it('normalises reciprocal rank fusion so that first place everywhere scores 1', async () => {
    const ranked = (ids: string[]): Retriever => ({
      search: async () =>
        ids.map((id, rank) => ({
          id,
          score: 1 - rank / 10,
          rawScore: 0,
          document: { id, text: id },
        })),
    });
    const hybrid = new HybridRetriever(
      [{ retriever: ranked(['a', 'b']) }, { retriever: ranked(['a', 'c']) }],
      { fusion: 'reciprocal-rank', rankConstant: 60 },
    );
    const hits = await hybrid.search('anything');
    expect(hits[0]).toMatchObject({ id: 'a', score: 1 });
    expect(hits[1]?.score).toBeCloseTo(0.5 * (61 / 62), 12);
  });

  it('rejects weights that cannot be normalised', () => {
    const fullText = new FullTextIndex(documents);
    expect(() => new HybridRetriever([{ retriever: fullText, weight: 0 }])).toThrowError(
      expect.objectContaining({ code: 'INVALID_CONFIG' }),
    );
    expect(() => new HybridRetriever([{ retriever: fullText, weight: -1 }])).toThrowError(
      /weights/,
    );
    expect(() => new HybridRetriever([])).toThrowError(/needs a retriever/);
  });
});
