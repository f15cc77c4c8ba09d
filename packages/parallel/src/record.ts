import type { ResponseQuality } from '@qualm/validator';

/** A response's id as the input gives it. */
export type ResponseId = string | number;

/** One line of `qualm validate --format jsonl`: what a result file holds for each response. */
export interface ValidationRecord {
  id?: ResponseId;
  /** The input line, from 1, blank lines counted (JSON Lines input only). */
  line?: number;
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

/**
 * The record written for one assessed response: its id and input line when it has them, each
 * signal without its context, with what found it and, for a learned signal, the model's
 * probability.
 */
export function validationRecord(
  id: ResponseId | undefined,
  result: ResponseQuality,
  line?: number,
): ValidationRecord {
  return {
    ...(id !== undefined ? { id } : {}),
    ...(line !== undefined ? { line } : {}),
    score: result.score,
    shouldEscalate: result.shouldEscalate,
    signals: result.signals.map(({ type, evidence, weight, position, source, probability }) => ({
      type,
      evidence,
      weight,
      position,
      source,
      probability,
    })),
    reason: result.reason,
    assessmentConfidence: result.assessmentConfidence,
  };
}
