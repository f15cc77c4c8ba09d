import { measureCoverage, type TermCoverage } from '../coverage/evidence-coverage.js';
import type { Lexicon } from '../coverage/lexicon.js';
import { isAdviceRequest, type SpecificTerm } from '../coverage/question-terms.js';
import { SearchCoreError, SearchCoreErrorCode } from '../errors.js';
import { checkGrounding, DEFAULT_NLI_THRESHOLD, type GroundingResult } from '../nli/grounding.js';
import type { NliModel } from '../nli/nli-model.js';
import type { RetrievalHit } from '../retrieval/types.js';
import {
  createHedgingAssessor,
  HEDGE_WEIGHTS,
  type HedgeCue,
  type HedgingAssessment,
  type HedgingOptions,
} from './hedging.js';

/** Every reason the detector can give, layer by layer, for reports that list each one. */
export const ABSTENTION_REASONS = [
  'no_results',
  'low_retrieval_score',
  'no_score_gap',
  'low_coverage',
  'not_grounded',
  'hedging_detected',
] as const;

/** Why the detector says the answer should not be trusted. */
export type AbstentionReason = (typeof ABSTENTION_REASONS)[number];

/** Configuration of an {@link AbstentionDetector}; every layer can be switched off. */
export interface AbstentionDetectorConfig {
  /** Layer 1, retrieval confidence: its score checks and its coverage check (default true). */
  useRetrieval?: boolean;
  /**
   * The score checks of layer 1 as first designed: abstain with no results, a top score under
   * `minRetrievalScore`, or a top score under 0.5 within `minScoreGap` of the second. Off by
   * default: on LongMemEval they abstain on many answerable questions (see the package README).
   */
  useScoreThreshold?: boolean;
  /** Top normalised retrieval score below which the score check fires (0.3). */
  minRetrievalScore?: number;
  /** Gap between the first two scores below which a weak top score fires (0.1). */
  minScoreGap?: number;
  /** The coverage check of layer 1: are the question's specific terms in the evidence (true). */
  useCoverage?: boolean;
  /** How many of the best hits form the evidence that coverage and grounding read (5). */
  evidenceHits?: number;
  /** Layer 2, grounding of the answer in the evidence by NLI (default true; needs `nliModel`). */
  useNLI?: boolean;
  /** The NLI model of layer 2; without it layer 2 is skipped and says so. */
  nliModel?: NliModel;
  /** Neutral probability above which a sentence is not grounded (0.7). */
  nliThreshold?: number;
  /** Layer 3, hedging and non-answers in the answer (default true). */
  useHedging?: boolean;
  /** Extra hedging and non-answer patterns for layer 3. */
  hedgingPatterns?: HedgingOptions;
  /** Abstain when the strongest signal's confidence reaches this (0.9). */
  abstentionThreshold?: number;
  /** Lexicon for the coverage check; the shared one by default. */
  lexicon?: Lexicon;
}

/** What the detector judges: a question, the answer given, and the evidence retrieved for it. */
export interface AbstentionInput {
  question: string;
  /** The generated answer; layers 2 and 3 need it. */
  answer?: string;
  /** Retrieved hits, best first, with normalised scores. */
  hits?: readonly RetrievalHit[];
  /** Evidence texts without scores, when no retriever was involved; score checks are skipped. */
  evidence?: readonly string[];
}

/** One reason to doubt the answer, with how sure the layer is. */
export interface AbstentionSignal {
  reason: AbstentionReason;
  /** From 0 to 1; the detector abstains when the strongest reaches `abstentionThreshold`. */
  confidence: number;
  /** What the layer saw, in a sentence. */
  detail: string;
}

/** What layer 1 saw. */
export interface RetrievalLayerTrace {
  enabled: boolean;
  signals: AbstentionSignal[];
  hits: number;
  topScore: number | null;
  scoreGap: number | null;
  /**
   * Coverage of the question's specific terms; null when the check is off or the input has neither
   * `hits` nor `evidence` (an empty list of either is measured: every term is missing).
   */
  coverage: { adviceRequest: boolean; terms: TermCoverage[]; missing: SpecificTerm[] } | null;
}

/** What layer 2 saw. */
export interface GroundingLayerTrace {
  enabled: boolean;
  /** Why the layer did not run, when it did not. */
  skipped: string | null;
  signals: AbstentionSignal[];
  result: GroundingResult | null;
}

