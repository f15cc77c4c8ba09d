import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { env, pipeline } from '@huggingface/transformers';
import { unusedPort, writeTinyClassifier } from '@qualm/testkit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  checkGrounding,
  loadNliModel,
  type NliPair,
  type NliScores,
  SearchCoreError,
  type TransformersNliModel,
} from '../src/index.js';

const MODEL_ID = 'qualm-test/tiny-nli';
const MAX_LENGTH = 48;

let root: string;
let model: TransformersNliModel;

const pairs: NliPair[] = [
  { premise: 'Anna moved to Paris in 2019.', hypothesis: 'Anna lives in Paris.' },
  { premise: 'The cat is red.', hypothesis: 'The dog is blue.' },
  { premise: 'Bob sold his old car before the meeting on Monday.', hypothesis: 'Bob has a car.' },
  { premise: 'Yes.', hypothesis: 'No.' },
  { premise: 'The capital of France is Paris.', hypothesis: 'Paris is the capital of France.' },
];

function expectClose(actual: NliScores[], expected: NliScores[], digits = 5) {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((scores, index) => {
    for (const label of ['entailment', 'neutral', 'contradiction'] as const) {
      expect(scores[label]).toBeCloseTo(expected[index]![label], digits);
    }
  });
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'qualm-nli-'));
  await writeTinyClassifier(root, { maxLength: MAX_LENGTH, precisions: ['fp32', 'q8'] });
  await writeTinyClassifier(root, {
    modelId: 'qualm-test/sentiment',
    labels: ['negative', 'positive', 'neutral'],
  });
  model = await loadNliModel({ modelId: MODEL_ID, modelsDir: root });
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('TransformersNliModel on a generated BERT-shaped classifier', () => {
  it('reads its window and special tokens from the tokenizer', () => {
    expect(model.maxTokens).toBe(MAX_LENGTH);
    // [CLS] premise [SEP] hypothesis [SEP]
    expect(model.pairSpecialTokens).toBe(3);
    expect(model.countTokens('the cat is red')).toBe(4);
  });

  it('returns three label probabilities per pair that sum to 1', async () => {
    const scores = await model.classify(pairs);
    expect(scores).toHaveLength(pairs.length);
    for (const score of scores) {
      expect(Object.keys(score).sort()).toEqual(['contradiction', 'entailment', 'neutral']);
      for (const value of Object.values(score)) {
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThanOrEqual(1);
      }
      expect(score.entailment + score.neutral + score.contradiction).toBeCloseTo(1, 6);
    }
  });

  it('names each probability by the label config.json gives its position', async () => {
    const config = JSON.parse(await readFile(path.join(root, MODEL_ID, 'config.json'), 'utf8'));
    // the raw pipeline, read independently: logits by position, names from id2label
    const previous = {
      localModelPath: env.localModelPath,
      allowRemoteModels: env.allowRemoteModels,
    };
    env.localModelPath = root;
    env.allowRemoteModels = false;
    const raw = await pipeline('text-classification', MODEL_ID, { dtype: 'fp32' });
    Object.assign(env, previous);
    const pair = pairs[0]!;
    const inputs = raw.tokenizer(pair.premise, { text_pair: pair.hypothesis });
    const { logits } = await raw.model(inputs);
    const values = Array.from(logits.data as Float32Array);
    const exponentials = values.map((value) => Math.exp(value - Math.max(...values)));
    const total = exponentials.reduce((sum, value) => sum + value, 0);
    const expected: Record<string, number> = {};
    exponentials.forEach((value, index) => {
      expected[String(config.id2label[index]).toLowerCase()] = value / total;
    });
    const [scores] = await model.classify([pair]);
    expect(scores?.entailment).toBeCloseTo(expected.entailment!, 6);
    expect(scores?.neutral).toBeCloseTo(expected.neutral!, 6);
    expect(scores?.contradiction).toBeCloseTo(expected.contradiction!, 6);
    await raw.dispose();
  });

  it('gives the same scores in a padded batch as one pair at a time', async () => {
    const batched = await model.classify(pairs);
    const single: NliScores[] = [];
    for (const pair of pairs) single.push(...(await model.classify([pair])));
    expectClose(batched, single);
  });

  it('gives the same scores for every batch size and order', async () => {
    const byTwo = await loadNliModel({ modelId: MODEL_ID, modelsDir: root, batchSize: 2 });
    const reversed = [...pairs].reverse();
    expectClose((await byTwo.classify(reversed)).reverse(), await model.classify(pairs));
  });

  it('reads premise and hypothesis as a pair: swapping them changes the scores', async () => {
    const pair = pairs[2]!;
    const [forward, swapped] = await model.classify([
      pair,
      { premise: pair.hypothesis, hypothesis: pair.premise },
    ]);
    expect(Math.abs(forward!.entailment - swapped!.entailment)).toBeGreaterThan(1e-4);
  });

  it('gives different pairs different scores', async () => {
    const scores = await model.classify(pairs);
    const distinct = new Set(scores.map((score) => score.entailment.toFixed(6)));
    expect(distinct.size).toBe(pairs.length);
  });

  it('is deterministic across calls and across loads', async () => {
    const first = await model.classify(pairs);
    const again = await model.classify(pairs);
    expect(again).toEqual(first);
    const other = await loadNliModel({ modelId: MODEL_ID, modelsDir: root });
    expect(await other.classify(pairs)).toEqual(first);
  });

  it('loads once: concurrent callers with the same options share one session', async () => {
    const options = { modelId: MODEL_ID, modelsDir: root, dtype: 'fp32' as const };
    const [left, right] = await Promise.all([loadNliModel(options), loadNliModel(options)]);
    // the pipeline is private: reach it only to prove the instances share it
    const session = (instance: TransformersNliModel) =>
      (instance as unknown as { classifier: unknown }).classifier;
    expect(session(left)).toBe(session(right));
    expect(session(left)).toBe(session(model));
  });

  it('reads the quantised file for dtype q8: close to fp32 but not the same weights', async () => {
    const quantised = await loadNliModel({ modelId: MODEL_ID, modelsDir: root, dtype: 'q8' });
    const fp32 = await model.classify(pairs);
    const q8 = await quantised.classify(pairs);
    expectClose(q8, fp32, 1);
    expect(q8).not.toEqual(fp32);
  });

  it('takes the models folder from QUALM_MODELS_DIR when none is given', async () => {
    const previous = process.env.QUALM_MODELS_DIR;
    process.env.QUALM_MODELS_DIR = root;
    try {
      const fromEnvironment = await loadNliModel({ modelId: MODEL_ID });
      expect(fromEnvironment.resolved.modelsDir).toBe(root);
      expect(fromEnvironment.resolved.allowRemoteModels).toBe(false);
      expect(await fromEnvironment.classify(pairs)).toEqual(await model.classify(pairs));
    } finally {
      if (previous === undefined) delete process.env.QUALM_MODELS_DIR;
      else process.env.QUALM_MODELS_DIR = previous;
    }
  });

  it('classifies with a model whose graph reads no token_type_ids, as DeBERTa-v3 exports', async () => {
    await writeTinyClassifier(root, { modelId: 'qualm-test/no-token-types', tokenTypes: false });
    const untyped = await loadNliModel({ modelId: 'qualm-test/no-token-types', modelsDir: root });
    const scores = await untyped.classify(pairs);
    expect(scores).toHaveLength(pairs.length);
    expect(scores[0]!.entailment + scores[0]!.neutral + scores[0]!.contradiction).toBeCloseTo(1, 6);
  });

  it('refuses a pair longer than its window instead of truncating it', async () => {
    const premise = Array.from({ length: 60 }, () => 'cat').join(' ');
    await expect(model.classify([{ premise, hypothesis: 'a dog' }])).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining(`exceeds the ${MAX_LENGTH}-token window`),
    });
  });

  it('grounds an answer against evidence many windows long, every pair within the window', async () => {
    const evidence = Array.from(
      { length: 40 },
      (_, index) => `On day ${index} the teacher bought a red book at the store.`,
    ).join(' ');
    const result = await checkGrounding(model, {
      evidence,
      answer: 'The teacher bought a book. It was red.',
    });
    expect(result.windows).toBeGreaterThan(10);
    expect(result.pairs).toBe(2 * result.windows);
    expect(result.sentences).toHaveLength(2);
    for (const sentence of result.sentences) {
      const tokens =
        model.countTokens(sentence.window.text) +
        model.countTokens(sentence.text) +
        model.pairSpecialTokens;
      expect(tokens).toBeLessThanOrEqual(MAX_LENGTH);
      expect(evidence.slice(sentence.window.start, sentence.window.end)).toBe(sentence.window.text);
    }
    expect(typeof result.grounded).toBe('boolean');
  });
});

