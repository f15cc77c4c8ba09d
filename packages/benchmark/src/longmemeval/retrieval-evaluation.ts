import type { Retriever } from '@qualm/search-core';
import { BenchmarkError, BenchmarkErrorCode } from '../errors.js';
import {
  buildRetrievalCorpus,
  type RetrievalCorpus,
  type RetrievalLevel,
} from './retrieval-corpus.js';
import {
  type RankingScores,
  retrievalCutoffs,
  scoreRanking,
  scoreTurnRankingBySession,
} from './retrieval-metrics.js';
import { isAbstentionQuestion, type LongMemEvalQuestion } from './schema.js';

/** Metric name (`recall_any@5`, `recall_all@5`, `ndcg_any@5`, …) to its mean over questions. */
export type RetrievalMetrics = Record<string, number>;

/** Options of {@link evaluateRetrieval}. */
export interface RetrievalEvaluationOptions {
  level: RetrievalLevel;
  /** Builds the retriever over one question's corpus. */
  createRetriever: (
    corpus: RetrievalCorpus,
    question: LongMemEvalQuestion,
  ) => Retriever | Promise<Retriever>;
  /** The query for a question; the harness uses the question text. */
  query?: (question: LongMemEvalQuestion) => string;
  /** Cutoffs k; defaults to 1, 3, 5, 10, 30, 50 as the harness. */
  cutoffs?: readonly number[];
  /** Questions to keep (e.g. one half of a split); the others are counted as filtered out. */
  filter?: (question: LongMemEvalQuestion) => boolean;
  /** Called after each question is scored, for progress and per-question records. */
  onQuestion?: (result: QuestionRetrievalResult) => void;
  /**
   * Called with the whole ranking of every question the filter keeps, abstention questions and
   * questions without user evidence included (they are ranked, not scored), as the harness's log
   * records them; awaited, so a writer can apply back-pressure.
   */
  onRanking?: (ranked: RankedQuestion) => void | Promise<void>;
  /**
   * Stops the evaluation: once it aborts, no further question is ranked and the call rejects with
   * a {@link BenchmarkError} of code `ABORTED`.
   */
  signal?: AbortSignal;
}

/** A question's corpus and the ranking of all its documents. */
export interface RankedQuestion {
  question: LongMemEvalQuestion;
  corpus: RetrievalCorpus;
  /** Corpus positions, best first; every document is there once. */
  rankings: number[];
}

/** One question's ranking and scores. */
export interface QuestionRetrievalResult {
  questionId: string;
  questionType: string;
  /** Gold corpus ids. */
  goldIds: string[];
  /** Corpus ids of the ten best-ranked items. */
  topIds: string[];
  /** Normalised score of the best item (0 when nothing matched). */
  topScore: number;
  metrics: RetrievalMetrics;
  /** Turn level only: the turn ranking scored at session level, as the harness also reports. */
  sessionMetrics?: RetrievalMetrics;
  /** Milliseconds to build the retriever and to run the query. */
  buildMilliseconds: number;
  queryMilliseconds: number;
}

/** The result of a retrieval evaluation. */
export interface RetrievalEvaluation {
  level: RetrievalLevel;
  /** Questions scored. */
  n: number;
  /** Questions left out, by reason. */
  excluded: {
    /** Abstention questions (`_abs`), which have no evidence; the harness skips them. */
    abstention: number;
    /** Questions none of whose evidence is in a user turn, so no item is gold. */
    noUserEvidence: number;
    /** Questions the `filter` option left out. */
    filtered: number;
  };
  metrics: RetrievalMetrics;
  /** Turn level only: the turn rankings scored at session level. */
  sessionMetrics?: RetrievalMetrics;
  /** Metrics by question type, with their counts. */
  byType: Record<string, { n: number; metrics: RetrievalMetrics }>;
}

function metricsOf(
  scores: (k: number) => RankingScores,
  cutoffs: readonly number[],
): RetrievalMetrics {
  const metrics: RetrievalMetrics = {};
  for (const k of cutoffs) {
    const { recallAny, recallAll, ndcgAny } = scores(k);
    metrics[`recall_any@${k}`] = recallAny;
    metrics[`recall_all@${k}`] = recallAll;
    metrics[`ndcg_any@${k}`] = ndcgAny;
  }
  return metrics;
}

class MetricMeans {
  private readonly sums = new Map<string, number>();
  count = 0;

  add(metrics: RetrievalMetrics): void {
    this.count += 1;
    for (const [name, value] of Object.entries(metrics)) {
      this.sums.set(name, (this.sums.get(name) ?? 0) + value);
    }
  }

  means(): RetrievalMetrics {
    const means: RetrievalMetrics = {};
    for (const [name, sum] of this.sums) means[name] = this.count === 0 ? 0 : sum / this.count;
    return means;
  }
}

