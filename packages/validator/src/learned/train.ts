import { ValidatorError, ValidatorErrorCode } from '../errors.js';
import { SIGNAL_TYPES } from '../types.js';
import { LearnedClassifier } from './classifier.js';
import { FeatureBuffer, type FeatureSettings, openingWindow } from './features.js';
import { encodeModel, type LearnedLabel, type LearnedModel } from './model-file.js';

/** One labelled response to learn from. */
export interface TrainingExample {
  text: string;
  /** A signal type (`refusal`, `confusion`, …) or `none` for an answer to trust. */
  label: string;
  /** Rows that share a group (a prompt, a question) stay on one side of the split. */
  group?: string;
  /** How much the row counts (default 1). */
  weight?: number;
}

/** Settings of {@link trainModel}; every one has a default. */
export interface TrainOptions {
  /** Share of groups held out to measure the model, 0 to 0.9 (default 0.2); 0 trains on all. */
  testSplit?: number;
  /** Passes over the training rows (default 5). */
  epochs?: number;
  /** AdaGrad's base step (default 0.2). */
  learningRate?: number;
  /** L2 penalty on the weights a row touches (default 0). */
  l2?: number;
  /** Seed of the shuffling; the same seed and rows give the same bytes (default 1). */
  seed?: number;
  /** Each label's rows weigh the same in total (default true). */
  balance?: boolean;
  /** Probability at or above which a label becomes a signal (default 0.5). */
  threshold?: number;
  /** Rows each label needs at least, in the file and on the training side of the split (default 10). */
  minRowsPerLabel?: number;
  /** How text becomes features; see {@link DEFAULT_FEATURES}. */
  features?: Partial<FeatureSettings>;
  /** Called after each pass over the rows. */
  onEpoch?: (epoch: number, epochs: number) => void;
}

/** Precision, recall and F1 of one label on the test rows. */
export interface LabelReport {
  label: LearnedLabel;
  /** Test rows with this label. */
  support: number;
  /** Test rows predicted as this label. */
  predicted: number;
  precision: number;
  recall: number;
  f1: number;
}

/** What {@link trainModel} gives back. */
export interface TrainResult {
  model: LearnedModel;
  /** The model file: the same rows and options always give the same bytes. */
  bytes: Uint8Array;
  /** Rows trained on and measured on. */
  trainRows: number;
  testRows: number;
  /** One entry per label, on the test rows (empty when testSplit is 0). */
  report: LabelReport[];
}

/** The feature settings `qualm train` uses unless told otherwise. */
export const DEFAULT_FEATURES: Readonly<FeatureSettings> = Object.freeze({
  window: 600,
  bits: 18,
  wordNgrams: 2,
  charMin: 0,
  charMax: 0,
  leadTokens: 8,
});

const LABELS: readonly string[] = ['none', ...SIGNAL_TYPES];

function invalidData(message: string): ValidatorError {
  return new ValidatorError(ValidatorErrorCode.INVALID_TRAINING_DATA, message);
}

function invalidOption(message: string): ValidatorError {
  return new ValidatorError(ValidatorErrorCode.INVALID_OPTIONS, message);
}

/** FNV-1a over the UTF-16 code units of a string. */
function hashString(value: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < value.length; index += 1) {
    hash = Math.imul(hash ^ value.charCodeAt(index), 0x01000193);
  }
  return hash >>> 0;
}

/** A small seeded generator (mulberry32): the only source of randomness in training. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** Whether a row's group goes to the test side: a stable hash of the group against the share. */
export function inTestSplit(group: string, testSplit: number): boolean {
  return splitPosition(group) < testSplit;
}

/** Where a group falls from 0 to 1: the groups below the test split are held out. */
function splitPosition(group: string): number {
  return (hashString(group) % 10_000) / 10_000;
}

function checkNumber(
  name: string,
  value: number | undefined,
  fallback: number,
  low: number,
  high: number,
  integer = false,
): number {
  if (value === undefined) return fallback;
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value < low ||
    value > high ||
    (integer && !Number.isInteger(value))
  ) {
    throw invalidOption(
      `${name} must be ${integer ? 'a whole number' : 'a number'} from ${low} to ${high}, got ${String(value)}`,
    );
  }
  return value;
}

