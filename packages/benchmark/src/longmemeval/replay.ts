import {
  type AbstentionDetector,
  type AbstentionSignal,
  FullTextIndex,
  type RetrievalDocument,
  type RetrievalHit,
  strongestSignal,
} from '@qualm/search-core';
import { BenchmarkError, BenchmarkErrorCode } from '../errors.js';
import { percentile } from '../percentile.js';
import { streamLongMemEval } from './loader.js';
import {
  computeQaMetrics,
  isExplicitAbstention,
  type JudgedAnswer,
  type QaMetrics,
} from './qa-metrics.js';
import { type EvalResultLine, evalResultLineSchema, readRunRecords } from './run-metrics.js';
import { isAbstentionQuestion, type LongMemEvalQuestion } from './schema.js';

/** Recorded runs that share a LongMemEval data file. */
export interface RunSet {
  /** A LongMemEval data file (oracle, S or M; plain or .gz). */
  dataPath: string;
  /** Recorded runs with judge labels, in the official eval-results format. */
  runPaths: readonly string[];
}

/** Options of {@link replayRuns}. */
export interface ReplayOptions {
  /** The runs, grouped by the data file they were recorded on (oracle runs on oracle, …). */
  sets: readonly RunSet[];
  /** The detector to replay; without it only the recorded runs are scored. */
  detector?: AbstentionDetector;
  /** How many sessions to retrieve per question (at least the detector's `evidenceHits`; 10). */
  retrievalLimit?: number;
  /** Called after each question of a data file that some run answers. */
  onProgress?: (done: number, total: number) => void;
}

/** What the detector said about one recorded answer, kept so that thresholds can be swept later. */
export interface ReplayDetection {
  /** Every signal of every layer, whatever its confidence. */
  signals: AbstentionSignal[];
  topScore: number | null;
  scoreGap: number | null;
}

/** One recorded answer with what the replay found. */
export interface ReplayedAnswer {
  questionId: string;
  questionType: string;
  recordedLabel: boolean;
  /** The reader's own answer says it cannot answer. */
  readerAbstained: boolean;
  detection: ReplayDetection | null;
}

/** One run replayed. */
export interface ReplayedRun {
  runPath: string;
  dataPath: string;
  answers: ReplayedAnswer[];
  /** Question ids of the run that the data lacks; they are skipped. */
  skippedIds: string[];
}

/** Timing of a replay, per question of the data. */
export interface ReplayTiming {
  questions: number;
  /** Index build and search, per question, in milliseconds. */
  retrievalMs: { p50: number; p90: number; max: number };
  /** All the detector's layers, per answer, in milliseconds. */
  detectionMs: { p50: number; p90: number; max: number };
  totalMs: number;
}

/** The result of {@link replayRuns}. */
export interface ReplayResult {
  runs: ReplayedRun[];
  timing: ReplayTiming;
}

/**
 * Replays recorded runs over a LongMemEval data file: for every answered question it indexes the
 * question's history sessions, retrieves for the question, and runs the detector on the recorded
 * answer. The data is streamed, so memory stays flat on the large files.
 */
