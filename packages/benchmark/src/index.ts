export { type ChartSpec, renderSvg } from './charts.js';
export { BenchmarkError, BenchmarkErrorCode } from './errors.js';
export {
  type CalibrationChoice,
  type CalibrationMethod,
  type CalibrationOptions,
  type CalibrationPoint,
  type CalibrationReport,
  calibrate,
  calibrationMarkdown,
  scoreThresholdRule,
  tradeoffChart,
  writeCalibrationReport,
} from './longmemeval/calibration.js';
export { JsonArraySplitter, JsonArraySyntaxError } from './longmemeval/json-array-splitter.js';
export {
  joinRunWithQuestions,
  loadLongMemEval,
  openDataFile,
  type RunFile,
  type RunJoin,
  readRunFile,
  streamLongMemEval,
} from './longmemeval/loader.js';
export {
  computeQaMetrics,
  isExplicitAbstention,
  type JudgedAnswer,
  type QaMetrics,
  QUESTION_TYPES,
} from './longmemeval/qa-metrics.js';
export {
  ABSTENTION_REASONS,
  type AbstentionRule,
  type ReplayDetection,
  type ReplayedAnswer,
  type ReplayedRun,
  type ReplayOptions,
  type ReplayResult,
  type ReplaySummary,
  type ReplayTiming,
  type RunSet,
  replayRuns,
  sessionDocuments,
  summarizeReplay,
  thresholdRule,
} from './longmemeval/replay.js';
export {
  buildRetrievalCorpus,
  type LongMemEvalDocumentMetadata,
  type RetrievalCorpus,
  type RetrievalLevel,
} from './longmemeval/retrieval-corpus.js';
export {
  evaluateRetrieval,
  type QuestionRetrievalResult,
  type RetrievalEvaluation,
  type RetrievalEvaluationOptions,
  type RetrievalMetrics,
} from './longmemeval/retrieval-evaluation.js';
export {
  type RankingScores,
  retrievalCutoffs,
  scoreRanking,
  scoreTurnRankingBySession,
} from './longmemeval/retrieval-metrics.js';
export {
  type LongMemEvalRetrievalRun,
  type LongMemEvalRetrievalRunOptions,
  runLongMemEvalRetrieval,
} from './longmemeval/retrieval-run.js';
export {
  createLongMemEvalRetriever,
  type LongMemEvalRetrieverOptions,
  longMemEvalFullTextOptions,
  type RetrieverKind,
  retrieverKinds,
} from './longmemeval/retrievers.js';
export {
  formatIssues,
  isAbstentionQuestion,
  type LongMemEvalQuestion,
  type LongMemEvalRunEntry,
  type LongMemEvalTurn,
  longMemEvalQuestionSchema,
  longMemEvalRunEntrySchema,
  longMemEvalTurnSchema,
} from './longmemeval/schema.js';
export { type QuestionSplit, questionSplit } from './longmemeval/split.js';
