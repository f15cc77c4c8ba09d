import { ValidatorError, ValidatorErrorCode } from '../errors.js';
import { SIGNAL_TYPES, type SignalType } from '../types.js';
import type { FeatureSettings } from './features.js';

/** What a learned model can say about a response: a signal type, or `none` for an answer to trust. */
export type LearnedLabel = SignalType | 'none';

/** How a model was trained, kept in its file so that anyone can see and repeat it. */
export interface TrainingSettings {
  epochs: number;
  learningRate: number;
  l2: number;
  seed: number;
  /** Each label's rows weigh the same in total, whatever their number. */
  balance: boolean;
  /** Rows per label the model was trained on. */
  rows: Partial<Record<LearnedLabel, number>>;
}

/**
 * A trained classifier: a linear model over hashed n-grams of a response's opening. Label 0 is
 * `none`, whose score is fixed at 0; each other label has one int8 weight per bucket.
 */
export interface LearnedModel {
  labels: readonly LearnedLabel[];
  features: FeatureSettings;
  /** Probability at or above which a label becomes a signal. */
  threshold: number;
  /** One bias per label; the first (none) is 0. */
  bias: readonly number[];
  /** One scale per label: a weight is its int8 value times this. */
  scale: readonly number[];
  /** (labels − 1) × 2^bits int8 weights, label by label. */
  weights: Int8Array;
  training: TrainingSettings;
}

const MAGIC = [0x71, 0x6c, 0x6d, 0x31]; // "qlm1"
const FORMAT_VERSION = 1;
const HEADER_OFFSET = 12;

/** FNV-1a over bytes, 32 bits: the model file's checksum. */
function checksum(bytes: Uint8Array, end: number): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < end; index += 1) {
    hash = Math.imul(hash ^ (bytes[index] as number), 0x01000193);
  }
  return hash >>> 0;
}

function invalidModel(where: string, message: string): ValidatorError {
  return new ValidatorError(ValidatorErrorCode.INVALID_MODEL, `${where}: ${message}`);
}

/**
 * Writes a model as bytes: "qlm1", the format version, the header length, a JSON header (labels,
 * settings, biases, scales), the int8 weights, and an FNV-1a checksum of everything before it.
 * The same model always gives the same bytes.
 */
export function encodeModel(model: LearnedModel): Uint8Array {
  const header = new TextEncoder().encode(
    JSON.stringify({
      labels: model.labels,
      features: {
        window: model.features.window,
        bits: model.features.bits,
        wordNgrams: model.features.wordNgrams,
        charMin: model.features.charMin,
        charMax: model.features.charMax,
        leadTokens: model.features.leadTokens,
      },
      threshold: model.threshold,
      bias: model.bias,
      scale: model.scale,
      training: model.training,
    }),
  );
  const weightsOffset = HEADER_OFFSET + header.length + ((4 - (header.length % 4)) % 4);
  const total = weightsOffset + model.weights.length + 4;
  const bytes = new Uint8Array(total);
  const view = new DataView(bytes.buffer);
  bytes.set(MAGIC, 0);
  view.setUint32(4, FORMAT_VERSION, true);
  view.setUint32(8, header.length, true);
  bytes.set(header, HEADER_OFFSET);
  bytes.set(
    new Uint8Array(model.weights.buffer, model.weights.byteOffset, model.weights.length),
    weightsOffset,
  );
  view.setUint32(total - 4, checksum(bytes, total - 4), true);
  return bytes;
}

const isCount = (value: unknown, low: number, high: number) =>
  typeof value === 'number' && Number.isInteger(value) && value >= low && value <= high;

/**
 * Reads a model written by {@link encodeModel}. A file that is not a model, is truncated or
 * altered, or was written by a newer format is a `ValidatorError` with code `INVALID_MODEL`
 * naming `where` (a path, or "model bytes").
 */