export async function replayRuns(options: ReplayOptions): Promise<ReplayResult> {
  const started = performance.now();
  const retrievalTimes: number[] = [];
  const detectionTimes: number[] = [];
  const replayed: ReplayedRun[] = [];
  let questions = 0;
  for (const set of options.sets) {
    const runs = await Promise.all(set.runPaths.map(readLabelledRun));
    const wanted = new Set(runs.flatMap((run) => [...run.entries.keys()]));
    const retrievalLimit = Math.max(
      options.retrievalLimit ?? 10,
      options.detector?.config.evidenceHits ?? 0,
    );
    const answers = runs.map(() => new Map<string, ReplayedAnswer>());
    let done = 0;
    for await (const question of streamLongMemEval(set.dataPath)) {
      if (!wanted.has(question.question_id)) continue;
      let hits: RetrievalHit[] | undefined;
      if (options.detector) {
        const retrievalStarted = performance.now();
        hits = new FullTextIndex(sessionDocuments(question)).searchSync(question.question, {
          limit: retrievalLimit,
        });
        retrievalTimes.push(performance.now() - retrievalStarted);
      }
      for (const [runIndex, run] of runs.entries()) {
        const entry = run.entries.get(question.question_id);
        if (!entry) continue;
        let detection: ReplayDetection | null = null;
        if (options.detector && hits) {
          const detectionStarted = performance.now();
          const result = await options.detector.detect({
            question: question.question,
            answer: entry.hypothesis,
            hits,
          });
          detectionTimes.push(performance.now() - detectionStarted);
          detection = {
            signals: [
              ...result.layers.retrieval.signals,
              ...result.layers.grounding.signals,
              ...result.layers.hedging.signals,
            ],
            topScore: result.layers.retrieval.topScore,
            scoreGap: result.layers.retrieval.scoreGap,
          };
        }
        answers[runIndex]?.set(question.question_id, replayedAnswer(question, entry, detection));
      }
      done += 1;
      options.onProgress?.(done, wanted.size);
    }
    questions += done;
    for (const [runIndex, run] of runs.entries()) {
      const found = answers[runIndex] ?? new Map<string, ReplayedAnswer>();
      const ordered: ReplayedAnswer[] = [];
      const skippedIds: string[] = [];
      for (const id of run.entries.keys()) {
        const answer = found.get(id);
        if (answer) ordered.push(answer);
        else skippedIds.push(id);
      }
      if (ordered.length === 0) {
        throw new BenchmarkError(
          BenchmarkErrorCode.NOTHING_TO_DO,
          `none of the ${skippedIds.length} question ids of ${run.runPath} is in ${set.dataPath} (first: ${skippedIds[0]}); is it a run on another data file?`,
        );
      }
      replayed.push({ runPath: run.runPath, dataPath: set.dataPath, answers: ordered, skippedIds });
    }
  }
  return {
    runs: replayed,
    timing: {
      questions,
      retrievalMs: percentiles(retrievalTimes),
      detectionMs: percentiles(detectionTimes),
      totalMs: performance.now() - started,
    },
  };
}

// the label is optional here so that an unjudged line gets replay's own message, not zod's
const maybeJudgedLineSchema = evalResultLineSchema.extend({
  autoeval_label: evalResultLineSchema.shape.autoeval_label.optional(),
});

async function readLabelledRun(runPath: string) {
  const entries: EvalResultLine[] = [];
  for (const entry of await readRunRecords(runPath, maybeJudgedLineSchema)) {
    const { autoeval_label } = entry;
    if (autoeval_label === undefined) {
      throw new BenchmarkError(
        BenchmarkErrorCode.INVALID_INPUT,
        `${runPath}: question ${entry.question_id} has no autoeval_label; replay needs a judged run (evaluate it first)`,
      );
    }
    entries.push({ ...entry, autoeval_label });
  }
  if (entries.length === 0) {
    throw new BenchmarkError(
      BenchmarkErrorCode.NOTHING_TO_DO,
      `${runPath} holds no judged answers: each line should be {"question_id", "hypothesis", "autoeval_label"}`,
    );
  }
  return { runPath, entries: new Map(entries.map((entry) => [entry.question_id, entry])) };
}

/**
 * A history session as a retrieval document: every turn, user and assistant, in order (indexing
 * the user's turns alone, as the official retrieval harness does, is faster but ranked worse
 * evidence for the coverage check when it was tried). A session id that repeats in a history (the
 * S file has some) gets `#2`, `#3`… as the retrieval corpus does.
 */
export function sessionDocuments(question: LongMemEvalQuestion): RetrievalDocument[] {
  const seen = new Map<string, number>();
  return question.haystack_sessions.map((turns, index) => {
    const sessionId = question.haystack_session_ids[index] ?? String(index);
    const count = (seen.get(sessionId) ?? 0) + 1;
    seen.set(sessionId, count);
    return {
      id: count === 1 ? sessionId : `${sessionId}#${count}`,
      text: turns.map((turn) => turn.content).join('\n'),
      metadata: { date: question.haystack_dates[index] },
    };
  });
}

