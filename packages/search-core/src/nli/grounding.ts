import { z } from 'zod';
import { SearchCoreError, SearchCoreErrorCode } from '../errors.js';
import { describeIssues, parseOptions } from './load-transformers-pipeline.js';
import { type NliLabel, type NliModel, type NliScores, topLabel } from './nli-model.js';
import { splitSentences, type TextSpan } from './sentences.js';
import { splitIntoWindows, type TextWindow } from './windows.js';

/** Default probability of "neutral" above which an answer sentence counts as unsupported. */
export const DEFAULT_NLI_THRESHOLD = 0.7;

/** What to ground: the evidence (one text or several) and the answer to check against it. */
export interface GroundingInput {
  evidence: string | readonly string[];
  answer: string;
}

/** Options of {@link checkGrounding}. */
export interface GroundingOptions {
  /** A sentence whose best window has a neutral probability above this is not grounded (0.7). */
  nliThreshold?: number;
  /**
   * Tokens consecutive evidence windows share; defaults to a quarter of the window. A fact shorter
   * than this is always seen whole by some window.
   */
  windowOverlap?: number;
}

/** The part of the evidence that best supports an answer sentence. */
export interface EvidenceWindow {
  /** Position of the evidence text in the input (0 when a single string was given). */
  evidenceIndex: number;
  /** Character offsets of the window in that evidence text. */
  start: number;
  end: number;
  text: string;
}

/** The verdict for one sentence (or, for a very long sentence, one part) of the answer. */
export interface SentenceGrounding {
  text: string;
  /** Character offsets in the answer. */
  start: number;
  end: number;
  grounded: boolean;
  /** The most probable label in the best window. */
  label: NliLabel;
  /** Scores of the best window: the one with the highest entailment. */
  scores: NliScores;
  window: EvidenceWindow;
}

/** Whether an answer is supported by its evidence, with the verdict of every sentence. */
export interface GroundingResult {
  /** True when every sentence of the answer is grounded. */
  grounded: boolean;
  /** Label of the deciding sentence (see {@link checkGrounding}). */
  label: NliLabel;
  /** Scores of the deciding sentence's best window. */
  scores: NliScores;
  sentences: SentenceGrounding[];
  /** Number of evidence windows every sentence was judged against. */
  windows: number;
  /** Model calls made: sentences × windows pairs. */
  pairs: number;
}

const inputSchema = z.object({
  evidence: z.union([z.string(), z.array(z.string())]),
  answer: z.string(),
});

const optionsSchema = z.object({
  nliThreshold: z.number().min(0).max(1).optional(),
  windowOverlap: z.number().int().min(0).optional(),
});

function invalid(message: string, cause?: unknown): SearchCoreError {
  return new SearchCoreError(SearchCoreErrorCode.INVALID_INPUT, message, { cause });
}

// a sentence takes at most half the pair, so that the evidence always keeps the other half
function answerParts(answer: string, model: NliModel, usable: number): TextSpan[] {
  const limit = Math.floor(usable / 2);
  return splitSentences(answer).flatMap((sentence) => {
    if (model.countTokens(sentence.text) <= limit) return [sentence];
    return splitIntoWindows(sentence.text, {
      maxTokens: limit,
      overlapTokens: 0,
      countTokens: (text) => model.countTokens(text),
    }).map((part) => ({
      text: part.text,
      start: sentence.start + part.start,
      end: sentence.start + part.end,
    }));
  });
}

function isGrounded(scores: NliScores, threshold: number): boolean {
  return topLabel(scores) !== 'contradiction' && scores.neutral <= threshold;
}

// a contradiction decides first (the strongest), then the most neutral, else the weakest support
function decidingSentence(sentences: SentenceGrounding[]): SentenceGrounding {
  const failed = sentences.filter((sentence) => !sentence.grounded);
  const contradicted = failed.filter((sentence) => sentence.label === 'contradiction');
  const pick = (list: SentenceGrounding[], key: (sentence: SentenceGrounding) => number) =>
    list.reduce((best, sentence) => (key(sentence) > key(best) ? sentence : best));
  if (contradicted.length > 0)
    return pick(contradicted, (sentence) => sentence.scores.contradiction);
  if (failed.length > 0) return pick(failed, (sentence) => sentence.scores.neutral);
  return pick(sentences, (sentence) => -sentence.scores.entailment);
}

