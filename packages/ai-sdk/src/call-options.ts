import { AiSdkError, AiSdkErrorCode } from './errors.js';
import type { CallOptionsLike, PromptMessageLike } from './sdk-types.js';

/** What a call passes to the middleware in `providerOptions.qualm`. */
export interface QualmCallOptions {
  /** The retrieved evidence the answer should rest on; turns the abstention check on. */
  evidence?: string | readonly string[];
  /** The question the evidence was retrieved for (default: the last user message's text). */
  question?: string;
}

/** A call's options as the middleware uses them. */
export interface CallReading {
  expectJson: boolean;
  evidence: string[] | undefined;
  question: string;
}

/** Reads `providerOptions.qualm` and the prompt; a malformed value is an INVALID_INPUT error. */
export function readCall(params: CallOptionsLike): CallReading {
  const raw = params.providerOptions?.qualm;
  const own: Record<string, unknown> = raw ?? {};
  if (typeof own !== 'object' || own === null || Array.isArray(own)) {
    throw invalid(`providerOptions.qualm must be an object, got ${describe(own)}`);
  }
  // a misspelt key (`evidense`) would turn the abstention check off without a word
  const unknown = Object.keys(own).find((key) => key !== 'evidence' && key !== 'question');
  if (unknown !== undefined) {
    throw invalid(
      `providerOptions.qualm has an unknown key "${unknown}" (it reads evidence, question)`,
    );
  }
  const { evidence, question } = own;
  let texts: string[] | undefined;
  if (typeof evidence === 'string') {
    texts = [evidence];
  } else if (Array.isArray(evidence)) {
    const wrong = evidence.findIndex((item) => typeof item !== 'string');
    if (wrong !== -1) {
      throw invalid(
        `providerOptions.qualm.evidence[${wrong}] must be a string, got ${describe(evidence[wrong])}`,
      );
    }
    texts = evidence as string[];
  } else if (evidence !== undefined) {
    throw invalid(
      `providerOptions.qualm.evidence must be a string or a list of strings, got ${describe(evidence)}`,
    );
  }
  if (question !== undefined && typeof question !== 'string') {
    throw invalid(`providerOptions.qualm.question must be a string, got ${describe(question)}`);
  }
  return {
    expectJson: params.responseFormat?.type === 'json',
    evidence: texts,
    question: question ?? lastUserText(params.prompt),
  };
}

/** The text of the last user message of a prompt, its text parts joined by line breaks. */
export function lastUserText(prompt: readonly PromptMessageLike[]): string {
  for (let index = prompt.length - 1; index >= 0; index -= 1) {
    const message = prompt[index]!;
    if (message.role !== 'user') continue;
    if (typeof message.content === 'string') return message.content;
    if (!Array.isArray(message.content)) return '';
    return message.content
      .filter(
        (part): part is { type: 'text'; text: string } =>
          typeof part === 'object' &&
          part !== null &&
          part.type === 'text' &&
          typeof part.text === 'string',
      )
      .map((part) => part.text)
      .join('\n');
  }
  return '';
}

function invalid(message: string): AiSdkError {
  return new AiSdkError(AiSdkErrorCode.INVALID_INPUT, message);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? `"${value.slice(0, 40)}"` : typeof value;
}
