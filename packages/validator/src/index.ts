export type { PatternDefinition } from './default-patterns.js';
export { DEFAULT_PATTERNS, phrase } from './default-patterns.js';
export { ValidatorError, ValidatorErrorCode } from './errors.js';
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
