// The reader's prompt templates, copied verbatim from the official harness:
// github.com/xiaowu0162/LongMemEval, src/generation/run_generation.py (`prepare_prompt`, the
// templates used without fact expansion) and src/generation/run_generation.sh (reading methods).
// Each `{}` is filled in order, as Python's `str.format` fills positional fields.

/** How the reader answers: the official reading methods. */
export type ReadingMethod = 'direct' | 'cot' | 'con';

/** The reading methods, for option parsing. */
export const readingMethods: readonly ReadingMethod[] = ['direct', 'cot', 'con'];

/** The answer prompt without step-by-step reasoning (`--cot false`); fields: history, date, question. */
export const DIRECT_READER_TEMPLATE =
  'I will give you several history chats between you and a user. Please answer the question based on the relevant chat history.\n\n\nHistory Chats:\n\n{}\n\nCurrent Date: {}\nQuestion: {}\nAnswer:';

/** The step-by-step answer prompt (`--cot true`); fields: history, date, question. */
export const STEP_BY_STEP_READER_TEMPLATE =
  'I will give you several history chats between you and a user. Please answer the question based on the relevant chat history. Answer the question step by step: first extract all the relevant information, and then reason over the information to get the answer.\n\n\nHistory Chats:\n\n{}\n\nCurrent Date: {}\nQuestion: {}\nAnswer (step by step):';

/** The prompt without any history (`no-retrieval`); field: question. */
export const NO_HISTORY_READER_TEMPLATE = '{}';

/** Appended, without a space, to the no-history prompt in step-by-step reading. */
export const NO_HISTORY_STEP_BY_STEP_SUFFIX = 'Answer step by step.';

/**
 * The chain-of-note prompt (`--con true`) that turns each history chunk into a reading note before
 * the answer; fields: session date, the chunk as JSON, question date, question.
 */
export const NOTE_EXTRACTION_TEMPLATE =
  'I will give you a chat history between you and a user, as well as a question from the user. Write reading notes to extract all the relevant user information relevant to answering the answer. If no relevant information is found, just output "empty". \n\n\nChat History:\nSession Date: {}\nSession Content:\n{}\n\nQuestion Date: {}\nQuestion: {}\nExtracted note (information relevant to answering the question):';

/**
 * Reply length of the answer call, in tokens: 800 for every reading method. The harness means 500
 * for direct reading (`500 if not args.cot else 800`), but `args.cot` is the string `'false'`,
 * which Python reads as true, so what it sends, and what published numbers used, is always 800.
 */
export const READER_MAX_TOKENS = 800;

/** Reply length of the answer call for a reading method: {@link READER_MAX_TOKENS} for all of them. */
export function readerMaxTokens(_method: ReadingMethod): number {
  return READER_MAX_TOKENS;
}

/** Reply length of each chain-of-note extraction call, in tokens. */
export const NOTE_MAX_TOKENS = 500;

/** Fills the `{}` fields of a template in order; text in the values is never read as a field. */
export function fillTemplate(template: string, values: readonly string[]): string {
  const parts = template.split('{}');
  if (parts.length - 1 !== values.length) {
    throw new Error(`template has ${parts.length - 1} fields, got ${values.length} values`);
  }
  return parts.map((part, index) => part + (index < values.length ? values[index] : '')).join('');
}