/** What layer 3 saw. */
export interface HedgingLayerTrace {
  enabled: boolean;
  signals: AbstentionSignal[];
  nonAnswer: boolean;
  hedged: boolean;
  /** How much the answer's hedges weigh beside another layer's doubt (0 to 1). */
  doubt: number;
  /** The cues found in the answer, sentence by sentence. */
  cues: HedgeCue[];
}

/** The detector's verdict with a per-layer trace. */
export interface AbstentionResult {
  shouldAbstain: boolean;
  /** The reason of the strongest signal, or null when nothing was found. */
  reason: AbstentionReason | null;
  /** Confidence of the strongest signal (0 when there is none). */
  confidence: number;
  /** One line on the verdict. */
  details: string;
  layers: {
    retrieval: RetrievalLayerTrace;
    grounding: GroundingLayerTrace;
    hedging: HedgingLayerTrace;
  };
}

/** Defaults of the detector's configuration. */
export const DEFAULT_DETECTOR_CONFIG = Object.freeze({
  useRetrieval: true,
  useScoreThreshold: false,
  minRetrievalScore: 0.3,
  minScoreGap: 0.1,
  useCoverage: true,
  evidenceHits: 5,
  useNLI: true,
  nliThreshold: DEFAULT_NLI_THRESHOLD,
  useHedging: true,
  abstentionThreshold: 0.9,
});

// confidences of the signals (see the package README for how they were chosen)
const confidenceOf = {
  noResults: 0.99,
  lowScore: 0.9,
  noGap: 0.9,
  missingName: 0.95,
  nonAnswer: 0.9,
  notGrounded: 0.9,
};

/**
 * A concrete noun missing from the evidence is more telling the rarer it is: 0.5 at rarity 10,
 * rising 0.15 per unit of rarity, from 0.5 to 0.99; "dad" (10.6) gets 0.59, "tortoise" (13.2) 0.97.
 */
export function missingTermConfidence(term: SpecificTerm): number {
  if (term.kind === 'proper') return confidenceOf.missingName;
  return Math.min(0.99, Math.max(0.5, 0.5 + 0.15 * (term.rarity - 10)));
}

/**
 * The signal the detector decides on: the one with the highest confidence, the first of them on a
 * tie; undefined when there is none.
 */
export function strongestSignal(
  signals: readonly AbstentionSignal[],
): AbstentionSignal | undefined {
  let strongest: AbstentionSignal | undefined;
  for (const signal of signals) {
    if (strongest === undefined || signal.confidence > strongest.confidence) strongest = signal;
  }
  return strongest;
}

/**
 * The score checks of layer 1 as first designed: no results, a top score under
 * `minRetrievalScore`, or a top score under 0.5 within `minScoreGap` of the second.
 */
export function retrievalScoreSignal(
  scores: { topScore: number | null; scoreGap: number | null },
  thresholds: { minRetrievalScore: number; minScoreGap: number },
): AbstentionSignal | undefined {
  const top = scores.topScore;
  if (top === null) {
    return {
      reason: 'no_results',
      confidence: confidenceOf.noResults,
      detail: 'retrieval found nothing',
    };
  }
  if (top < thresholds.minRetrievalScore) {
    return {
      reason: 'low_retrieval_score',
      confidence: confidenceOf.lowScore,
      detail: `the top retrieval score ${top.toFixed(3)} is under ${thresholds.minRetrievalScore}`,
    };
  }
  if (top < 0.5 && scores.scoreGap !== null && scores.scoreGap < thresholds.minScoreGap) {
    return {
      reason: 'no_score_gap',
      confidence: confidenceOf.noGap,
      detail: `the top score ${top.toFixed(3)} is under 0.5 and within ${thresholds.minScoreGap} of the second`,
    };
  }
  return undefined;
}

/**
 * Decides whether an answer should be replaced by "I don't know", from three layers: retrieval
 * confidence and evidence coverage, grounding by NLI, and hedging in the answer.
 */
export class AbstentionDetector {
  readonly config: Required<
    Omit<AbstentionDetectorConfig, 'nliModel' | 'hedgingPatterns' | 'lexicon'>
  >;
  private readonly nliModel: NliModel | undefined;
  private readonly lexicon: Lexicon | undefined;
  private readonly assessHedging: (answer: string) => HedgingAssessment;

