export {
  type AssertionContext,
  type GradingResult,
  gradeAbstention,
  gradeAnswer,
  type IsNotAbstentionOptions,
  isNotAbstention,
  type NotEscalatedOptions,
  notEscalated,
} from './assertions.js';
export { PromptfooError, PromptfooErrorCode } from './errors.js';