export function decodeModel(input: Uint8Array, where = 'model bytes'): LearnedModel {
  if (input.length === 0) throw invalidModel(where, 'the model file is empty');
  if (MAGIC.some((byte, index) => input[index] !== byte)) {
    throw invalidModel(where, 'not a qualm learned model (it does not start with "qlm1")');
  }
  if (input.length < HEADER_OFFSET + 4) {
    throw invalidModel(where, `the model is truncated (${input.length} bytes, no header)`);
  }
  const view = new DataView(input.buffer, input.byteOffset, input.byteLength);
  const version = view.getUint32(4, true);
  if (version !== FORMAT_VERSION) {
    throw invalidModel(
      where,
      `model format ${version}; this version of @qualm/validator reads format ${FORMAT_VERSION}`,
    );
  }
  if (view.getUint32(input.length - 4, true) !== checksum(input, input.length - 4)) {
    throw invalidModel(
      where,
      'the model file is corrupt (checksum mismatch): truncated or altered',
    );
  }
  const headerLength = view.getUint32(8, true);
  if (HEADER_OFFSET + headerLength > input.length - 4) {
    throw invalidModel(where, 'the model file is corrupt (header longer than the file)');
  }
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(
      new TextDecoder('utf-8', { fatal: true }).decode(
        input.subarray(HEADER_OFFSET, HEADER_OFFSET + headerLength),
      ),
    ) as Record<string, unknown>;
  } catch (error) {
    throw invalidModel(where, `the model header is not JSON (${(error as Error).message})`);
  }
  const labels = header.labels;
  const features = header.features as Record<string, unknown> | undefined;
  const bias = header.bias;
  const scale = header.scale;
  const problem = (() => {
    if (!Array.isArray(labels) || labels.length < 2 || labels[0] !== 'none') {
      return 'labels must list "none" first and at least one signal type';
    }
    const unknown = labels.slice(1).find((label) => !SIGNAL_TYPES.includes(label as SignalType));
    if (unknown !== undefined) return `unknown label ${JSON.stringify(unknown)}`;
    if (new Set(labels).size !== labels.length) return 'a label is listed twice';
    if (typeof features !== 'object' || features === null) return 'no feature settings';
    if (!isCount(features.window, 1, 1_000_000))
      return 'window must be a whole number of characters';
    if (!isCount(features.bits, 4, 24)) return 'bits must be from 4 to 24';
    if (!isCount(features.wordNgrams, 1, 3)) return 'wordNgrams must be 1, 2 or 3';
    if (!isCount(features.charMin, 0, 8) || !isCount(features.charMax, 0, 8)) {
      return 'charMin and charMax must be from 0 to 8';
    }
    if (!isCount(features.leadTokens, 0, 10_000)) return 'leadTokens must be a whole number';
    if (typeof header.threshold !== 'number' || !(header.threshold > 0 && header.threshold <= 1)) {
      return 'threshold must be a probability above 0';
    }
    for (const [name, list] of [
      ['bias', bias],
      ['scale', scale],
    ] as const) {
      if (
        !Array.isArray(list) ||
        list.length !== labels.length ||
        list.some((value) => typeof value !== 'number' || !Number.isFinite(value))
      ) {
        return `${name} must hold one number per label`;
      }
    }
    return undefined;
  })();
  if (problem !== undefined) throw invalidModel(where, `the model header is invalid: ${problem}`);
  const settings = features as unknown as FeatureSettings;
  const weightsOffset = HEADER_OFFSET + headerLength + ((4 - (headerLength % 4)) % 4);
  const expected = ((labels as unknown[]).length - 1) * 2 ** settings.bits;
  if (input.length - 4 - weightsOffset !== expected) {
    throw invalidModel(
      where,
      `the model file is corrupt: ${input.length - 4 - weightsOffset} weight bytes where its header needs ${expected}`,
    );
  }
  return {
    labels: labels as LearnedLabel[],
    features: settings,
    threshold: header.threshold as number,
    bias: bias as number[],
    scale: scale as number[],
    weights: new Int8Array(input.buffer, input.byteOffset + weightsOffset, expected),
    training: header.training as TrainingSettings,
  };
}
