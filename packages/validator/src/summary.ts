import { ValidatorError, ValidatorErrorCode } from './errors.js';
import {
  type QualitySummary,
  type ResponseQuality,
  SIGNAL_TYPES,
  type SignalType,
} from './types.js';

/** What a summary reads of an assessment; a whole ResponseQuality will do. */
export type SummarizableResult = Pick<ResponseQuality, 'score' | 'shouldEscalate'> & {
  signals: readonly { type: SignalType }[];
};

/** Aggregates assessments: average score, escalation rate (escalated / total), common issues. */
export function getQualitySummary(results: readonly SummarizableResult[]): QualitySummary {
  if (!Array.isArray(results as unknown)) {
    throw new ValidatorError(
      ValidatorErrorCode.INVALID_INPUT,
      `getQualitySummary expects an array of assessments, got ${results === null ? 'null' : typeof results}`,
    );
  }
  const counts = new Map<SignalType, number>();
  let scoreTotal = 0;
  let escalated = 0;
  for (const result of results) {
    scoreTotal += result.score;
    if (result.shouldEscalate) escalated += 1;
    for (const type of new Set(result.signals.map((signal) => signal.type))) {
      counts.set(type, (counts.get(type) ?? 0) + 1);
    }
  }
  const total = results.length;
  const commonIssues = [...counts.entries()]
    .map(([type, count]) => ({ type, count, share: count / total }))
    .sort(
      (left, right) =>
        right.count - left.count ||
        SIGNAL_TYPES.indexOf(left.type) - SIGNAL_TYPES.indexOf(right.type),
    );
  return {
    total,
    escalated,
    averageScore: total === 0 ? 0 : scoreTotal / total,
    escalationRate: total === 0 ? 0 : escalated / total,
    commonIssues,
  };
}
