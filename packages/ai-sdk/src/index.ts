export { AnswerReader, type AnswerValidators } from './answer-reader.js';
export { lastUserText, type QualmCallOptions } from './call-options.js';
export { AiSdkError, AiSdkErrorCode, FlaggedAnswerError } from './errors.js';
export type {
  AbstentionVerdict,
  QualmAssessment,
  QualmMetadata,
  QualmPolicy,
  QualmSignal,
} from './metadata.js';
export {
  type AbstentionDetectorLike,
  defaultRetryInstruction,
  type QualmMiddleware,
  type QualmMiddlewareOptions,
  qualmMiddleware,
} from './middleware.js';
export type {
  CallOptionsLike,
  ContentLike,
  GenerateResultLike,
  LanguageModelLike,
  PromptMessageLike,
  ProviderRecord,
  StreamPartLike,
  StreamResultLike,
} from './sdk-types.js';