function resolveFeatures(features: Partial<FeatureSettings> | undefined): FeatureSettings {
  const merged = { ...DEFAULT_FEATURES, ...features };
  const settings: FeatureSettings = {
    window: checkNumber('features.window', merged.window, 600, 1, 1_000_000, true),
    bits: checkNumber('features.bits', merged.bits, 18, 4, 24, true),
    wordNgrams: checkNumber('features.wordNgrams', merged.wordNgrams, 2, 1, 3, true),
    charMin: checkNumber('features.charMin', merged.charMin, 0, 0, 8, true),
    charMax: checkNumber('features.charMax', merged.charMax, 0, 0, 8, true),
    leadTokens: checkNumber('features.leadTokens', merged.leadTokens, 8, 0, 10_000, true),
  };
  if (
    (settings.charMin === 0) !== (settings.charMax === 0) ||
    settings.charMin > settings.charMax
  ) {
    throw invalidOption('features.charMin and charMax must both be 0, or 1 ≤ charMin ≤ charMax');
  }
  return settings;
}

/** The hashed features of many rows, one after another (compressed sparse rows). */
interface FeatureRows {
  offsets: Int32Array;
  hashes: Int32Array;
}

function extract(texts: readonly string[], settings: FeatureSettings): FeatureRows {
  const buffer = new FeatureBuffer(settings);
  const offsets = new Int32Array(texts.length + 1);
  let hashes = new Int32Array(Math.max(1024, texts.length * 64));
  let used = 0;
  texts.forEach((text, row) => {
    const { from, to } = openingWindow(text, settings.window);
    buffer.read(text, from, to);
    if (used + buffer.count > hashes.length) {
      const larger = new Int32Array(Math.max(hashes.length * 2, used + buffer.count));
      larger.set(hashes.subarray(0, used));
      hashes = larger;
    }
    hashes.set(buffer.hashes.subarray(0, buffer.count), used);
    used += buffer.count;
    offsets[row + 1] = used;
  });
  return { offsets, hashes: hashes.subarray(0, used) };
}

/**
 * Fits the linear model: softmax over the labels with `none` fixed at 0, AdaGrad steps, rows in a
 * seeded order, one thread. Then the weights are quantized to int8, one scale per label.
 */
function fit(
  rows: FeatureRows,
  targets: Int32Array,
  rowWeights: Float64Array,
  labels: readonly LearnedLabel[],
  settings: FeatureSettings,
  options: {
    epochs: number;
    learningRate: number;
    l2: number;
    seed: number;
    onEpoch?: TrainOptions['onEpoch'];
  },
): { bias: number[]; scale: number[]; weights: Int8Array } {
  const buckets = 2 ** settings.bits;
  const others = labels.length - 1;
  const weights = new Float64Array(others * buckets);
  const squared = new Float64Array(others * buckets);
  const bias = new Float64Array(others);
  const biasSquared = new Float64Array(others);
  const scores = new Float64Array(others);
  const order = new Int32Array(targets.length);
  for (let index = 0; index < order.length; index += 1) order[index] = index;
  const next = random(options.seed);
  const { learningRate, l2 } = options;
  for (let epoch = 0; epoch < options.epochs; epoch += 1) {
    for (let index = order.length - 1; index > 0; index -= 1) {
      const other = Math.floor(next() * (index + 1));
      const kept = order[index] as number;
      order[index] = order[other] as number;
      order[other] = kept;
    }
    for (let position = 0; position < order.length; position += 1) {
      const row = order[position] as number;
      const start = rows.offsets[row] as number;
      const end = rows.offsets[row + 1] as number;
      const norm = end > start ? 1 / Math.sqrt(end - start) : 0;
      let highest = 0;
      for (let label = 0; label < others; label += 1) {
        let sum = 0;
        const base = label * buckets;
        for (let index = start; index < end; index += 1) {
          sum += weights[base + (rows.hashes[index] as number)] as number;
        }
        const score = (bias[label] as number) + sum * norm;
        scores[label] = score;
        if (score > highest) highest = score;
      }
      let total = Math.exp(-highest);
      for (let label = 0; label < others; label += 1) {
        const value = Math.exp((scores[label] as number) - highest);
        scores[label] = value;
        total += value;
      }
      const target = targets[row] as number;
      const rowWeight = rowWeights[row] as number;
      for (let label = 0; label < others; label += 1) {
        const gradient =
          ((scores[label] as number) / total - (target === label + 1 ? 1 : 0)) * rowWeight;
        if (gradient === 0) continue;
        const base = label * buckets;
        const step = gradient * norm;
        for (let index = start; index < end; index += 1) {
          const at = base + (rows.hashes[index] as number);
          const current = weights[at] as number;
          const change = step + l2 * current;
          const sum = (squared[at] as number) + change * change;
          squared[at] = sum;
          weights[at] = current - (learningRate * change) / Math.sqrt(sum + 1e-12);
        }
        const biasSum = (biasSquared[label] as number) + gradient * gradient;
        biasSquared[label] = biasSum;
        bias[label] =
          (bias[label] as number) - (learningRate * gradient) / Math.sqrt(biasSum + 1e-12);
      }
    }
    options.onEpoch?.(epoch + 1, options.epochs);
  }
  const quantized = new Int8Array(others * buckets);
  const scale = [0];
  for (let label = 0; label < others; label += 1) {
    let largest = 0;
    const base = label * buckets;
    for (let index = 0; index < buckets; index += 1) {
      largest = Math.max(largest, Math.abs(weights[base + index] as number));
    }
    const unit = largest > 0 ? largest / 127 : 1;
    for (let index = 0; index < buckets; index += 1) {
      quantized[base + index] = Math.round((weights[base + index] as number) / unit);
    }
    scale.push(unit);
  }
  return { bias: [0, ...bias], scale, weights: quantized };
}

