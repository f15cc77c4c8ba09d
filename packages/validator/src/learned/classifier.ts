import { FeatureBuffer, openingWindow } from './features.js';
import type { LearnedLabel, LearnedModel } from './model-file.js';

/** What a model says about one response. */
export interface Classification {
  /** One probability per label of the model, in its order (`none` first). */
  probabilities: Float64Array;
  /** For each label, the sentence of the window that added most to it: [start, end) offsets. */
  evidenceStart: Int32Array;
  evidenceEnd: Int32Array;
}

/**
 * Runs a model over the opening window of responses. One instance keeps its buffers and reuses
 * them: the hot loop adds int8 weights into integers and allocates nothing per n-gram.
 */
export class LearnedClassifier {
  readonly labels: readonly LearnedLabel[];
  private readonly buffer: FeatureBuffer;
  private readonly buckets: number;
  private readonly sums: Int32Array;
  private readonly sentenceSums: Int32Array;
  private readonly best: Int32Array;
  private readonly result: Classification;

  constructor(readonly model: LearnedModel) {
    this.labels = model.labels;
    this.buffer = new FeatureBuffer(model.features);
    this.buckets = 2 ** model.features.bits;
    const count = model.labels.length;
    this.sums = new Int32Array(count);
    this.sentenceSums = new Int32Array(count);
    this.best = new Int32Array(count);
    this.result = {
      probabilities: new Float64Array(count),
      evidenceStart: new Int32Array(count),
      evidenceEnd: new Int32Array(count),
    };
  }

  /**
   * Classifies the opening window of `text`. The returned object is reused by the next call:
   * read it before classifying again.
   */
  classify(text: string): Classification {
    const { from, to } = openingWindow(text, this.model.features.window);
    return this.classifyRange(text, from, to);
  }

  /** Classifies `text[from, to)` as it is (no window is applied); the result is reused as above. */
  classifyRange(text: string, from: number, to: number): Classification {
    const buffer = this.buffer;
    buffer.read(text, from, to);
    const { hashes, sentences, count } = buffer;
    const weights = this.model.weights;
    const labels = this.labels.length;
    const sums = this.sums;
    const sentenceSums = this.sentenceSums;
    const best = this.best;
    const { evidenceStart, evidenceEnd, probabilities } = this.result;
    sums.fill(0);
    sentenceSums.fill(0);
    best.fill(-0x7fffffff);
    evidenceStart.fill(from);
    evidenceEnd.fill(from);
    let sentence = count > 0 ? (sentences[0] as number) : 0;
    const closeSentence = (index: number) => {
      for (let label = 1; label < labels; label += 1) {
        if ((sentenceSums[label] as number) > (best[label] as number)) {
          best[label] = sentenceSums[label] as number;
          evidenceStart[label] = buffer.sentenceStart[index] as number;
          evidenceEnd[label] = buffer.sentenceEnd[index] as number;
        }
        sentenceSums[label] = 0;
      }
    };
    for (let index = 0; index < count; index += 1) {
      const at = sentences[index] as number;
      if (at !== sentence) {
        closeSentence(sentence);
        sentence = at;
      }
      const hash = hashes[index] as number;
      for (let label = 1; label < labels; label += 1) {
        const weight = weights[(label - 1) * this.buckets + hash] as number;
        sums[label] = (sums[label] as number) + weight;
        sentenceSums[label] = (sentenceSums[label] as number) + weight;
      }
    }
    if (count > 0) closeSentence(sentence);
    // a softmax over the labels, none fixed at 0; the features are scaled by 1/sqrt(count)
    const norm = count > 0 ? 1 / Math.sqrt(count) : 0;
    let highest = 0;
    for (let label = 1; label < labels; label += 1) {
      const score =
        (this.model.bias[label] as number) +
        (this.model.scale[label] as number) * (sums[label] as number) * norm;
      probabilities[label] = score;
      if (score > highest) highest = score;
    }
    let total = Math.exp(-highest);
    probabilities[0] = total;
    for (let label = 1; label < labels; label += 1) {
      const value = Math.exp((probabilities[label] as number) - highest);
      probabilities[label] = value;
      total += value;
    }
    for (let label = 0; label < labels; label += 1) {
      probabilities[label] = (probabilities[label] as number) / total;
    }
    return this.result;
  }
}
