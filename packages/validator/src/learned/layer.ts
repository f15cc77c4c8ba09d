import { ValidatorError, ValidatorErrorCode } from '../errors.js';
import { CONTEXT_LENGTH, isWhitespaceCode } from '../scan.js';
import { assess } from '../score.js';
import type { StreamingValidator } from '../streaming.js';
import { DEFAULT_WEIGHTS, type ResponseQuality, type Signal, type SignalType } from '../types.js';
import { speaksInVoices, VoiceTracker } from '../voices.js';
import { LearnedClassifier } from './classifier.js';
import { type ModelInput, resolveModel, shippedModel } from './load.js';
import type { LearnedModel } from './model-file.js';

/** How a validator uses a learned model. */
export interface LearnedOptions {
  /** The model file as bytes, its path, or a model already read; the shipped model when absent. */
  model?: ModelInput;
  /** Probability at or above which a label becomes a signal; the model's own when absent. */
  threshold?: number;
}

/** `true` for the shipped model, or the options of a model of one's own. */
export type LearnedOption = boolean | LearnedOptions;

/**
 * How far into a response voices are looked for, in characters from its first non-blank one.
 * Role-play answers put their second speaker within a few hundred characters.
 */
export const VOICE_REACH = 4000;
const MAX_EVIDENCE_LENGTH = 200;

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Checks the `learned` option; nothing is read until the first response. */
export function checkLearnedOption(value: unknown): LearnedOptions | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ValidatorError(
      ValidatorErrorCode.INVALID_OPTIONS,
      `learned must be true, false or { model, threshold }, got ${Array.isArray(value) ? 'an array' : typeof value}`,
    );
  }
  for (const key of Object.keys(value)) {
    if (key !== 'model' && key !== 'threshold') {
      throw new ValidatorError(
        ValidatorErrorCode.INVALID_OPTIONS,
        `unknown learned option "${key}"; expected model or threshold`,
      );
    }
  }
  const { threshold } = value as LearnedOptions;
  if (
    threshold !== undefined &&
    (typeof threshold !== 'number' || !(threshold > 0 && threshold <= 1))
  ) {
    throw new ValidatorError(
      ValidatorErrorCode.INVALID_OPTIONS,
      `learned.threshold must be a probability above 0 and at most 1, got ${String(threshold)}`,
    );
  }
  return value as LearnedOptions;
}

/**
 * The learned layer of one validator: the model is read at the first response and kept. It reads
 * the opening of a response (the model's window from the first non-blank character, and up to
 * {@link VOICE_REACH} characters for voices) and adds a signal for each label whose probability
 * reaches the threshold, unless the patterns already found a signal of that type.
 */
export class LearnedLayer {
  private classifier: LearnedClassifier | undefined;
  private threshold = 1;

  constructor(private readonly options: LearnedOptions) {}

  /** Reads the model now rather than at the first response (errors surface here). */
  load(): LearnedModel {
    if (!this.classifier) {
      const model =
        this.options.model === undefined ? shippedModel() : resolveModel(this.options.model);
      this.classifier = new LearnedClassifier(model);
      this.threshold = this.options.threshold ?? model.threshold;
    }
    return this.classifier.model;
  }

  /** Characters of the opening the layer needs to see, from the first non-blank one. */
  get reach(): number {
    return Math.max(this.load().features.window, VOICE_REACH);
  }

  /**
   * The learned signals of a response whose opening is `region` (at most {@link reach}
   * characters, starting at the response's first non-blank character, `offset` in the response).
   */
  signals(region: string, offset: number, found: readonly Signal[]): Signal[] {
    this.load();
    const classifier = this.classifier as LearnedClassifier;
    const labels = classifier.labels;
    const present = new Set<string>();
    for (const signal of found) present.add(signal.type);
    // where the patterns already found every type the model knows, it cannot add anything
    let open = false;
    for (let label = 1; label < labels.length; label += 1) {
      if (!present.has(labels[label] as string)) open = true;
    }
    if (!open || region.length === 0) return [];
    const window = classifier.model.features.window;
    const to = Math.min(region.length, window);
    const result = classifier.classifyRange(region, 0, to);
    const chosen: { label: number; probability: number; start: number; end: number }[] = [];
    for (let label = 1; label < labels.length; label += 1) {
      const probability = result.probabilities[label] as number;
      if (probability >= this.threshold && !present.has(labels[label] as string)) {
        chosen.push({
          label,
          probability,
          start: result.evidenceStart[label] as number,
          end: result.evidenceEnd[label] as number,
        });
      }
    }
    if (chosen.length === 0) return [];
    const kept = this.everyVoiceAgrees(region, chosen);
    return kept.map((entry) => {
      const type = labels[entry.label] as SignalType;
      let evidence = oneLine(region.slice(entry.start, entry.end));
      if (evidence.length > MAX_EVIDENCE_LENGTH) {
        evidence = `${evidence.slice(0, MAX_EVIDENCE_LENGTH)}…`;
      }
      const from = Math.max(0, entry.start - CONTEXT_LENGTH);
      const until = Math.min(region.length, entry.end + CONTEXT_LENGTH);
      return {
        type,
        evidence,
        weight: DEFAULT_WEIGHTS[type],
        position: offset + entry.start,
        context: `${from > 0 ? '…' : ''}${oneLine(region.slice(from, until))}${until < region.length ? '…' : ''}`,
        source: 'learned',
        probability: Math.round(entry.probability * 10_000) / 10_000,
      };
    });
  }