function checkExamples(examples: readonly TrainingExample[], minRows: number): void {
  if (!Array.isArray(examples)) {
    throw invalidData(
      `the training rows must be an array, got ${examples === null ? 'null' : typeof examples}`,
    );
  }
  if (examples.length === 0) throw invalidData('there are no training rows');
  const counts = new Map<string, number>();
  examples.forEach((example, index) => {
    if (typeof example?.text !== 'string') {
      throw invalidData(`row ${index + 1}: the text must be a string, got ${typeof example?.text}`);
    }
    if (typeof example.label !== 'string' || !LABELS.includes(example.label)) {
      throw invalidData(
        `row ${index + 1}: unknown label ${JSON.stringify(example.label)}; labels are ${LABELS.join(', ')}`,
      );
    }
    if (
      example.weight !== undefined &&
      !(
        typeof example.weight === 'number' &&
        example.weight >= 0 &&
        Number.isFinite(example.weight)
      )
    ) {
      throw invalidData(
        `row ${index + 1}: the weight must be a number ≥ 0, got ${String(example.weight)}`,
      );
    }
    counts.set(example.label, (counts.get(example.label) ?? 0) + 1);
  });
  if (!counts.has('none')) {
    throw invalidData(
      'no row is labelled "none": a model needs answers to trust as well as problems',
    );
  }
  if (counts.size < 2) {
    throw invalidData(
      `every row is labelled "none": label some rows with a signal type (${SIGNAL_TYPES.join(', ')})`,
    );
  }
  for (const [label, count] of counts) {
    if (count < minRows) {
      throw invalidData(
        `label "${label}" has ${count} row${count === 1 ? '' : 's'}; each label needs at least ${minRows}`,
      );
    }
  }
}

/**
 * Refuses a split that leaves a label fewer than `minRows` rows to train on, naming the label, its
 * rows on each side, and the largest test split (to two decimals) that keeps enough of every label.
 */
function checkTrainingSide(
  examples: readonly TrainingExample[],
  split: {
    labels: readonly LearnedLabel[];
    trainCounts: Partial<Record<LearnedLabel, number>>;
    minRows: number;
    testSplit: number;
  },
): void {
  const { labels, trainCounts, minRows, testSplit } = split;
  const short = labels.find((label) => (trainCounts[label] ?? 0) < minRows);
  if (short === undefined) return;
  // a row trains when its group's position is at or above the split: the minRows-th highest
  // position of each label is the largest split that keeps minRows of its rows to train on
  let largest = 1;
  for (const label of labels) {
    const positions = examples
      .filter((example) => example.label === label)
      .map((example) => splitPosition(example.group ?? example.text))
      .sort((first, second) => second - first);
    largest = Math.min(largest, positions[minRows - 1] ?? 0);
  }
  const suggested = Math.floor(largest * 100) / 100;
  const grouped = examples.some((example) => example.group !== undefined);
  const trained = trainCounts[short] ?? 0;
  const total = examples.filter((example) => example.label === short).length;
  const change =
    suggested > 0
      ? `a test split of at most ${suggested} keeps enough, or give more ${grouped ? 'groups' : 'rows'}`
      : `give more ${grouped ? 'groups' : 'rows'}, or a test split of 0 to train on every row`;
  throw invalidData(
    `label "${short}" has ${trained} row${trained === 1 ? '' : 's'} to train on and ${total - trained} held out by the test split of ${testSplit}; each label needs at least ${minRows} to train on: ${change}`,
  );
}

