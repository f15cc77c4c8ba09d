export { ErrorKind, isTransient, QualmError } from '@qualm/errors';
export {
  type BatchProgress,
  resultPassed,
  type SummarizableResult,
  summarizeResults,
  type VerificationSummary,
  type VerifyManyOptions,
  verifyMany,
  verifyStream,
} from './batch.js';
export {
  type BatchOutcome,
  type BatchRun,
  defaultEndpointFailuresToStop,
  type EndpointStop,
  type FailureAction,
  failureAction,
  failureOf,
  type RunBatchOptions,
  type RunFailure,
  type RunProgress,
  runBatch,
} from './batch-run.js';
export {
  abstentionVerdictSchema,
  type CheckOptions,
  type CheckOutcome,
  checkAbstention,
  checkSufficiency,
  type SufficiencyOutcome,
  sufficiencyVerdictSchema,
} from './checks.js';
export {
  type ChatClient,
  type ChatClientOptions,
  type ChatMessage,
  type CompleteOptions,
  type CompleteStructuredOptions,
  type CompletionResult,
  createChatClient,
  formatIssues,
  jsonSchemaOf,
  type MaxTokensParameter,
  maxTokensParameters,
  type StructuredOutputMode,
  type StructuredResult,
} from './client.js';
export {
  checkConcurrency,
  type MapConcurrentlyOptions,
  mapConcurrently,
} from './concurrency.js';
export {
  EvaluationMode,
  evaluationModes,
  type PromptConfig,
  VerificationConfig,
  type VerificationConfigInput,
  type VerificationOverrides,
} from './config.js';
export { isJudgeError, JudgeError, JudgeErrorCode, judgeErrorKinds } from './errors.js';
export { extractJson, type JsonExtraction } from './json-extraction.js';
export {
  type AgentTrace,
  Stage,
  type StageError,
  type StageName,
  type StageRecord,
  type StageStatus,
  stageOrder,
  type VerificationItem,
  type VerificationResult,
  type VerifyOptions,
  verify,
} from './pipeline.js';
export {
  abstentionSystemPrompt,
  buildAbstentionMessages,
  buildAnsweringMessages,
  buildParsingMessages,
  buildRubricMessages,
  buildSufficiencyMessages,
  customInstructionsHeading,
  dataBlock,
  escapeDelimiters,
  type JudgePromptInput,
  parsingSystemPrompt,
  rubricSystemPrompt,
  sufficiencySystemPrompt,
  withCustomInstructions,
} from './prompts.js';
export {
  openResumableOutput,
  type ResumableOutput,
  type ResumableOutputOptions,
} from './resumable-output.js';
export {
  type BackoffOptions,
  backoffDelay,
  parseRetryAfter,
  resolveBackoff,
} from './retry.js';
export {
  evaluateRubric,
  parseRubric,
  type Rubric,
  type RubricScores,
  type RubricTrait,
  rubricSchema,
  rubricVerdictSchema,
} from './rubric.js';
export {
  checkExpected,
  compareToExpected,
  defineTemplate,
  type ExpectedComparison,
  type JsonSchemaTemplateOptions,
  type Template,
  type TemplateField,
  templateFields,
  templateFromJsonSchema,
  type VerifyContext,
  validateTemplate,
} from './template.js';
export { addUsage, emptyUsage, type TokenUsage } from './usage.js';
export {
  type ReadVerificationItemsOptions,
  readVerificationItems,
  runVerificationBatch,
  type VerificationBatchOptions,
  type VerificationBatchRun,
  type VerificationInputItem,
  type VerificationRecord,
  verificationInputSchema,
  verificationRecord,
} from './verification-batch.js';
