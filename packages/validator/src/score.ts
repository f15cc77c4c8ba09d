import {
  ASSESSMENT_CONFIDENCE,
  ESCALATION_THRESHOLDS,
  MAX_SIGNALS_BEFORE_ESCALATION,
  type ResponseQuality,
  type Signal,
  type SignalType,
} from './types.js';

const FEEDBACK: Record<SignalType, string> = {
  tool_failure:
    'A tool or service call failed and its error stands in for the answer: retry the call or fix the tool before using this response.',
  refusal: 'The model declined to answer: rephrase or narrow the request, or route it to a person.',
  empty_response:
    'The response is empty or too short to use: retry, or ask for the missing content explicitly.',
  hallucination_risk:
    'The model says it lacks the facts yet answers: check the claims against a live or cited source, or supply the data in the prompt.',
  confusion:
    'The model did not understand the question or the matter: add context or clarify the request, then retry.',
  incomplete_reasoning:
    'The answer trails off or leaves parts out: ask for the missing items or the full reasoning.',
  low_confidence:
    'The model hedges its answer: verify it against a source, or ask for its evidence, before relying on it.',
};

// the order in which problems are named when several are present: the most disqualifying first
const SEVERITY: readonly SignalType[] = [
  'tool_failure',
  'refusal',
  'empty_response',
  'hallucination_risk',
  'confusion',
  'incomplete_reasoning',
  'low_confidence',
];

function roundScore(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

function quoteEvidence(signal: Signal): string {
  return signal.type === 'empty_response'
    ? `${signal.evidence.length} characters`
    : `"${signal.evidence.length > 60 ? `${signal.evidence.slice(0, 60)}…` : signal.evidence}"`;
}

/**
 * Scores signals as independent pieces of evidence: each removes its weight's share of the trust
 * left, so score = product of (1 - weight). Then applies the escalation rules.
 */
export function assess(signals: Signal[], strictMode: boolean): ResponseQuality {
  let trust = 1;
  for (const signal of signals) trust *= 1 - signal.weight;
  const score = roundScore(trust);
  const threshold = strictMode ? ESCALATION_THRESHOLDS.strict : ESCALATION_THRESHOLDS.normal;
  const types = new Set(signals.map((signal) => signal.type));
  const ranked = SEVERITY.filter((type) => types.has(type));

  const causes: string[] = [];
  for (const type of ['tool_failure', 'refusal'] as const) {
    const first = signals.find((signal) => signal.type === type);
    if (first) causes.push(`${type.replace('_', ' ')} (${quoteEvidence(first)})`);
  }
  if (signals.length > MAX_SIGNALS_BEFORE_ESCALATION) {
    causes.push(`${signals.length} signals (more than ${MAX_SIGNALS_BEFORE_ESCALATION})`);
  }
  if (score < threshold) {
    causes.push(`score ${score.toFixed(2)} below ${threshold} (${ranked.join(', ')})`);
  }
  const shouldEscalate = causes.length > 0;

  let reason: string;
  if (shouldEscalate) {
    reason = `escalate: ${causes.join('; ')}`;
  } else if (signals.length === 0) {
    reason = 'no signals found';
  } else {
    reason = `score ${score.toFixed(2)} at or above ${threshold} with ${signals.length} weak signal${signals.length === 1 ? '' : 's'} (${ranked.join(', ')})`;
  }

  const top = ranked[0];
  let feedback: string;
  if (top === undefined) {
    feedback = 'No problems found; the response can be used as it stands.';
  } else if (shouldEscalate) {
    feedback = FEEDBACK[top];
  } else {
    feedback = `Usable, with minor ${ranked.join(' and ').replace(/_/g, ' ')} cues; ${FEEDBACK[top].split(': ')[1] ?? FEEDBACK[top]}`;
  }

  const confidenceIndex = Math.min(signals.length, ASSESSMENT_CONFIDENCE.length - 1);
  return {
    score,
    signals,
    shouldEscalate,
    reason,
    assessmentConfidence: ASSESSMENT_CONFIDENCE[confidenceIndex] ?? 0.65,
    feedback,
  };
}
