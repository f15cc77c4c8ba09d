import { describe, expect, it } from 'vitest';
import { FullTextIndex, type RetrievalDocument, SearchCoreError } from '../src/index.js';

const documents: RetrievalDocument[] = [
  { id: 'd1', text: 'apple banana' },
  { id: 'd2', text: 'apple apple cherry' },
  { id: 'd3', text: 'durian', metadata: { note: 'kept' } },
];

// idf as the index defines it, for the expected values below
const idf = (documentCount: number, frequency: number) =>
  Math.log(1 + (documentCount - frequency + 0.5) / (frequency + 0.5));

describe('the full-text index', () => {
  it('scores a document by BM25 divided by the attainable maximum for the query', () => {
    const index = new FullTextIndex(documents);
    const [hit] = index.searchSync('banana');
    // d1 has average length (2), so its pseudo-frequency is 1 and its BM25 is idf · 1
    expect(hit?.id).toBe('d1');
    expect(hit?.rawScore).toBeCloseTo(idf(3, 1), 12);
    expect(hit?.score).toBeCloseTo(1 / 2.2, 12);
  });

  it('does not lift the best hit to 1: a weak match keeps a low score', () => {
    const index = new FullTextIndex(documents);
    const hits = index.searchSync('banana');
    expect(hits).toHaveLength(1);
    expect(hits[0]!.score).toBeLessThan(0.5);
  });

  it('lowers every score when part of the query occurs in no document', () => {
    const index = new FullTextIndex(documents);
    const alone = index.searchSync('banana')[0]!;
    const withUnknown = index.searchSync('banana kiwi')[0]!;
    expect(withUnknown.rawScore).toBeCloseTo(alone.rawScore, 12);
    expect(withUnknown.score).toBeCloseTo(idf(3, 1) / (2.2 * (idf(3, 1) + idf(3, 0))), 12);
  });

  it('approaches 1 when every query term saturates a document', () => {
    const index = new FullTextIndex(
      [
        { id: 'many', text: 'banana '.repeat(200) },
        { id: 'other', text: 'cherry' },
      ],
      { b: 0 },
    );
    const [hit] = index.searchSync('banana');
    expect(hit?.score).toBeGreaterThan(0.99);
    expect(hit?.score).toBeLessThanOrEqual(1);
  });

  it('ranks a document with more occurrences of the query term higher', () => {
    const index = new FullTextIndex(documents);
    expect(index.searchSync('apple').map((hit) => hit.id)).toEqual(['d2', 'd1']);
  });

  it('reports which analysed query terms each hit matched', () => {
    const index = new FullTextIndex(documents);
    const hits = index.searchSync('Apples and bananas');
    expect(hits.map((hit) => [hit.id, hit.matchedTerms])).toEqual([
      ['d1', ['appl', 'banana']],
      ['d2', ['appl']],
    ]);
  });

  it('exposes document frequency, idf and document count for coverage signals', () => {
    const index = new FullTextIndex(documents);
    expect(index.documentCount).toBe(3);
    expect(index.documentFrequency('appl')).toBe(2);
    expect(index.documentFrequency('kiwi')).toBe(0);
    expect(index.idf('appl')).toBeCloseTo(idf(3, 2), 12);
    expect(index.queryTerms('apple apple kiwi')).toEqual([
      { term: 'appl', count: 2, documentFrequency: 2, idf: idf(3, 2) },
      { term: 'kiwi', count: 1, documentFrequency: 0, idf: idf(3, 0) },
    ]);
    expect(index.analyze('The apples')).toEqual(['appl']);
  });

  it('returns nothing for a query made only of stop words', () => {
    const index = new FullTextIndex(documents);
    expect(index.searchSync('what is the')).toEqual([]);
  });

  it('returns the documents themselves, metadata included', () => {
    const index = new FullTextIndex(documents);
    expect(index.searchSync('durian')[0]?.document).toBe(documents[2]);
    expect(index.getDocument('d3')).toBe(documents[2]);
    expect(index.getDocument('nope')).toBeUndefined();
  });

  it('honours the limit', () => {
    const index = new FullTextIndex(documents);
    expect(index.searchSync('apple', { limit: 1 }).map((hit) => hit.id)).toEqual(['d2']);
    expect(index.searchSync('apple', { limit: 0 })).toEqual([]);
    expect(index.searchSync('apple', { limit: Number.POSITIVE_INFINITY })).toHaveLength(2);
  });

  it('answers the same asynchronously', async () => {
    const index = new FullTextIndex(documents);
    expect(await index.search('apple banana')).toEqual(index.searchSync('apple banana'));
  });

  it('weights fields as BM25F: a term in a light field counts less', () => {
    const index = new FullTextIndex(
      [
        { id: 'body', text: 'garden tomato', metadata: { notes: 'weather' } },
        { id: 'notes', text: 'garden weather', metadata: { notes: 'tomato' } },
      ],
      {
        fields: [
          { name: 'text', text: (document) => document.text },
          { name: 'notes', weight: 0.1, text: (document) => String(document.metadata?.notes) },
        ],
      },
    );
    const hits = index.searchSync('tomato');
    expect(hits.map((hit) => hit.id)).toEqual(['body', 'notes']);
    expect(hits[1]!.score).toBeGreaterThan(0);
    expect(hits[1]!.score).toBeLessThan(hits[0]!.score / 3);
  });

  it('rejects duplicate document ids, naming the id', () => {
    expect(
      () =>
        new FullTextIndex([
          { id: 'a', text: 'x' },
          { id: 'a', text: 'y' },
        ]),
    ).toThrowError(
      expect.objectContaining({ code: 'INVALID_INPUT', message: expect.stringContaining('"a"') }),
    );
  });

  it('rejects parameters outside their range', () => {
    expect(() => new FullTextIndex(documents, { k1: -1 })).toThrowError(SearchCoreError);
    expect(() => new FullTextIndex(documents, { b: 1.5 })).toThrowError(
      /b must be a number from 0 to 1/,
    );
    expect(() => new FullTextIndex(documents).searchSync('apple', { limit: -1 })).toThrowError(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
  });

  it('rejects a query that is not a string', () => {
    const index = new FullTextIndex(documents);
    expect(() => index.searchSync(undefined as unknown as string)).toThrowError(
      expect.objectContaining({
        code: 'INVALID_INPUT',
        message: 'a query must be a string, got undefined',
      }),
    );
  });

  it('handles an empty corpus', () => {
    const index = new FullTextIndex([]);
    expect(index.searchSync('apple')).toEqual([]);
    expect(index.documentCount).toBe(0);
  });
});
