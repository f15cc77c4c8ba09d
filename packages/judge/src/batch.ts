import { mapConcurrently } from './concurrency.js';
import { VerificationConfig } from './config.js';
import { JudgeError, JudgeErrorCode } from './errors.js';
import {
  initialResult,
  runPipeline,
  Stage,
  type VerificationItem,
  type VerificationResult,
  type VerifyOptions,
} from './pipeline.js';
import type { RubricScores } from './rubric.js';
import { addUsage, emptyUsage, type TokenUsage } from './usage.js';

/** Progress of a batch, reported after each item in input order. */
export interface BatchProgress {
  /** Items finished and handed out so far. */
  done: number;
  /** Number of items, when the input is an array. */
  total: number | undefined;
  /** Position of the item just finished, from 0. */
  index: number;
  result: VerificationResult;
}

/** Options of {@link verifyMany} and {@link verifyStream}. */
export interface VerifyManyOptions extends VerifyOptions {
  /** Items verified at the same time (default 4). */
  concurrency?: number;
  /** Called after each item, in input order. */
  onProgress?: (progress: BatchProgress) => void;
}

/** Rates and totals over a set of results. */
export interface VerificationSummary {
  total: number;
  /** Results whose `verifyResult` is not null (a template result, or a check that failed the item). */
  verified: number;
  /** Of the verified results, those whose `verifyResult` is true. */
  passed: number;
  failed: number;
  /**
   * Results without a `verifyResult` whose rubric graded at least one yes/no trait (the rubric
   * modes: rubric_only, or an item without expected values).
   */
  rubricJudged: number;
  /** Of the rubric-judged results, those whose yes/no traits were all graded yes. */
  rubricPassed: number;
  /**
   * The share of results that passed, as {@link resultPassed} decides:
   * `(passed + rubricPassed) / (verified + rubricJudged)`, or null when nothing was judged. In
   * template_only mode, `passed / verified`.
   */
  passRate: number | null;
  /** Results on which the abstention check was performed (fail-safe errors excluded). */
  abstentionChecked: number;
  abstentionDetected: number;
  /** `abstentionDetected / abstentionChecked`, or null when no check was performed. */
  abstentionRate: number | null;
  sufficiencyChecked: number;
  insufficient: number;
  /** `insufficient / sufficiencyChecked`, or null when no check was performed. */
  insufficiencyRate: number | null;
  /** Checks that failed and fell back to "not abstained" / "sufficient". */
  checkErrors: number;
  /** Results whose pipeline stopped on an error (`error` set). */
  errors: number;
  /** Count of results per failed stage. */
  failedStages: Record<string, number>;
  llmCalls: number;
  usage: TokenUsage;
}

/** The fields of a result a summary reads (a result read back from a JSONL file will do). */
export type SummarizableResult = Pick<
  VerificationResult,
  | 'verifyResult'
  | 'failedStage'
  | 'abstentionCheckPerformed'
  | 'abstentionDetected'
  | 'sufficiencyCheckPerformed'
  | 'sufficiencyDetected'
  | 'llmCalls'
> & {
  /** Absent in template_only mode (a line of such a run does not carry it). */
  rubricScores?: RubricScores | null;
  error?: unknown;
  abstentionError?: unknown;
  sufficiencyError?: unknown;
  usage?: Partial<TokenUsage>;
};

/**
 * Whether a result passed: its template result (`verifyResult`) when it has one; otherwise, in
 * the rubric modes, whether every yes/no trait of its rubric was graded yes (1-5 scores are not
 * judged). Null when neither judged it: nothing verified, and no rubric grades or only 1-5 ones.
 */
export function resultPassed(
  result: Pick<SummarizableResult, 'verifyResult' | 'rubricScores'>,
): boolean | null {
  if (typeof result.verifyResult === 'boolean') return result.verifyResult;
  const checks = Object.values(result.rubricScores ?? {}).filter(
    (grade) => typeof grade === 'boolean',
  );
  if (checks.length === 0) return null;
  return checks.every((grade) => grade);
}