/**
 * Evaluates a retriever on LongMemEval questions as the official harness does: one index per
 * question over its haystack, the question as the query, recall_any, recall_all and ndcg_any at
 * each cutoff, averaged over questions. Abstention questions and questions with no evidence in a
 * user turn are left out and counted.
 */
export async function evaluateRetrieval(
  questions: AsyncIterable<LongMemEvalQuestion> | Iterable<LongMemEvalQuestion>,
  options: RetrievalEvaluationOptions,
): Promise<RetrievalEvaluation> {
  const cutoffs = options.cutoffs ?? retrievalCutoffs;
  if (cutoffs.length === 0 || cutoffs.some((k) => !Number.isInteger(k) || k < 1)) {
    throw new BenchmarkError(
      BenchmarkErrorCode.INVALID_CONFIG,
      `cutoffs must be positive integers, got ${cutoffs.join(', ')}`,
    );
  }
  const query = options.query ?? ((question: LongMemEvalQuestion) => question.question);
  const excluded = { abstention: 0, noUserEvidence: 0, filtered: 0 };
  const overall = new MetricMeans();
  const overallSessions = new MetricMeans();
  const byType = new Map<string, MetricMeans>();
  let read = 0;
  for await (const question of questions) {
    if (options.signal?.aborted) {
      throw new BenchmarkError(
        BenchmarkErrorCode.ABORTED,
        `the retrieval evaluation was stopped after ${read} questions`,
        { cause: options.signal.reason },
      );
    }
    read += 1;
    if (options.filter && !options.filter(question)) {
      excluded.filtered += 1;
      continue;
    }
    const corpus = buildRetrievalCorpus(question, options.level);
    const abstention = isAbstentionQuestion(question.question_id);
    const scored = !abstention && corpus.goldIds.length > 0;
    if (!scored && !options.onRanking) {
      if (abstention) excluded.abstention += 1;
      else excluded.noUserEvidence += 1;
      continue;
    }
    const buildStart = performance.now();
    const retriever = await options.createRetriever(corpus, question);
    const queryStart = performance.now();
    const hits = await retriever.search(query(question), { limit: Number.POSITIVE_INFINITY });
    const queryEnd = performance.now();
    const rankings = completeRanking(
      corpus,
      hits.map((hit) => hit.id),
    );
    await options.onRanking?.({ question, corpus, rankings });
    if (!scored) {
      if (abstention) excluded.abstention += 1;
      else excluded.noUserEvidence += 1;
      continue;
    }
    const metrics = metricsOf(
      (k) => scoreRanking(rankings, { goldIds: corpus.goldIds, corpusIds: corpus.corpusIds, k }),
      cutoffs,
    );
    overall.add(metrics);
    let typeMeans = byType.get(question.question_type);
    if (!typeMeans) {
      typeMeans = new MetricMeans();
      byType.set(question.question_type, typeMeans);
    }
    typeMeans.add(metrics);
    const result: QuestionRetrievalResult = {
      questionId: question.question_id,
      questionType: question.question_type,
      goldIds: corpus.goldIds,
      topIds: rankings.slice(0, 10).map((position) => corpus.corpusIds[position]!),
      topScore: hits[0]?.score ?? 0,
      metrics,
      buildMilliseconds: queryStart - buildStart,
      queryMilliseconds: queryEnd - queryStart,
    };
    if (options.level === 'turn') {
      result.sessionMetrics = metricsOf(
        (k) =>
          scoreTurnRankingBySession(rankings, {
            goldIds: corpus.goldIds,
            corpusIds: corpus.corpusIds,
            k,
          }),
        cutoffs,
      );
      overallSessions.add(result.sessionMetrics);
    }
    options.onQuestion?.(result);
  }
  const evaluation: RetrievalEvaluation = {
    level: options.level,
    n: overall.count,
    excluded,
    metrics: overall.means(),
    byType: Object.fromEntries(
      [...byType].map(([type, means]) => [type, { n: means.count, metrics: means.means() }]),
    ),
  };
  if (options.level === 'turn') evaluation.sessionMetrics = overallSessions.means();
  return evaluation;
}

/**
 * The corpus positions of the ranked documents, then every document the retriever did not return
 * in corpus order, so that a ranking covers the whole corpus as the harness's argsort does (and a
 * reader shown the top k always sees k items).
 */
export function completeRanking(corpus: RetrievalCorpus, rankedIds: readonly string[]): number[] {
  const positionOf = new Map(corpus.documents.map((document, position) => [document.id, position]));
  const rankings: number[] = [];
  const placed = new Uint8Array(corpus.documents.length);
  for (const id of rankedIds) {
    const position = positionOf.get(id);
    if (position === undefined || placed[position]) continue;
    placed[position] = 1;
    rankings.push(position);
  }
  for (let position = 0; position < placed.length; position += 1) {
    if (!placed[position]) rankings.push(position);
  }
  return rankings;
}