/** Precision, recall and F1 per label of a model over labelled rows. */
export function evaluateModel(
  model: LearnedModel,
  examples: readonly { text: string; label: string }[],
): LabelReport[] {
  const classifier = new LearnedClassifier(model);
  const count = model.labels.length;
  const support = new Array<number>(count).fill(0);
  const predicted = new Array<number>(count).fill(0);
  const correct = new Array<number>(count).fill(0);
  for (const example of examples) {
    const { probabilities } = classifier.classify(example.text);
    let choice = 0;
    let highest = -1;
    for (let label = 1; label < count; label += 1) {
      const probability = probabilities[label] as number;
      if (probability >= model.threshold && probability > highest) {
        highest = probability;
        choice = label;
      }
    }
    const actual = model.labels.indexOf(example.label as LearnedLabel);
    if (actual !== -1) support[actual] = (support[actual] as number) + 1;
    predicted[choice] = (predicted[choice] as number) + 1;
    if (actual === choice) correct[choice] = (correct[choice] as number) + 1;
  }
  return model.labels.map((label, index) => {
    const precision = (correct[index] as number) / ((predicted[index] as number) || 1);
    const recall = (correct[index] as number) / ((support[index] as number) || 1);
    return {
      label,
      support: support[index] as number,
      predicted: predicted[index] as number,
      precision,
      recall,
      f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall),
    };
  });
}

/**
 * Trains a learned model on labelled responses: splits the rows by group (or by text) into
 * training and test sides, fits the model on the training side, and reports precision, recall
 * and F1 per label on the test side. Deterministic: the same rows and options give the same bytes.
 */
export function trainModel(
  examples: readonly TrainingExample[],
  options: TrainOptions = {},
): TrainResult {
  if (typeof options !== 'object' || options === null)
    throw invalidOption('options must be an object');
  const minRows = checkNumber('minRowsPerLabel', options.minRowsPerLabel, 10, 1, 1_000_000, true);
  checkExamples(examples, minRows);
  const testSplit = checkNumber('testSplit', options.testSplit, 0.2, 0, 0.9);
  const epochs = checkNumber('epochs', options.epochs, 5, 1, 1000, true);
  const learningRate = checkNumber('learningRate', options.learningRate, 0.2, 1e-6, 100);
  const l2 = checkNumber('l2', options.l2, 0, 0, 1);
  const seed = checkNumber('seed', options.seed, 1, 0, 2 ** 32 - 1, true);
  const threshold = checkNumber('threshold', options.threshold, 0.5, 0.01, 1);
  const balance = options.balance ?? true;
  const features = resolveFeatures(options.features);

  const train: TrainingExample[] = [];
  const test: TrainingExample[] = [];
  for (const example of examples) {
    (testSplit > 0 && inTestSplit(example.group ?? example.text, testSplit) ? test : train).push(
      example,
    );
  }
  // labels in a fixed order: none first, then signal types in their documented order
  const present = new Set(examples.map((example) => example.label));
  const labels = LABELS.filter((label) => present.has(label)) as LearnedLabel[];
  const trainCounts: Partial<Record<LearnedLabel, number>> = {};
  for (const example of train) {
    const label = example.label as LearnedLabel;
    trainCounts[label] = (trainCounts[label] ?? 0) + 1;
  }
  checkTrainingSide(examples, { labels, trainCounts, minRows, testSplit });
  const targets = new Int32Array(train.length);
  const rowWeights = new Float64Array(train.length);
  train.forEach((example, index) => {
    const label = labels.indexOf(example.label as LearnedLabel);
    targets[index] = label;
    const share = balance
      ? train.length / (labels.length * (trainCounts[example.label as LearnedLabel] ?? 1))
      : 1;
    rowWeights[index] = share * (example.weight ?? 1);
  });
  const rows = extract(
    train.map((example) => example.text),
    features,
  );
  const fitted = fit(rows, targets, rowWeights, labels, features, {
    epochs,
    learningRate,
    l2,
    seed,
    onEpoch: options.onEpoch,
  });
  const model: LearnedModel = {
    labels,
    features,
    threshold,
    bias: fitted.bias,
    scale: fitted.scale,
    weights: fitted.weights,
    training: { epochs, learningRate, l2, seed, balance, rows: trainCounts },
  };
  return {
    model,
    bytes: encodeModel(model),
    trainRows: train.length,
    testRows: test.length,
    report: test.length > 0 ? evaluateModel(model, test) : [],
  };
}
