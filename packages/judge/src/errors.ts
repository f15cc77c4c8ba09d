import { ErrorKind, QualmError } from '@qualm/errors';
import type { TokenUsage } from './usage.js';

/** Error codes of @qualm/judge. */
export const JudgeErrorCode = {
  /** The endpoint could not be reached, or kept failing with 5xx after every attempt. */
  ENDPOINT_UNAVAILABLE: 'ENDPOINT_UNAVAILABLE',
  /** The endpoint kept answering 429 after every attempt. */
  RATE_LIMITED: 'RATE_LIMITED',
  /** No answer within the timeout, on every attempt. */
  TIMEOUT: 'TIMEOUT',
  /** The endpoint's reply was not a chat completion (a body that is not JSON, no `choices`) on every attempt. */
  MALFORMED_REPLY: 'MALFORMED_REPLY',
  /** The endpoint URL cannot work: not an http(s) URL, a port fetch refuses, nothing listening, no such host. */
  INVALID_ENDPOINT: 'INVALID_ENDPOINT',
  /** The endpoint answered 404: the model or the path (often a missing `/v1`) does not exist there. */
  ENDPOINT_NOT_FOUND: 'ENDPOINT_NOT_FOUND',
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
  /** Something failed that should not have: a bug. */
  INTERNAL: 'INTERNAL',
} as const;

/** One of the codes in {@link JudgeErrorCode}. */
export type JudgeErrorCode = (typeof JudgeErrorCode)[keyof typeof JudgeErrorCode];

/** The kind of failure each code is: what a batch does with it and the exit status of the CLI. */
export const judgeErrorKinds: Readonly<Record<JudgeErrorCode, ErrorKind>> = {
  ENDPOINT_UNAVAILABLE: ErrorKind.UNAVAILABLE,
  RATE_LIMITED: ErrorKind.UNAVAILABLE,
  TIMEOUT: ErrorKind.UNAVAILABLE,
  MALFORMED_REPLY: ErrorKind.UNAVAILABLE,
  INVALID_ENDPOINT: ErrorKind.SETUP,
  ENDPOINT_NOT_FOUND: ErrorKind.SETUP,
  REQUEST_REJECTED: ErrorKind.FAILED,
  AUTHENTICATION_FAILED: ErrorKind.SETUP,
  INVALID_RESPONSE: ErrorKind.FAILED,
  INVALID_TEMPLATE: ErrorKind.SETUP,
  INVALID_CONFIG: ErrorKind.SETUP,
  INVALID_INPUT: ErrorKind.INVALID_INPUT,
  MISSING_CREDENTIALS: ErrorKind.SETUP,
  ABORTED: ErrorKind.ABORTED,
  INTERNAL: ErrorKind.INTERNAL,
};

const marker = 'qualm.error.judge';
const markerSymbol = Symbol.for(marker);

/** The one error class of @qualm/judge: a `code`, a message that names what is wrong, `cause` kept. */
export class JudgeError extends QualmError {
  readonly [markerSymbol] = true;
  override readonly name = 'JudgeError';
  declare readonly code: JudgeErrorCode;
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
    super({ code, kind: judgeErrorKinds[code], message, cause: options.cause });
    this.status = options.status;
    this.attempts = options.attempts;
    this.usage = options.usage;
  }

  /** Whether a value is a JudgeError, from any installed copy of this package. */
  static override isInstance(value: unknown): value is JudgeError {
    return QualmError.hasMarker(value, marker);
  }
}

/** Whether an error is a {@link JudgeError}, optionally with one of the given codes. */
export function isJudgeError(error: unknown, ...codes: JudgeErrorCode[]): error is JudgeError {
  return JudgeError.isInstance(error) && (codes.length === 0 || codes.includes(error.code));
}
