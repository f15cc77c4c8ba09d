import {
  type CustomPatterns,
  createValidator,
  type PatternInput,
  phrase,
  type Signal,
} from '@qualm/validator';

/**
 * Answers that do not answer: they turn the question back to the user or ask for what the history
 * should have held. On their own they are enough to abstain. Written as validator phrases: a space
 * matches any short run of blanks or line breaks, an apostrophe a straight or curly one.
 */
export const NON_ANSWER_PATTERNS: readonly string[] = [
  String.raw`\bfeel free to (?:share|provide|tell|let me know)\b`,
  String.raw`\b(?:could|can|would) you (?:please )?(?:share|provide|tell me|clarify|remind me)\b`,
  String.raw`\bif you (?:can|could) (?:share|provide|tell|remember|recall)\b`,
  String.raw`\bI(?:'ll| will| would) need (?:some |more |additional )?(?:information|details|context)\b`,
  String.raw`\b(?:think back to|try to (?:remember|recall)|jog your memory|help you (?:remember|recall))\b`,
  String.raw`\bdo you (?:remember|recall)\b`,
].map(phrase);

/**
 * Hedges that a committed answer also uses: estimates, general advice, admissions of missing
 * information. Alone they are common in correct step-by-step answers; they count only beside
 * another layer's doubt. Written as validator phrases, like {@link NON_ANSWER_PATTERNS}.
 */
export const HEDGE_PATTERNS: readonly string[] = [
  String.raw`\b(?:rough|ballpark) estimate\b|\beducated guess\b`,
  String.raw`\bbased on (?:these|the following|some|my|the above|those) assumptions\b`,
  String.raw`\bincomplete information\b`,
  String.raw`\b(?:difficult|impossible|not possible|hard) to (?:give|provide|determine|know|say) (?:an? )?(?:exact|precise|accurate|definitive|specific)\b`,
  String.raw`\b(?:without|lacking) (?:more|further|additional|specific) (?:information|details|context)\b`,
  String.raw`\bgeneral (?:guidelines?|tips|advice|recommendations)\b`,
  String.raw`\bdepends? (?:on|upon) (?:your|the) (?:individual|personal|specific|own) (?:circumstances|situation|needs|preferences|schedule|habits)\b`,
  String.raw`\bI (?:don't|do not|didn't|did not) have (?:any )?(?:enough |sufficient |specific |the )?(?:information|details|data|records?|knowledge) (?:about|on|regarding|of|to|that)\b`,
  String.raw`\bI (?:cannot|can't|can not|am unable to|am not able to) (?:determine|answer|know|tell|say|find)\b`,
].map(phrase);

/** What the hedging layer found in an answer. */
export interface HedgingAssessment {
  /** The answer does not answer (it asks the user, deflects, or is empty). */
  nonAnswer: boolean;
  /** The answer hedges in a way that only counts beside another layer's doubt. */
  hedged: boolean;
  /** The validator signals behind the verdict. */
  signals: Signal[];
}

/** Options of {@link createHedgingAssessor}. */
export interface HedgingOptions {
  /** Extra non-answer patterns, as for the validator's custom patterns. */
  nonAnswerPatterns?: readonly PatternInput[];
  /** Extra hedge patterns. */
  hedgePatterns?: readonly PatternInput[];
}

/**
 * Builds the hedging layer on the validator's engine with qualm's own pattern set: non-answers are
 * `confusion` signals, hedges `low_confidence`, and an empty answer is an `empty_response`.
 */
export function createHedgingAssessor(
  options: HedgingOptions = {},
): (answer: string) => HedgingAssessment {
  const custom =
    (options.nonAnswerPatterns?.length ?? 0) + (options.hedgePatterns?.length ?? 0) > 0;
  // checking patterns for catastrophic backtracking takes a while; the default set is checked once
  if (!custom && defaultAssessor) return defaultAssessor;
  const customPatterns: CustomPatterns = {
    confusion: [...NON_ANSWER_PATTERNS, ...(options.nonAnswerPatterns ?? [])],
    low_confidence: [...HEDGE_PATTERNS, ...(options.hedgePatterns ?? [])],
  };
  const validator = createValidator({ defaultPatterns: false, customPatterns, minLength: 1 });
  const assess = (answer: string): HedgingAssessment => {
    const { signals } = validator.validate(answer);
    return {
      nonAnswer: signals.some(
        (signal) => signal.type === 'confusion' || signal.type === 'empty_response',
      ),
      hedged: signals.some((signal) => signal.type === 'low_confidence'),
      signals,
    };
  };
  if (!custom) defaultAssessor = assess;
  return assess;
}

let defaultAssessor: ((answer: string) => HedgingAssessment) | undefined;