describe('loadNliModel failures', () => {
  it('reports a missing model with where it looked and how to provide it', async () => {
    const empty = await mkdtemp(path.join(tmpdir(), 'qualm-empty-'));
    try {
      const error = await loadNliModel({ modelsDir: empty }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SearchCoreError);
      expect((error as SearchCoreError).code).toBe('MODEL_NOT_FOUND');
      const message = (error as SearchCoreError).message;
      expect(message).toContain(path.join(empty, 'Xenova', 'nli-deberta-v3-xsmall', 'config.json'));
      expect(message).toContain('https://huggingface.co/Xenova/nli-deberta-v3-xsmall');
      expect(message).toContain('allowRemoteModels');
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it('names the missing weight file of the requested dtype', async () => {
    const onlyFp32 = await mkdtemp(path.join(tmpdir(), 'qualm-fp32-'));
    try {
      await writeTinyClassifier(onlyFp32, { precisions: ['fp32'] });
      await expect(
        loadNliModel({ modelId: MODEL_ID, modelsDir: onlyFp32, dtype: 'q8' }),
      ).rejects.toMatchObject({
        code: 'MODEL_NOT_FOUND',
        message: expect.stringContaining('onnx/model_quantized.onnx'),
      });
    } finally {
      await rm(onlyFp32, { recursive: true, force: true });
    }
  });

  it('rejects a classifier whose labels are not entailment, neutral and contradiction', async () => {
    await expect(
      loadNliModel({ modelId: 'qualm-test/sentiment', modelsDir: root }),
    ).rejects.toMatchObject({
      code: 'UNSUPPORTED_MODEL',
      message: expect.stringMatching(/declares \[negative, positive, neutral\].*entailment/),
    });
  });

  it('rejects invalid options with the field that is wrong', async () => {
    await expect(loadNliModel({ modelsDir: root, batchSize: 0 })).rejects.toMatchObject({
      code: 'INVALID_CONFIG',
      message: expect.stringContaining('batchSize'),
    });
    await expect(
      loadNliModel({ modelsDir: root, dtype: 'fp64' as unknown as 'fp32' }),
    ).rejects.toMatchObject({ code: 'INVALID_CONFIG', message: expect.stringContaining('dtype') });
  });
});

describe('remote loading', () => {
  let server: Server;
  let host: string;
  const requests: string[] = [];

  // a hub stand-in on loopback: serves <root>/<model>/<file> at /<model>/resolve/main/<file>
  beforeAll(async () => {
    server = createServer(async (request, response) => {
      requests.push(request.url ?? '');
      const match = /^\/(.+?)\/resolve\/main\/(.+)$/.exec(decodeURIComponent(request.url ?? ''));
      try {
        if (!match) throw new Error('not a model file');
        const body = await readFile(path.join(root, match[1]!, match[2]!));
        response.writeHead(200, { 'content-length': body.length });
        response.end(body);
      } catch {
        response.writeHead(404);
        response.end('not found');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    host = `http://127.0.0.1:${address.port}/`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('downloads a model missing locally when remote loading is allowed, and caches it', async () => {
    const previousHost = env.remoteHost;
    const empty = await mkdtemp(path.join(tmpdir(), 'qualm-remote-'));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    env.remoteHost = host;
    try {
      const remote = await loadNliModel({
        modelId: MODEL_ID,
        modelsDir: empty,
        allowRemoteModels: true,
        cacheDir: path.join(empty, 'cache'),
      });
      expect(requests.some((url) => url.endsWith('/onnx/model.onnx'))).toBe(true);
      expect(await remote.classify(pairs)).toEqual(await model.classify(pairs));
      const cached = await readFile(path.join(empty, 'cache', MODEL_ID, 'config.json'), 'utf8');
      expect(JSON.parse(cached).id2label).toBeDefined();
      await expect(
        loadNliModel({ modelId: 'qualm-test/absent', modelsDir: empty, allowRemoteModels: true }),
      ).rejects.toMatchObject({ code: 'MODEL_NOT_FOUND' });
    } finally {
      env.remoteHost = previousHost;
      warn.mockRestore();
      await rm(empty, { recursive: true, force: true });
    }
  });

  it('reports a hub it cannot reach as a missing model, with how to provide it', async () => {
    const previousHost = env.remoteHost;
    const empty = await mkdtemp(path.join(tmpdir(), 'qualm-offline-'));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    // nothing listens on this port: every download fails as it does on a machine offline
    env.remoteHost = `http://127.0.0.1:${await unusedPort()}/`;
    try {
      const error = await loadNliModel({
        modelId: MODEL_ID,
        modelsDir: empty,
        allowRemoteModels: true,
        cacheDir: path.join(empty, 'cache'),
      }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SearchCoreError);
      expect((error as SearchCoreError).code).toBe('MODEL_NOT_FOUND');
      const message = (error as SearchCoreError).message;
      expect(message).toContain(path.join(empty, 'qualm-test', 'tiny-nli'));
      expect(message).toContain('could not be downloaded (fetch failed');
      expect(message).toContain(`https://huggingface.co/${MODEL_ID}`);
      expect(message).toContain('allowRemoteModels');
    } finally {
      env.remoteHost = previousHost;
      warn.mockRestore();
      await rm(empty, { recursive: true, force: true });
    }
  });
});
