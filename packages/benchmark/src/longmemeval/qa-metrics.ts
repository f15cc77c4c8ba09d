import { numpyMean } from './python-format.js';
import { isAbstentionQuestion } from './schema.js';

/** Question types in the order the official `print_qa_metrics.py` prints them. */
export const QUESTION_TYPES = [
  'single-session-user',
  'single-session-preference',
  'single-session-assistant',
  'multi-session',
  'temporal-reasoning',
  'knowledge-update',
] as const;

/** One judged answer of a run. */
export interface JudgedAnswer {
  questionId: string;
  questionType: string;
  /** The judge's label (after counterfactual accounting, when an abstention replaced the answer). */
  correct: boolean;
  /** The final answer says it cannot answer. */
  abstained: boolean;
  /** The abstention was added by a detector, not written by the reader. */
  abstentionAdded?: boolean;
}

/** Accuracy figures of a run, as the official script prints them, plus false abstention. */
export interface QaMetrics {
  n: number;
  overall: number;
  /**
   * Mean of the accuracies of the six official types; null when one of them has no question,
   * where `print_qa_metrics.py` prints `nan`.
   */
  taskAveraged: number | null;
  /** Accuracy on the abstention questions (ids containing `_abs`). */
  abstention: { accuracy: number; correct: number; n: number };
  /** Share of answerable questions whose final answer is an abstention. */
  falseAbstentionRate: number;
  /** Share of answerable questions on which a detector replaced the reader's answer. */
  addedFalseAbstentionRate: number;
  falseAbstentions: number;
  addedFalseAbstentions: number;
  byType: Record<string, { accuracy: number; n: number }>;
}

/**
 * Computes the metrics of `print_qa_metrics.py` (per type in its order, task-averaged, overall,
 * abstention accuracy with n; github.com/xiaowu0162/LongMemEval, src/evaluation/) and the
 * false-abstention rates. Types outside the official six are listed after them.
 */
export function computeQaMetrics(answers: readonly JudgedAnswer[]): QaMetrics {
  const byTypeCounts = new Map<string, { correct: number; n: number }>();
  for (const type of QUESTION_TYPES) byTypeCounts.set(type, { correct: 0, n: 0 });
  let correct = 0;
  const abstention = { correct: 0, n: 0 };
  let answerable = 0;
  let falseAbstentions = 0;
  let addedFalseAbstentions = 0;
  for (const answer of answers) {
    let counts = byTypeCounts.get(answer.questionType);
    if (!counts) {
      counts = { correct: 0, n: 0 };
      byTypeCounts.set(answer.questionType, counts);
    }
    counts.n += 1;
    if (answer.correct) {
      counts.correct += 1;
      correct += 1;
    }
    if (isAbstentionQuestion(answer.questionId)) {
      abstention.n += 1;
      if (answer.correct) abstention.correct += 1;
    } else {
      answerable += 1;
      if (answer.abstained) falseAbstentions += 1;
      if (answer.abstained && answer.abstentionAdded) addedFalseAbstentions += 1;
    }
  }
  const byType: QaMetrics['byType'] = {};
  for (const [type, counts] of byTypeCounts) {
    if (counts.n === 0) continue;
    byType[type] = { accuracy: counts.correct / counts.n, n: counts.n };
  }
  // np.mean over the six official types: numpy's sum of six values is a plain running sum
  const official = QUESTION_TYPES.map((type) => byType[type]?.accuracy);
  const taskAveraged = official.every((accuracy) => accuracy !== undefined)
    ? numpyMean(official as number[])
    : null;
  return {
    n: answers.length,
    overall: ratio(correct, answers.length),
    taskAveraged,
    abstention: { accuracy: ratio(abstention.correct, abstention.n), ...abstention },
    falseAbstentionRate: ratio(falseAbstentions, answerable),
    addedFalseAbstentionRate: ratio(addedFalseAbstentions, answerable),
    falseAbstentions,
    addedFalseAbstentions,
    byType,
  };
}

function ratio(part: number, whole: number): number {
  return whole === 0 ? 0 : part / whole;
}

// the reader's own "I don't know", read from the end of its answer where the conclusion is
const explicitAbstention =
  /\b(?:I (?:don't|do not) have enough information|(?:the )?information provided is not enough|there is not enough information|not enough information (?:to|in the)|insufficient information to|I (?:cannot|can't|am unable to) (?:determine|answer|find)|(?:cannot|can't) be determined|no (?:relevant )?information (?:about|on|regarding) |I (?:really |honestly )?(?:don't|do not) know(?: the answer)?(?: ?[.!]| ?$))/i;
const conclusionLength = 400;

/**
 * Whether an answer's conclusion says it cannot answer ("I don't have enough information…"): how
 * the reader's own abstentions are counted in the false-abstention rate.
 */
export function isExplicitAbstention(answer: string): boolean {
  return explicitAbstention.test(answer.slice(-conclusionLength).replaceAll(/[‘’]/g, "'"));
}
