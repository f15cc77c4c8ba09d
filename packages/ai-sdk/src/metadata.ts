import type { ResponseQuality, Signal } from '@qualm/validator';

/** What a policy does when an answer is flagged. */
export type QualmPolicy = 'annotate' | 'throw' | 'retry' | 'fallback';

/** What the abstention detector said about an answer, given the caller's evidence. */
export interface AbstentionVerdict {
  shouldAbstain: boolean;
  /** The detector's reason (`low_coverage`, `not_grounded`, `hedging_detected`, …) or null. */
  reason: string | null;
  confidence: number;
  details: string;
}

/**
 * One signal the validator found, as `providerMetadata.qualm` carries it: its type, evidence,
 * weight, position, context, what found it (`pattern` or `learned`) and a learned signal's
 * probability.
 */
export type QualmSignal = Signal;

/** The assessment of one answer; every field is JSON. */
export interface QualmAssessment {
  /** From 0 to 1, higher is better. */
  score: number;
  /** The validator's verdict: escalate this answer. */
  shouldEscalate: boolean;
  reason: string;
  assessmentConfidence: number;
  feedback: string;
  signals: QualmSignal[];
  /** The abstention detector's verdict, when the call passed evidence; otherwise null. */
  abstention: AbstentionVerdict | null;
  /** What the policy acts on: the validator escalates, or the detector says to abstain. */
  flagged: boolean;
}

/** `providerMetadata.qualm`: the assessment of the answer returned, and what the policy did. */
export interface QualmMetadata extends QualmAssessment {
  policy: QualmPolicy;
  /**
   * What the policy did: nothing, asked the model again (`retried`), or replaced the answer with
   * the fallback text or the fallback model's answer.
   */
  action: 'none' | 'retried' | 'fallback-text' | 'fallback-model';
  /** Model calls made for this answer (2 after a retry or a fallback model). */
  attempts: number;
  /** The assessment of the answer the policy replaced, when it replaced one. */
  replaced: QualmAssessment | null;
}

/** Turns the validator's result and the detector's verdict into the JSON assessment. */
export function toAssessment(
  quality: ResponseQuality,
  abstention: AbstentionVerdict | null,
): QualmAssessment {
  return {
    score: quality.score,
    shouldEscalate: quality.shouldEscalate,
    reason: quality.reason,
    assessmentConfidence: quality.assessmentConfidence,
    feedback: quality.feedback,
    signals: quality.signals.map((signal) => ({ ...signal })),
    abstention,
    flagged: quality.shouldEscalate || abstention?.shouldAbstain === true,
  };
}
