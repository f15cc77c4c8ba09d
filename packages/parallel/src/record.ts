import type { ResponseQuality } from '@qualm/validator';

/** A response's id as the input gives it. */
export type ResponseId = string | number;

/** One line of `qualm validate --format jsonl`: what a result file holds for each response. */
export interface ValidationRecord {
  id?: ResponseId;
  score: number;
  shouldEscalate: boolean;
  signals: {
    type: ResponseQuality['signals'][number]['type'];
    evidence: string;
    weight: number;
    position: number;
  }[];
  reason: string;
  assessmentConfidence: number;
}

/** The record written for one assessed response (the signal's context is left out). */
export function validationRecord(
  id: ResponseId | undefined,
  result: ResponseQuality,
): ValidationRecord {
  return {
    ...(id !== undefined ? { id } : {}),
    score: result.score,
    shouldEscalate: result.shouldEscalate,
    signals: result.signals.map(({ type, evidence, weight, position }) => ({
      type,
      evidence,
      weight,
      position,
    })),
    reason: result.reason,
    assessmentConfidence: result.assessmentConfidence,
  };
}
