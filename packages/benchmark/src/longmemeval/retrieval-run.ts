import { BenchmarkError, BenchmarkErrorCode } from '../errors.js';
import { streamLongMemEval } from './loader.js';
import type { RetrievalLevel } from './retrieval-corpus.js';
import {
  evaluateRetrieval,
  type QuestionRetrievalResult,
  type RetrievalEvaluation,
} from './retrieval-evaluation.js';
import { openRetrievalLog } from './retrieval-log.js';
import {
  createLongMemEvalRetriever,
  type LongMemEvalRetrieverOptions,
  needsEmbedder,
  type RetrieverKind,
} from './retrievers.js';
import { type QuestionSplit, questionSplit } from './split.js';

/** Options of {@link runLongMemEvalRetrieval}. */
export interface LongMemEvalRetrievalRunOptions extends LongMemEvalRetrieverOptions {
  /** A LongMemEval file: oracle, S or M, plain or gzip. */
  path: string;
  level: RetrievalLevel;
  retriever: RetrieverKind;
  /** Score every question (default) or one half of the stable split by question id. */
  split?: 'all' | QuestionSplit;
  /** Called after each scored question, e.g. for progress. */
  onQuestion?: (result: QuestionRetrievalResult) => void;
  /**
   * Write the harness's retrieval log here: one line per question the split keeps (abstention
   * questions included, as the harness writes them) with the whole ranking and its metrics.
   */
  logPath?: string;
  /**
   * Stops the run between two questions: the call then rejects with a {@link BenchmarkError} of
   * code `ABORTED`, and the unfinished retrieval log is removed.
   */
  signal?: AbortSignal;
}

/** The result of {@link runLongMemEvalRetrieval}. */
export interface LongMemEvalRetrievalRun extends RetrievalEvaluation {
  retriever: RetrieverKind;
  split: 'all' | QuestionSplit;
  assistantTurns: boolean;
  /** Wall time of the whole run, loading included, in seconds. */
  seconds: number;
  /** The retrieval log written, when asked for. */
  log?: { path: string; lines: number };
}

// a run that scored no question has no metrics to report: the input is wrong
function nothingToScore(
  path: string,
  evaluation: RetrievalEvaluation,
  split: 'all' | QuestionSplit,
): BenchmarkError {
  const { abstention, noUserEvidence, filtered } = evaluation.excluded;
  const read = abstention + noUserEvidence + filtered;
  if (read === 0) {
    return new BenchmarkError(BenchmarkErrorCode.NOTHING_TO_DO, `${path} holds no questions`);
  }
  if (filtered === read) {
    return new BenchmarkError(
      BenchmarkErrorCode.NOTHING_TO_DO,
      `the ${split} half of ${path} holds none of its ${read} questions`,
    );
  }
  return new BenchmarkError(
    BenchmarkErrorCode.NOTHING_TO_DO,
    `none of the ${read - filtered} questions of ${path}${split === 'all' ? '' : ` (${split} half)`} can be scored: ${abstention} are abstention questions and ${noUserEvidence} have no evidence in a user turn`,
  );
}

/**
 * Runs the LongMemEval retrieval evaluation on a file: streams its questions, builds the chosen
 * retriever over each haystack and scores the rankings as the official harness does. A file with
 * no question it can score (empty, or only abstention questions) is a `NOTHING_TO_DO` error.
 */
export async function runLongMemEvalRetrieval(
  options: LongMemEvalRetrievalRunOptions,
): Promise<LongMemEvalRetrievalRun> {
  const started = performance.now();
  const split = options.split ?? 'all';
  if (split !== 'all' && split !== 'tune' && split !== 'holdout') {
    throw new BenchmarkError(
      BenchmarkErrorCode.INVALID_CONFIG,
      `split must be all, tune or holdout, got "${String(split)}"`,
    );
  }
  if (options.level !== 'session' && options.level !== 'turn') {
    throw new BenchmarkError(
      BenchmarkErrorCode.INVALID_CONFIG,
      `level must be session or turn, got "${String(options.level)}"`,
    );
  }
  if (needsEmbedder(options.retriever) && !options.embedder) {
    throw new BenchmarkError(
      BenchmarkErrorCode.INVALID_CONFIG,
      `the ${options.retriever} retriever needs an embedding model`,
    );
  }
  const log = options.logPath ? await openRetrievalLog(options.logPath, options.level) : undefined;
  let evaluation: RetrievalEvaluation;
  try {
    evaluation = await evaluateRetrieval(streamLongMemEval(options.path), {
      level: options.level,
      createRetriever: (corpus) => createLongMemEvalRetriever(options.retriever, corpus, options),
      ...(split === 'all'
        ? {}
        : { filter: (question) => questionSplit(question.question_id) === split }),
      ...(options.onQuestion ? { onQuestion: options.onQuestion } : {}),
      ...(log ? { onRanking: (ranked) => log.write(ranked) } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (evaluation.n === 0) throw nothingToScore(options.path, evaluation, split);
    await log?.close();
  } catch (error) {
    await log?.abort();
    throw error;
  }
  return {
    ...evaluation,
    retriever: options.retriever,
    split,
    assistantTurns: options.assistantTurns ?? false,
    seconds: (performance.now() - started) / 1000,
    ...(log ? { log: { path: log.path, lines: log.lines } } : {}),
  };
}
