export type { PatternDefinition } from './default-patterns.js';
export { DEFAULT_PATTERNS, phrase } from './default-patterns.js';
export { ValidatorError, ValidatorErrorCode } from './errors.js';
export type { FeatureSettings } from './learned/features.js';
export type { LearnedOption, LearnedOptions } from './learned/layer.js';
export type { ModelInput } from './learned/load.js';
export { readLearnedModel } from './learned/load.js';
export type { LearnedLabel, LearnedModel, TrainingSettings } from './learned/model-file.js';
export type {
  LabelReport,
  TrainingExample,
  TrainOptions,
  TrainResult,
} from './learned/train.js';
export { DEFAULT_FEATURES, evaluateModel, trainModel } from './learned/train.js';
export type { StreamingValidator } from './streaming.js';
export type { SummarizableResult } from './summary.js';
export { getQualitySummary } from './summary.js';
export type {
  CustomPatterns,
  PatternInput,
  PatternRegion,
  QualitySummary,
  ResponseQuality,
  Signal,
  SignalSource,
  SignalType,
  ValidatorOptions,
} from './types.js';
export {
  ASSESSMENT_CONFIDENCE,
  DEFAULT_WEIGHTS,
  ESCALATION_THRESHOLDS,
  MAX_SIGNALS_BEFORE_ESCALATION,
  SIGNAL_TYPES,
} from './types.js';
export type { ResolvedValidatorOptions, Validator } from './validator.js';
export {
  createStreamingValidator,
  createValidator,
  validateResponse,
  validateResponses,
} from './validator.js';