/**
 * Checks whether an answer is supported by its evidence with an NLI model (premise = evidence,
 * hypothesis = answer). The answer is split into sentences; evidence longer than the model's window
 * is cut into overlapping windows, so nothing is truncated. Every sentence is judged against every
 * window in one batched call; a sentence's support is its window with the highest entailment, and
 * the sentence is not grounded when that window's most probable label is contradiction or its
 * neutral probability is above `nliThreshold`. The answer is grounded when every sentence is. The
 * reported label and scores are those of the deciding sentence: the most contradicted one, else the
 * most neutral ungrounded one, else the one with the weakest entailment.
 */
export async function checkGrounding(
  model: NliModel,
  input: GroundingInput,
  options: GroundingOptions = {},
): Promise<GroundingResult> {
  const parsedInput = inputSchema.safeParse(input);
  if (!parsedInput.success) {
    throw invalid(
      `invalid grounding input: ${describeIssues(parsedInput.error)}`,
      parsedInput.error,
    );
  }
  const parsedOptions = parseOptions(optionsSchema, options, 'grounding');
  const threshold = parsedOptions.nliThreshold ?? DEFAULT_NLI_THRESHOLD;
  const { evidence: given, answer } = parsedInput.data;
  const evidence = typeof given === 'string' ? [given] : given;
  const usable = model.maxTokens - model.pairSpecialTokens;
  if (usable < 4) {
    throw new SearchCoreError(
      SearchCoreErrorCode.INVALID_CONFIG,
      `the NLI model's window of ${model.maxTokens} tokens leaves no room for a premise and a hypothesis`,
    );
  }

  const parts = answerParts(answer, model, usable);
  if (parts.length === 0) throw invalid('the answer is empty: there is nothing to ground');
  const longestPart = Math.max(...parts.map((part) => model.countTokens(part.text)));
  const windowTokens = usable - longestPart;
  const overlap = Math.min(
    parsedOptions.windowOverlap ?? Math.floor(windowTokens / 4),
    Math.floor(windowTokens / 2),
  );
  const windows: (TextWindow & { evidenceIndex: number })[] = evidence.flatMap(
    (text, evidenceIndex) =>
      splitIntoWindows(text, {
        maxTokens: windowTokens,
        overlapTokens: overlap,
        countTokens: (value) => model.countTokens(value),
      }).map((window) => ({ ...window, evidenceIndex })),
  );
  if (windows.length === 0) {
    throw invalid('the evidence is empty: there is nothing to ground the answer in');
  }

  const pairs = parts.flatMap((part) =>
    windows.map((window) => ({ premise: window.text, hypothesis: part.text })),
  );
  const scores = await model.classify(pairs);
  if (scores.length !== pairs.length) {
    throw new SearchCoreError(
      SearchCoreErrorCode.INFERENCE_FAILED,
      `the NLI model returned ${scores.length} results for ${pairs.length} pairs`,
    );
  }

  const sentences = parts.map((part, partIndex): SentenceGrounding => {
    let best = 0;
    for (let windowIndex = 1; windowIndex < windows.length; windowIndex++) {
      const candidate = scores[partIndex * windows.length + windowIndex]!;
      if (candidate.entailment > scores[partIndex * windows.length + best]!.entailment) {
        best = windowIndex;
      }
    }
    const bestScores = scores[partIndex * windows.length + best]!;
    const window = windows[best]!;
    return {
      text: part.text,
      start: part.start,
      end: part.end,
      grounded: isGrounded(bestScores, threshold),
      label: topLabel(bestScores),
      scores: bestScores,
      window: {
        evidenceIndex: window.evidenceIndex,
        start: window.start,
        end: window.end,
        text: window.text,
      },
    };
  });
  const deciding = decidingSentence(sentences);
  return {
    grounded: sentences.every((sentence) => sentence.grounded),
    label: deciding.label,
    scores: deciding.scores,
    sentences,
    windows: windows.length,
    pairs: pairs.length,
  };
}