  /**
   * Answers written in voices ("[A]: … [B]: …") say what the whole says only when every voice
   * says it, as the patterns read refusals: each voice's opening is classified on its own.
   */
  private everyVoiceAgrees<T extends { label: number }>(region: string, chosen: T[]): T[] {
    const starts = this.voiceStarts(region);
    if (starts === undefined) return chosen;
    return chosen.filter(
      (entry) => this.lowestOverVoices(region, starts, entry.label) >= this.threshold,
    );
  }

  /** Where the voices of an opening start, or undefined when it is not written in voices. */
  private voiceStarts(region: string): number[] | undefined {
    const window = (this.classifier as LearnedClassifier).model.features.window;
    const voices = new VoiceTracker();
    voices.scan(region, 0, region.length, true);
    return speaksInVoices(voices, 0, window) ? voices.starts : undefined;
  }

  private lowestOverVoices(region: string, starts: readonly number[], label: number): number {
    const classifier = this.classifier as LearnedClassifier;
    const window = classifier.model.features.window;
    let lowest = 1;
    for (let index = 0; index < starts.length; index += 1) {
      const start = starts[index] as number;
      const end = Math.min(starts[index + 1] ?? region.length, start + window);
      lowest = Math.min(
        lowest,
        classifier.classifyRange(region, start, end).probabilities[label] as number,
      );
    }
    return lowest;
  }

  /**
   * The probability of each label (in the model's order) as the layer weighs it, whatever the
   * threshold: the opening's, or in an answer written in voices the lowest of the opening's and
   * each voice's. A label is a signal when this reaches the threshold. For calibration.
   */
  probabilities(region: string): number[] {
    const model = this.load();
    const classifier = this.classifier as LearnedClassifier;
    const whole = Array.from(
      classifier.classifyRange(region, 0, Math.min(region.length, model.features.window))
        .probabilities,
    );
    if (region.length === 0) return whole.map((_, label) => (label === 0 ? 1 : 0));
    const starts = this.voiceStarts(region);
    if (starts === undefined) return whole;
    return whole.map((probability, label) =>
      label === 0
        ? probability
        : Math.min(probability, this.lowestOverVoices(region, starts, label)),
    );
  }
}

/** Where the opening region of a text starts, and the region itself. */
export function openingRegion(text: string, reach: number): { offset: number; region: string } {
  let offset = 0;
  while (offset < text.length && isWhitespaceCode(text.charCodeAt(offset))) offset += 1;
  let end = Math.min(text.length, offset + reach);
  const last = text.charCodeAt(end - 1);
  // never end between the two halves of a surrogate pair
  if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
  return { offset, region: text.slice(offset, end) };
}

/** Adds learned signals to the patterns' assessment; without any, the assessment is unchanged. */
export function combine(
  quality: ResponseQuality,
  learned: readonly Signal[],
  strictMode: boolean,
): ResponseQuality {
  if (learned.length === 0) return quality;
  const signals = [...quality.signals, ...learned].sort(
    (left, right) =>
      left.position - right.position ||
      (left.source === right.source ? 0 : left.source === 'pattern' ? -1 : 1),
  );
  return assess(signals, strictMode);
}

/** Assesses a whole text with patterns, then with the learned layer. */
export function validateWithLearned(
  layer: LearnedLayer,
  text: string,
  patterns: (text: string) => ResponseQuality,
  strictMode: boolean,
): ResponseQuality {
  const quality = patterns(text);
  const { offset, region } = openingRegion(text, layer.reach);
  return combine(quality, layer.signals(region, offset, quality.signals), strictMode);
}

/**
 * A stream that feeds the patterns' stream and keeps the opening region for the learned layer:
 * at most {@link LearnedLayer.reach} characters are held, and `end()` gives what validating the
 * whole text gives.
 */
export function streamWithLearned(
  layer: LearnedLayer,
  patterns: StreamingValidator,
  strictMode: boolean,
): StreamingValidator {
  const reach = layer.reach;
  const decoder = new TextDecoder('utf-8');
  let blank = 0;
  let region = '';
  let started = false;
  let full = false;
  let decoding = false;

  const take = (text: string) => {
    if (full || text.length === 0) return;
    let index = 0;
    if (!started) {
      while (index < text.length && isWhitespaceCode(text.charCodeAt(index))) index += 1;
      blank += index;
      if (index === text.length) return;
      started = true;
    }
    // one code unit beyond the reach tells whether the last one ends a surrogate pair
    region += text.slice(index, index + reach + 1 - region.length);
    if (region.length > reach) full = true;
  };

  return {
    push(chunk) {
      patterns.push(chunk);
      if (full) return;
      if (typeof chunk === 'string') {
        take(chunk);
      } else {
        decoding = true;
        take(decoder.decode(chunk, { stream: true }));
      }
    },
    end() {
      const quality = patterns.end();
      if (decoding) take(decoder.decode());
      const { region: opening } = openingRegion(region, reach);
      return combine(quality, layer.signals(opening, blank, quality.signals), strictMode);
    },
    get length() {
      return patterns.length;
    },
  };
}
