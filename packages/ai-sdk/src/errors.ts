import { ErrorKind, QualmError } from '@qualm/errors';
import type { QualmMetadata } from './metadata.js';

/** Error codes of @qualm/ai-sdk. */
export const AiSdkErrorCode = {
  /** An option of `qualmMiddleware` is missing, of the wrong kind or inconsistent. */
  INVALID_OPTIONS: 'INVALID_OPTIONS',
  /** `providerOptions.qualm` of a call is not what the middleware reads. */
  INVALID_INPUT: 'INVALID_INPUT',
  /** Evidence was given but no abstention detector is configured or installed. */
  ABSTENTION_UNAVAILABLE: 'ABSTENTION_UNAVAILABLE',
  /** The answer was flagged and the policy is `throw`. */
  ANSWER_FLAGGED: 'ANSWER_FLAGGED',
} as const;

/** One of the codes in {@link AiSdkErrorCode}. */
export type AiSdkErrorCode = (typeof AiSdkErrorCode)[keyof typeof AiSdkErrorCode];

const kinds: Record<AiSdkErrorCode, ErrorKind> = {
  INVALID_OPTIONS: ErrorKind.SETUP,
  INVALID_INPUT: ErrorKind.INVALID_INPUT,
  ABSTENTION_UNAVAILABLE: ErrorKind.SETUP,
  ANSWER_FLAGGED: ErrorKind.FAILED,
};

const marker = 'qualm.error.ai-sdk';
const markerSymbol = Symbol.for(marker);

/** A problem raised on purpose by @qualm/ai-sdk, with a code and a message fit to print. */
export class AiSdkError extends QualmError {
  readonly [markerSymbol] = true;
  override readonly name: string = 'AiSdkError';
  declare readonly code: AiSdkErrorCode;

  constructor(code: AiSdkErrorCode, message: string, options: { cause?: unknown } = {}) {
    super({ code, kind: kinds[code], message, cause: options.cause });
  }

  /** Whether a value is an AiSdkError, from any installed copy of this package. */
  static override isInstance(value: unknown): value is AiSdkError {
    return QualmError.hasMarker(value, marker);
  }
}

const flaggedMarker = 'qualm.error.ai-sdk.flagged-answer';
const flaggedMarkerSymbol = Symbol.for(flaggedMarker);

/**
 * Thrown by the `throw` policy when an answer is flagged: from `generateText` and
 * `generateObject`, and as the error of a stream after its last text part. Carries the assessment
 * and the answer's text.
 */
export class FlaggedAnswerError extends AiSdkError {
  readonly [flaggedMarkerSymbol] = true;
  override readonly name = 'FlaggedAnswerError';
  /** What qualm found: the same object `providerMetadata.qualm` holds under other policies. */
  readonly assessment: QualmMetadata;
  /** The text of the flagged answer. */
  readonly text: string;

  constructor(assessment: QualmMetadata, text: string) {
    super(AiSdkErrorCode.ANSWER_FLAGGED, `the answer was flagged: ${flagSummary(assessment)}`);
    this.assessment = assessment;
    this.text = text;
  }

  /** Whether a value is a FlaggedAnswerError, from any installed copy of this package. */
  static override isInstance(value: unknown): value is FlaggedAnswerError {
    return QualmError.hasMarker(value, flaggedMarker);
  }
}

function flagSummary(assessment: QualmMetadata): string {
  const parts: string[] = [];
  if (assessment.shouldEscalate) parts.push(assessment.reason);
  if (assessment.abstention?.shouldAbstain) parts.push(assessment.abstention.details);
  return parts.join('; ');
}
