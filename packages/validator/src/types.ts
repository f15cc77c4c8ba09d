import type { LearnedOption } from './learned/layer.js';

/** The kinds of evidence that an answer should not be trusted as it stands. */
export const SIGNAL_TYPES = [
  'confusion',
  'refusal',
  'low_confidence',
  'empty_response',
  'tool_failure',
  'incomplete_reasoning',
  'hallucination_risk',
] as const;

/** One of {@link SIGNAL_TYPES}. */
export type SignalType = (typeof SIGNAL_TYPES)[number];

/** The weight of each signal type: the share of trust one cue of that type removes. */
export const DEFAULT_WEIGHTS: Readonly<Record<SignalType, number>> = Object.freeze({
  confusion: 0.6,
  refusal: 0.75,
  low_confidence: 0.4,
  empty_response: 0.8,
  tool_failure: 0.9,
  incomplete_reasoning: 0.5,
  hallucination_risk: 0.85,
});

/** Score below which a response escalates, in normal and in strict mode. */
export const ESCALATION_THRESHOLDS = Object.freeze({ normal: 0.7, strict: 0.75 });

/** A response with more signals than this escalates whatever its score. */
export const MAX_SIGNALS_BEFORE_ESCALATION = 3;

/** How sure the assessment is, by number of signals found: 0, 1, 2, 3, 4 or more. */
export const ASSESSMENT_CONFIDENCE: readonly number[] = Object.freeze([0.9, 0.85, 0.8, 0.75, 0.65]);

/** Where in a response a pattern counts: anywhere, or only in its opening. */
export type PatternRegion = 'anywhere' | 'lead';

/** A pattern as a caller gives it: a RegExp, a regular-expression source, or either with a weight. */
export type PatternInput =
  | RegExp
  | string
  | { pattern: RegExp | string; weight?: number; region?: PatternRegion };

/** Extra patterns per signal type. */
export type CustomPatterns = Partial<Record<SignalType, readonly PatternInput[]>>;

/** Options of a validator. */
export interface ValidatorOptions {
  /** A trimmed response shorter than this many characters is an empty response (default 20). */
  minLength?: number;
  /** Escalate below 0.75 instead of 0.7. */
  strictMode?: boolean;
  /** Extra patterns per signal type; they are checked for catastrophic backtracking. */
  customPatterns?: CustomPatterns;
  /** Use the built-in patterns (default true); false keeps only `customPatterns`. */
  defaultPatterns?: boolean;
  /**
   * How many characters from the first non-blank one count as the opening of a response, where
   * refusal cues are read (default 400). Deeper in a long answer they are caveats, not refusals.
   */
  leadLength?: number;
  /**
   * A learned classifier beside the patterns: `true` for the model that ships with the package,
   * `{ model }` for one trained with `trainModel` or `qualm train` (bytes or a path), with an
   * optional `threshold`. The model is read at the first response, once. Off by default.
   */
  learned?: LearnedOption;
}

/** What found a signal: the patterns (and the length rule), or the learned model. */
export type SignalSource = 'pattern' | 'learned';

/** One piece of evidence found in a response. */
export interface Signal {
  type: SignalType;
  /** The text that matched. */
  evidence: string;
  /** The share of trust this cue removes, from 0 to 1. */
  weight: number;
  /** Offset of the evidence in the response, in UTF-16 code units. */
  position: number;
  /** The evidence with some surrounding text, on one line. */
  context: string;
  /** What found it. A learned signal's evidence is the sentence that weighed most. */
  source: SignalSource;
  /** For a learned signal, the model's probability of its type. */
  probability?: number;
}

/** The assessment of one response. */
export interface ResponseQuality {
  /** From 0 to 1, higher is better: the product of (1 - weight) over the signals. */
  score: number;
  /** The signals, in order of position. */
  signals: Signal[];
  shouldEscalate: boolean;
  /** Why the response escalates, or why it does not. */
  reason: string;
  /** How sure the assessment is: fewer signals, surer. */
  assessmentConfidence: number;
  /** What to do about the response. */
  feedback: string;
}

/** Aggregate figures over many assessments. */
export interface QualitySummary {
  total: number;
  escalated: number;
  averageScore: number;
  /** escalated / total (0 when there is nothing). */
  escalationRate: number;
  /** Signal types by how many responses carry them, most frequent first. */
  commonIssues: { type: SignalType; count: number; share: number }[];
}
