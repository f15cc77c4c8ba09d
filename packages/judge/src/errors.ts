import type { TokenUsage } from './usage.js';

/** Error codes of @qualm/judge. */
export const JudgeErrorCode = {
  /** The endpoint could not be reached, or kept failing with 5xx after every attempt. */
  JUDGE_UNAVAILABLE: 'JUDGE_UNAVAILABLE',
  /** The endpoint kept answering 429 after every attempt. */
  RATE_LIMITED: 'RATE_LIMITED',
  /** No answer within the timeout, on every attempt. */
  TIMEOUT: 'TIMEOUT',
  /** The endpoint rejected the request (a 4xx that retrying cannot fix). */
  REQUEST_REJECTED: 'REQUEST_REJECTED',
  /** The endpoint rejected the API key (401 or 403). */
  AUTHENTICATION_FAILED: 'AUTHENTICATION_FAILED',
  /** The model's reply could not be read or did not match the schema after every re-ask. */
  INVALID_RESPONSE: 'INVALID_RESPONSE',
  /** A template that is not a zod object schema, or a JSON Schema that cannot become one. */
  INVALID_TEMPLATE: 'INVALID_TEMPLATE',
  /** A configuration value out of range or of the wrong kind. */
  INVALID_CONFIG: 'INVALID_CONFIG',
  /** An item to verify that is missing what its stage needs. */
  INVALID_INPUT: 'INVALID_INPUT',
  /** No API key was given and `OPENAI_API_KEY` is not set. */
  MISSING_CREDENTIALS: 'MISSING_CREDENTIALS',
  /** The caller aborted the call. */
  ABORTED: 'ABORTED',
} as const;

/** One of the codes in {@link JudgeErrorCode}. */
export type JudgeErrorCode = (typeof JudgeErrorCode)[keyof typeof JudgeErrorCode];

/** The one error class of @qualm/judge: a `code`, a message that names what is wrong, `cause` kept. */
export class JudgeError extends Error {
  override readonly name = 'JudgeError';
  readonly code: JudgeErrorCode;
  /** HTTP status of the last failed request, when there was one. */
  readonly status: number | undefined;
  /** Requests sent before giving up, retries included. */
  readonly attempts: number | undefined;
  /** Tokens spent on the way to this error (replies that could not be used still cost tokens). */
  readonly usage: TokenUsage | undefined;

  constructor(
    code: JudgeErrorCode,
    message: string,
    options: { cause?: unknown; status?: number; attempts?: number; usage?: TokenUsage } = {},
  ) {
    super(message, { cause: options.cause });
    this.code = code;
    this.status = options.status;
    this.attempts = options.attempts;
    this.usage = options.usage;
  }
}

/** Whether an error is a {@link JudgeError}, optionally with one of the given codes. */
export function isJudgeError(error: unknown, ...codes: JudgeErrorCode[]): error is JudgeError {
  return error instanceof JudgeError && (codes.length === 0 || codes.includes(error.code));
}
