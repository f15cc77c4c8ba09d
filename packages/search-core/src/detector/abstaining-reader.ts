import type { RetrievalHit } from '../retrieval/types.js';
import type {
  AbstentionDetector,
  AbstentionReason,
  AbstentionResult,
} from './abstention-detector.js';

/** The answer a reader gives instead of one the detector does not trust. */
export const ABSTENTION_ANSWER = "I don't have enough information to answer this question.";

/** What a reader is asked: a question and the evidence retrieved for it. */
export interface ReaderInput {
  question: string;
  hits?: readonly RetrievalHit[];
  evidence?: readonly string[];
}

/** A reader's answer after the detector has seen it. */
export interface AbstainingAnswer {
  /** The reader's answer, or {@link ABSTENTION_ANSWER} when the detector fired. */
  answer: string;
  abstained: boolean;
  abstentionReason: AbstentionReason | null;
  /** What the reader said, kept whether or not it was replaced. */
  originalAnswer: string;
  detection: AbstentionResult;
}

/**
 * Wraps a reader so that every answer passes through the detector, and an answer the detector
 * does not trust is replaced by "I don't have enough information to answer this question."
 */
export function withAbstention(
  read: (input: ReaderInput) => Promise<string> | string,
  detector: AbstentionDetector,
): (input: ReaderInput) => Promise<AbstainingAnswer> {
  return async (input) => {
    const originalAnswer = await read(input);
    const detection = await detector.detect({ ...input, answer: originalAnswer });
    return {
      answer: detection.shouldAbstain ? ABSTENTION_ANSWER : originalAnswer,
      abstained: detection.shouldAbstain,
      abstentionReason: detection.shouldAbstain ? detection.reason : null,
      originalAnswer,
      detection,
    };
  };
}
