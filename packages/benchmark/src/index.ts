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
export {
  type EvaluationOptions,
  type EvaluationRun,
  type JudgedQuestion,
  type JudgeHypothesisOptions,
  type JudgeVerdict,
  judgeHypothesis,
  judgeLabel,
  judgePrompt,
  resolveJudgeModel,
  runEvaluation,
} from './longmemeval/evaluator.js';
export { FLAT_BM25_PARAMETERS, FlatBm25Index } from './longmemeval/flat-bm25.js';
export {
  DEFAULT_HISTORY_TOP_K,
  formatHistory,
  type HistoryChunk,
  type HistoryContent,
  type HistoryFormat,
  type HistoryOptions,
  type HistorySource,
  type HistoryTurn,
  historyFormats,
  historySources,
  rankCorpusIds,
  selectHistory,
} from './longmemeval/history.js';
export {
  CONTEXT_RESERVE_TOKENS,
  countsWithO200k,
  defaultHistoryTokenizer,
  folderTokenizer,
  type HistoryFit,
  type HistoryTokenizer,
  historyTokenBudget,
  loadHistoryTokenizer,
  MODEL_CONTEXT_LIMITS,
  modelContextLimit,
  o200kTokenizer,
  READER_MODEL_ALIASES,
} from './longmemeval/history-truncation.js';
export { JsonArraySplitter, JsonArraySyntaxError } from './longmemeval/json-array-splitter.js';
export {
  ABSTENTION_JUDGE_TEMPLATE,
  DEFAULT_JUDGE_MODEL,
  FACTUAL_JUDGE_TEMPLATE,
  JUDGE_MAX_TOKENS,
  JUDGE_MODEL_ALIASES,
  JUDGE_TEMPLATES_BY_TYPE,
  KNOWLEDGE_UPDATE_JUDGE_TEMPLATE,
  PREFERENCE_JUDGE_TEMPLATE,
  TEMPORAL_JUDGE_TEMPLATE,
} from './longmemeval/judge-prompts.js';
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
  numpyMean,
  numpyRound,
  numpySum,
  PythonFloat,
  pythonFloatRepr,
  pythonJsonDumps,
  pythonStrip,
  roundHalfEven,
} from './longmemeval/python-format.js';
export {
  computeQaMetrics,
  isExplicitAbstention,
  type JudgedAnswer,
  type QaMetrics,
  QUESTION_TYPES,
} from './longmemeval/qa-metrics.js';
export {
  buildReaderPrompt,
  checkReaderOptions,
  type ReaderOptions,
  type ReaderPrompt,
  type ReaderRecord,
  type ReaderRun,
  type ReaderRunOptions,
  readQuestion,
  resolveContextLimit,
  runReader,
} from './longmemeval/reader.js';
export {
  DIRECT_READER_TEMPLATE,
  fillTemplate,
  NO_HISTORY_READER_TEMPLATE,
  NO_HISTORY_STEP_BY_STEP_SUFFIX,
  NOTE_EXTRACTION_TEMPLATE,
  NOTE_MAX_TOKENS,
  READER_MAX_TOKENS,
  type ReadingMethod,
  readerMaxTokens,
  readingMethods,
  STEP_BY_STEP_READER_TEMPLATE,
} from './longmemeval/reader-prompts.js';
export {
  type AbstentionRule,
  counterfactualAnswer,
  judgeReplayedAnswers,
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
  abstentionChart,
  accuracyChart,
  type LongMemEvalReport,
  type LongMemEvalReportOptions,
  type ReportChart,
  type ReportRun,
  readCalibrationReport,
  reportHtml,
  reportMarkdown,
  runNames,
  writeLongMemEvalReport,
} from './longmemeval/report.js';
export type { ResumableRun } from './longmemeval/resumable-output.js';
export {
  buildRetrievalCorpus,
  type LongMemEvalDocumentMetadata,
  type RetrievalCorpus,
  type RetrievalLevel,
} from './longmemeval/retrieval-corpus.js';
export {
  completeRanking,
  evaluateRetrieval,
  type QuestionRetrievalResult,
  type RankedQuestion,
  type RetrievalEvaluation,
  type RetrievalEvaluationOptions,
  type RetrievalMetrics,
} from './longmemeval/retrieval-evaluation.js';
export {
  openRetrievalLog,
  partialRetrievalLogPath,
  type RetrievalLog,
  type RetrievalLogWriter,
  readRetrievalLog,
  retrievalLogLine,
} from './longmemeval/retrieval-log.js';
export {
  type RankingScoreOptions,
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
  needsEmbedder,
  type RetrieverKind,
  retrieverKinds,
} from './longmemeval/retrievers.js';
export {
  type EvalResultLine,
  evalResultLineSchema,
  falseAbstentionLine,
  type HypothesisLine,
  hypothesisLineSchema,
  loadQuestionTypes,
  type QaMetricsFigure,
  type QaMetricsLine,
  qaMetricsLines,
  qaMetricsMarkdown,
  qaMetricsText,
  questionTypesOf,
  type RunScore,
  readEvalResults,
  readRunRecords,
  scoreEvalResults,
  scoreRunFile,
} from './longmemeval/run-metrics.js';
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
export { percentile } from './percentile.js';