/** Computes rates and totals over results. */
export function summarizeResults(results: Iterable<SummarizableResult>): VerificationSummary {
  const summary: VerificationSummary = {
    total: 0,
    verified: 0,
    passed: 0,
    failed: 0,
    rubricJudged: 0,
    rubricPassed: 0,
    passRate: null,
    abstentionChecked: 0,
    abstentionDetected: 0,
    abstentionRate: null,
    sufficiencyChecked: 0,
    insufficient: 0,
    insufficiencyRate: null,
    checkErrors: 0,
    errors: 0,
    failedStages: {},
    llmCalls: 0,
    usage: emptyUsage(),
  };
  const usages: TokenUsage[] = [];
  for (const result of results) {
    summary.total += 1;
    const outcome = resultPassed(result);
    if (typeof result.verifyResult === 'boolean') {
      summary.verified += 1;
      if (result.verifyResult) summary.passed += 1;
      else summary.failed += 1;
    } else if (outcome !== null) {
      summary.rubricJudged += 1;
      if (outcome) summary.rubricPassed += 1;
    }
    if (result.abstentionCheckPerformed) {
      summary.abstentionChecked += 1;
      if (result.abstentionDetected === true) summary.abstentionDetected += 1;
    }
    if (result.sufficiencyCheckPerformed) {
      summary.sufficiencyChecked += 1;
      if (result.sufficiencyDetected === false) summary.insufficient += 1;
    }
    if (result.abstentionError) summary.checkErrors += 1;
    if (result.sufficiencyError) summary.checkErrors += 1;
    if (result.error) summary.errors += 1;
    if (result.failedStage) {
      summary.failedStages[result.failedStage] =
        (summary.failedStages[result.failedStage] ?? 0) + 1;
    }
    summary.llmCalls += result.llmCalls ?? 0;
    usages.push({ ...emptyUsage(), ...result.usage });
  }
  summary.usage = addUsage(...usages);
  const rate = (count: number, of: number) => (of > 0 ? count / of : null);
  summary.passRate = rate(
    summary.passed + summary.rubricPassed,
    summary.verified + summary.rubricJudged,
  );
  summary.abstentionRate = rate(summary.abstentionDetected, summary.abstentionChecked);
  summary.insufficiencyRate = rate(summary.insufficient, summary.sufficiencyChecked);
  return summary;
}

// a result for an item whose pipeline threw where it should not have: the batch keeps going
function crashed(item: VerificationItem, error: unknown, options: VerificationConfig) {
  const message = error instanceof Error ? error.message : String(error);
  const stageError = {
    stage: Stage.FINALIZE,
    code: JudgeError.isInstance(error) ? error.code : JudgeErrorCode.INTERNAL,
    message,
  };
  return {
    ...initialResult(item ?? {}, options.evaluationMode),
    verifyResult: false,
    failedStage: Stage.FINALIZE,
    error: stageError,
  } satisfies VerificationResult;
}

/**
 * Verifies items with a concurrency limit and yields the results in input order as soon as each
 * one and all before it are done. One item's failure never loses another's result.
 */
export async function* verifyStream(
  items: Iterable<VerificationItem> | AsyncIterable<VerificationItem>,
  options: VerifyManyOptions,
): AsyncGenerator<VerificationResult, void, undefined> {
  const config = VerificationConfig.from(options.config);
  const total = Array.isArray(items) ? items.length : undefined;
  let done = 0;
  for await (const result of mapConcurrently(
    items,
    (item) =>
      runPipeline(item, options, config).catch((error: unknown) => crashed(item, error, config)),
    { concurrency: options.concurrency ?? 4, ordered: true },
  )) {
    done += 1;
    options.onProgress?.({ done, total, index: done - 1, result });
    yield result;
  }
}

/** Verifies items with a concurrency limit; results come back in input order with a summary. */
export async function verifyMany(
  items: Iterable<VerificationItem> | AsyncIterable<VerificationItem>,
  options: VerifyManyOptions,
): Promise<{ results: VerificationResult[]; summary: VerificationSummary }> {
  const results: VerificationResult[] = [];
  for await (const result of verifyStream(items, options)) results.push(result);
  return { results, summary: summarizeResults(results) };
}
