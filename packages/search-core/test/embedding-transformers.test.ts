import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeTinyFeatureExtractor } from '@qualm/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadEmbedder,
  SearchCoreError,
  splitIntoWindows,
  type TransformersEmbedder,
} from '../src/index.js';
import type { Embedder } from '../src/retrieval/types.js';

const MODEL_ID = 'qualm-test/tiny-embedder';
const HIDDEN_SIZE = 24;
const MAX_LENGTH = 32;

let root: string;
let embedder: TransformersEmbedder;

const texts = [
  'Anna moved to Paris in 2019.',
  'The cat is red.',
  'Bob sold his old car before the meeting on Monday morning.',
  'Yes.',
];

const norm = (vector: Float32Array) =>
  Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));

function expectVectorsClose(actual: Float32Array[], expected: Float32Array[]) {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((vector, row) => {
    vector.forEach((value, column) => {
      expect(value).toBeCloseTo(expected[row]![column]!, 5);
    });
  });
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'qualm-embedder-'));
  await writeTinyFeatureExtractor(root, { hiddenSize: HIDDEN_SIZE, maxLength: MAX_LENGTH });
  embedder = await loadEmbedder({ modelId: MODEL_ID, modelsDir: root });
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('TransformersEmbedder on a generated BERT-shaped feature extractor', () => {
  it('returns one unit-length vector of the hidden size per text', async () => {
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(texts.length);
    for (const vector of vectors) {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(vector).toHaveLength(HIDDEN_SIZE);
      expect(norm(vector)).toBeCloseTo(1, 5);
    }
    expect(embedder.dimension).toBe(HIDDEN_SIZE);
  });

  it('implements the Embedder the dense retriever uses', async () => {
    const asEmbedder: Embedder = embedder;
    expect(await asEmbedder.embed([])).toEqual([]);
  });

  it('gives the same vectors in a padded batch as one text at a time', async () => {
    const single: Float32Array[] = [];
    for (const text of texts) single.push(...(await embedder.embed([text])));
    expectVectorsClose(await embedder.embed(texts), single);
  });

  it('gives the same vectors for every batch size', async () => {
    const byOne = await loadEmbedder({ modelId: MODEL_ID, modelsDir: root, batchSize: 1 });
    expectVectorsClose(await byOne.embed(texts), await embedder.embed(texts));
  });

  it('is deterministic and tells different texts apart', async () => {
    const first = await embedder.embed(texts);
    expect(await embedder.embed(texts)).toEqual(first);
    const keys = new Set(
      first.map((vector) => Array.from(vector.slice(0, 4), (value) => value.toFixed(5)).join()),
    );
    expect(keys.size).toBe(texts.length);
  });

  it('embeds a text longer than its window as the mean of overlapping windows', async () => {
    const long = Array.from(
      { length: 30 },
      (_, index) => `On day ${index} the teacher bought a book.`,
    ).join(' ');
    const budget = embedder.maxTokens - 2;
    expect(embedder.countTokens(long)).toBeGreaterThan(budget * 3);
    const windows = splitIntoWindows(long, {
      maxTokens: budget,
      overlapTokens: Math.floor(budget / 4),
      countTokens: (text) => embedder.countTokens(text),
    });
    const parts = await embedder.embed(windows.map((window) => window.text));
    const mean = new Float32Array(HIDDEN_SIZE);
    for (const part of parts) {
      part.forEach((value, index) => {
        mean[index] = mean[index]! + value;
      });
    }
    const length = norm(mean);
    const [whole] = await embedder.embed([long]);
    expectVectorsClose([whole!], [mean.map((value) => value / length)]);

    const truncating = await loadEmbedder({
      modelId: MODEL_ID,
      modelsDir: root,
      longTexts: 'truncate',
    });
    const [truncated] = await truncating.embed([long]);
    expectVectorsClose([truncated!], [parts[0]!]);
    expect(Math.abs(truncated![0]! - whole![0]!)).toBeGreaterThan(1e-6);
  });

  it('reports a missing model with where it looked', async () => {
    const empty = await mkdtemp(path.join(tmpdir(), 'qualm-empty-'));
    try {
      const error = await loadEmbedder({ modelsDir: empty }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SearchCoreError);
      expect((error as SearchCoreError).code).toBe('MODEL_NOT_FOUND');
      expect((error as SearchCoreError).message).toContain(
        path.join(empty, 'Xenova', 'all-MiniLM-L6-v2', 'config.json'),
      );
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it('rejects an unknown long-text mode', async () => {
    await expect(
      loadEmbedder({ modelsDir: root, longTexts: 'drop' as unknown as 'truncate' }),
    ).rejects.toMatchObject({
      code: 'INVALID_CONFIG',
      message: expect.stringContaining('longTexts'),
    });
  });
});
