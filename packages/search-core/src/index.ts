export {
  type CoverageOptions,
  type EvidenceCoverage,
  measureCoverage,
  type TermCoverage,
} from './coverage/evidence-coverage.js';
export { getLexicon, type Lexicon, type NounClass, type TaggedWord } from './coverage/lexicon.js';
export {
  extractSpecificTerms,
  isAdviceRequest,
  type SpecificTerm,
  type SpecificTermKind,
} from './coverage/question-terms.js';
export {
  ABSTENTION_ANSWER,
  type AbstainingAnswer,
  type ReaderInput,
  withAbstention,
} from './detector/abstaining-reader.js';
export {
  ABSTENTION_REASONS,
  AbstentionDetector,
  type AbstentionDetectorConfig,
  type AbstentionInput,
  type AbstentionReason,
  type AbstentionResult,
  type AbstentionSignal,
  DEFAULT_DETECTOR_CONFIG,
  type GroundingLayerTrace,
  type HedgingLayerTrace,
  missingTermConfidence,
  type RetrievalLayerTrace,
  retrievalScoreSignal,
  strongestSignal,
} from './detector/abstention-detector.js';
export {
  ADMISSION_PATTERNS,
  ASK_PATTERNS,
  createHedgingAssessor,
  HEDGE_PATTERNS,
  HEDGE_WEIGHTS,
  type HedgeCue,
  type HedgeCueKind,
  type HedgingAssessment,
  type HedgingOptions,
  OFFER_PATTERNS,
  OFFER_QUESTION_PATTERNS,
} from './detector/hedging.js';
export {
  DEFAULT_EMBEDDING_MODEL_ID,
  type EmbedderOptions,
  loadEmbedder,
  TransformersEmbedder,
} from './embedding/transformers-embedder.js';
export { type MissingModel, SearchCoreError, SearchCoreErrorCode } from './errors.js';
export {
  checkGrounding,
  DEFAULT_NLI_THRESHOLD,
  type EvidenceWindow,
  type GroundingInput,
  type GroundingOptions,
  type GroundingResult,
  type SentenceGrounding,
} from './nli/grounding.js';
export {
  MODEL_DTYPES,
  type ModelDtype,
  type TransformersModelOptions,
} from './nli/load-transformers-pipeline.js';
export {
  NLI_LABELS,
  type NliLabel,
  type NliModel,
  type NliPair,
  type NliScores,
  topLabel,
} from './nli/nli-model.js';
export { splitSentences, type TextSpan } from './nli/sentences.js';
export {
  DEFAULT_NLI_MODEL_ID,
  loadNliModel,
  type NliModelOptions,
  TransformersNliModel,
} from './nli/transformers-nli-model.js';
export { splitIntoWindows, type TextWindow, type WindowOptions } from './nli/windows.js';
export { Analyzer, type AnalyzerOptions, defaultAnalyzer } from './retrieval/analyzer.js';
export { DenseIndex, type DenseIndexOptions } from './retrieval/dense-index.js';
export {
  type FullTextField,
  FullTextIndex,
  type FullTextIndexOptions,
  type QueryTerm,
} from './retrieval/full-text-index.js';
export {
  type HybridComponent,
  HybridRetriever,
  type HybridRetrieverOptions,
} from './retrieval/hybrid-retriever.js';
export { englishStopWords } from './retrieval/stop-words.js';
export type {
  Embedder,
  RetrievalDocument,
  RetrievalHit,
  Retriever,
  SearchOptions,
} from './retrieval/types.js';