  constructor(config: AbstentionDetectorConfig = {}) {
    this.config = { ...DEFAULT_DETECTOR_CONFIG, ...withoutUndefined(config) };
    for (const name of [
      'minRetrievalScore',
      'minScoreGap',
      'nliThreshold',
      'abstentionThreshold',
    ] as const) {
      const value = this.config[name];
      if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
        throw new SearchCoreError(
          SearchCoreErrorCode.INVALID_CONFIG,
          `${name} must be a number from 0 to 1, got ${String(value)}`,
        );
      }
    }
    if (!Number.isInteger(this.config.evidenceHits) || this.config.evidenceHits < 1) {
      throw new SearchCoreError(
        SearchCoreErrorCode.INVALID_CONFIG,
        `evidenceHits must be a positive integer, got ${String(this.config.evidenceHits)}`,
      );
    }
    this.nliModel = config.nliModel;
    this.lexicon = config.lexicon;
    this.assessHedging = createHedgingAssessor(config.hedgingPatterns);
  }

  /** Judges one answer; layers that are off or lack their input are reported as such. */
  async detect(input: AbstentionInput): Promise<AbstentionResult> {
    if (typeof input?.question !== 'string') {
      throw new SearchCoreError(SearchCoreErrorCode.INVALID_INPUT, 'question must be a string');
    }
    if (input.answer !== undefined && typeof input.answer !== 'string') {
      throw new SearchCoreError(
        SearchCoreErrorCode.INVALID_INPUT,
        'answer must be a string when given',
      );
    }
    const evidence = this.evidenceTexts(input);
    const retrieval = this.retrievalLayer(input, evidence);
    const hedging = this.hedgingLayer(input);
    const grounding = await this.groundingLayer(input, evidence);

    // hedges count beside another layer's doubt: the two combine as independent evidence
    const missing = retrieval.coverage?.missing ?? [];
    const coverageDoubt = Math.max(
      0,
      ...retrieval.signals
        .filter((signal) => signal.reason === 'low_coverage')
        .map((signal) => signal.confidence),
    );
    const cue = hedging.cues[0];
    // an answer that corrects the question on the very term the evidence lacks ("You stayed in
    // Porto, not Lisbon") answers another question: the one asked has a false premise, which is
    // what an abstention question is
    const corrected = input.answer === undefined ? undefined : correctedTerm(input.answer, missing);
    if (corrected) {
      retrieval.signals.push({
        reason: 'low_coverage',
        confidence: round(
          1 - (1 - missingTermConfidence(corrected)) * (1 - HEDGE_WEIGHTS.concludingAdmission),
        ),
        detail: `the evidence never mentions "${corrected.text}" and the answer corrects the question on it`,
      });
    }
    if (missing.length > 0 && hedging.hedged && cue) {
      retrieval.signals.push({
        reason: 'low_coverage',
        confidence: round(1 - (1 - coverageDoubt) * (1 - hedging.doubt)),
        detail: `the evidence never mentions ${quoteList(missing)} and the answer hedges ("${clip(cue.sentence)}")`,
      });
    }

    const strongest = strongestSignal([
      ...retrieval.signals,
      ...grounding.signals,
      ...hedging.signals,
    ]);
    const shouldAbstain =
      strongest !== undefined && strongest.confidence >= this.config.abstentionThreshold;
    return {
      shouldAbstain,
      reason: strongest?.reason ?? null,
      confidence: strongest?.confidence ?? 0,
      details: strongest
        ? `${shouldAbstain ? 'abstain' : 'answer'}: ${strongest.detail} (confidence ${strongest.confidence.toFixed(2)}, threshold ${this.config.abstentionThreshold})`
        : 'answer: no layer found a reason to doubt the answer',
      layers: { retrieval, grounding, hedging },
    };
  }

  private evidenceTexts(input: AbstentionInput): string[] {
    const texts = input.hits
      ? input.hits.slice(0, this.config.evidenceHits).map((hit) => hit.document.text)
      : [...(input.evidence ?? [])];
    return texts.filter((text) => text.trim() !== '');
  }

  private retrievalLayer(input: AbstentionInput, evidence: string[]): RetrievalLayerTrace {
    const hits = input.hits ?? [];
    const trace: RetrievalLayerTrace = {
      enabled: this.config.useRetrieval,
      signals: [],
      hits: hits.length,
      topScore: hits[0]?.score ?? null,
      scoreGap: hits[0] && hits[1] ? hits[0].score - hits[1].score : null,
      coverage: null,
    };
    if (!this.config.useRetrieval) return trace;
    if (this.config.useScoreThreshold && input.hits) {
      const signal = retrievalScoreSignal(trace, this.config);
      if (signal) trace.signals.push(signal);
    }
    if (this.config.useCoverage && (input.hits !== undefined || input.evidence !== undefined)) {
      const coverage = measureCoverage(
        input.question,
        evidence,
        this.lexicon ? { lexicon: this.lexicon } : {},
      );
      trace.coverage = coverage;
      const strongest = [...coverage.missing].sort(
        (left, right) => missingTermConfidence(right) - missingTermConfidence(left),
      )[0];
      if (strongest) {
        trace.signals.push({
          reason: 'low_coverage',
          confidence: missingTermConfidence(strongest),
          detail: `the evidence never mentions ${quoteList(coverage.missing)}`,
        });
      }
    }
    return trace;
  }

  private hedgingLayer(input: AbstentionInput): HedgingLayerTrace {
    const trace: HedgingLayerTrace = {
      enabled: this.config.useHedging,
      signals: [],
      nonAnswer: false,
      hedged: false,
      doubt: 0,
      cues: [],
    };
    if (!this.config.useHedging || input.answer === undefined) return trace;
    const assessment = this.assessHedging(input.answer);
    // asking the user for preferences is how a recommendation starts, not a failure to remember
    trace.nonAnswer = assessment.nonAnswer && !isAdviceRequest(input.question);
    trace.hedged = assessment.hedged;
    trace.doubt = assessment.doubt;
    trace.cues = assessment.cues;
    if (trace.nonAnswer) {
      const first = assessment.cues[0];
      trace.signals.push({
        reason: 'hedging_detected',
        confidence: confidenceOf.nonAnswer,
        detail:
          input.answer.trim() === ''
            ? 'the answer is empty'
            : first
              ? `the answer does not answer ("${clip(first.sentence)}")`
              : 'the answer commits to nothing',
      });
    } else if (trace.hedged && assessment.cues[0]) {
      trace.signals.push({
        reason: 'hedging_detected',
        confidence: assessment.doubt,
        detail: `the answer hedges ("${clip(assessment.cues[0].sentence)}")`,
      });
    }
    return trace;
  }

  private async groundingLayer(
    input: AbstentionInput,
    evidence: string[],
  ): Promise<GroundingLayerTrace> {
    const trace: GroundingLayerTrace = {
      enabled: this.config.useNLI,
      skipped: null,
      signals: [],
      result: null,
    };
    if (!this.config.useNLI) return trace;
    if (!this.nliModel) trace.skipped = 'no NLI model was given';
    else if (input.answer === undefined || input.answer.trim() === '')
      trace.skipped = 'there is no answer to ground';
    else if (evidence.length === 0) trace.skipped = 'there is no evidence to ground the answer in';
    if (trace.skipped !== null || !this.nliModel || input.answer === undefined) return trace;
    const result = await checkGrounding(
      this.nliModel,
      { evidence, answer: input.answer },
      { nliThreshold: this.config.nliThreshold },
    );
    trace.result = result;
    if (!result.grounded) {
      trace.signals.push({
        reason: 'not_grounded',
        confidence: confidenceOf.notGrounded,
        detail: `an answer sentence is ${result.label === 'contradiction' ? 'contradicted by' : 'not supported by'} the evidence (entailment ${result.scores.entailment.toFixed(2)}, neutral ${result.scores.neutral.toFixed(2)}, contradiction ${result.scores.contradiction.toFixed(2)})`,
      });
    }
    return trace;
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The first missing term the answer negates as the question's premise: "not", "rather than" or
 * "instead of", up to two little words, then the term's first word ("It was your sister, not
 * your dad", "in Porto, not Lisbon").
 */
export function correctedTerm(
  answer: string,
  missing: readonly SpecificTerm[],
): SpecificTerm | undefined {
  return missing.find((term) => {
    const first = term.words[0];
    if (first === undefined || first.length < 2) return false;
    const correction = new RegExp(
      String.raw`\b(?:not|rather than|instead of)\s+(?:(?:a|an|the|in|at|on|to|from|for|your|my|any|with)\s+){0,2}${escapeRegExp(first)}(?![\p{L}\p{N}])`,
      'iu',
    );
    return correction.test(answer);
  });
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

function quoteList(terms: readonly SpecificTerm[]): string {
  return terms.map((term) => `"${term.text}"`).join(', ');
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([, entry]) => entry !== undefined),
  ) as Partial<T>;
}