function replayedAnswer(
  question: LongMemEvalQuestion,
  entry: EvalResultLine,
  detection: ReplayDetection | null,
): ReplayedAnswer {
  return {
    questionId: question.question_id,
    questionType: question.question_type,
    recordedLabel: entry.autoeval_label.label,
    readerAbstained: isExplicitAbstention(entry.hypothesis),
    detection,
  };
}

/** A rule that decides, from what the replay recorded, whether the detector abstains. */
export type AbstentionRule = (detection: ReplayDetection) => AbstentionSignal | undefined;

/** The detector's own rule: the strongest signal, when its confidence reaches the threshold. */
export function thresholdRule(abstentionThreshold: number): AbstentionRule {
  return (detection) => {
    const strongest = strongestSignal(detection.signals);
    return strongest && strongest.confidence >= abstentionThreshold ? strongest : undefined;
  };
}

/** Metrics of a replayed run as recorded and, given a rule, with the detector applied. */
export interface ReplaySummary {
  baseline: QaMetrics;
  detector?: QaMetrics;
  skipped: number;
  /** How often each reason decided an abstention, on all questions and on answerable ones. */
  layers?: Record<string, { abstentions: number; onAnswerable: number }>;
}

/**
 * A replayed answer as the judge would count it: as recorded, or, when the detector abstains,
 * counterfactually (an abstention is correct on an `_abs` question and wrong on any other).
 */
export function counterfactualAnswer(answer: ReplayedAnswer, abstains: boolean): JudgedAnswer {
  const question = { questionId: answer.questionId, questionType: answer.questionType };
  if (!abstains)
    return { ...question, correct: answer.recordedLabel, abstained: answer.readerAbstained };
  return {
    ...question,
    correct: isAbstentionQuestion(answer.questionId),
    abstained: true,
    abstentionAdded: !answer.readerAbstained,
  };
}

/** Judges the answers of a run under a rule (as recorded without one), with each decision. */
export function judgeReplayedAnswers(
  answers: readonly ReplayedAnswer[],
  rule?: AbstentionRule,
): { judged: JudgedAnswer[]; decisions: (AbstentionSignal | undefined)[] } {
  const decisions = answers.map((answer) =>
    rule && answer.detection ? rule(answer.detection) : undefined,
  );
  return {
    judged: answers.map((answer, index) =>
      counterfactualAnswer(answer, decisions[index] !== undefined),
    ),
    decisions,
  };
}

/**
 * Scores a replayed run: as recorded, and with the detector's abstentions accounted
 * counterfactually (an abstention is correct on an `_abs` question and wrong on any other; other
 * answers keep their recorded label).
 */
export function summarizeReplay(run: ReplayedRun, rule?: AbstentionRule): ReplaySummary {
  const baseline = computeQaMetrics(judgeReplayedAnswers(run.answers).judged);
  if (!rule) return { baseline, skipped: run.skippedIds.length };
  const { judged, decisions } = judgeReplayedAnswers(run.answers, rule);
  const layers: Record<string, { abstentions: number; onAnswerable: number }> = {};
  decisions.forEach((decision, index) => {
    if (!decision) return;
    const counts = layers[decision.reason] ?? { abstentions: 0, onAnswerable: 0 };
    layers[decision.reason] = counts;
    counts.abstentions += 1;
    if (!isAbstentionQuestion(run.answers[index]?.questionId ?? '')) counts.onAnswerable += 1;
  });
  return { baseline, detector: computeQaMetrics(judged), skipped: run.skippedIds.length, layers };
}

function percentiles(values: readonly number[]): { p50: number; p90: number; max: number } {
  if (values.length === 0) return { p50: 0, p90: 0, max: 0 };
  return { p50: percentile(values, 0.5), p90: percentile(values, 0.9), max: percentile(values, 1) };
}
