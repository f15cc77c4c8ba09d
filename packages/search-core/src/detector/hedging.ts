import { type PatternInput, phrase } from '@qualm/validator';

/**
 * The hedging layer reads an answer sentence by sentence. Each sentence is one of:
 *
 * - `ask`: turns the question back to the user ("Could you remind me …?", "Think back to …");
 * - `admission`: says the information is missing ("there is no mention of …", "you did not say …",
 *   "I can't determine …", "I don't know."), unless the same sentence goes on to infer an answer;
 * - `hedge`: estimates, assumptions and not being sure ("assuming …", "my educated guess", "I'm not
 *   sure", "I guess");
 * - `offer`: offers more ("feel free to share …", "let me know if …", "if you have more details …",
 *   "Would you like me to …?", "Is there anything else …?");
 * - `preamble`: announces the work ("To answer this, I'll follow these steps:");
 * - `substance`: anything else, what the answer commits to (a hedged sentence commits too).
 *
 * An answer that commits to nothing (no substance), that opens by turning the question back, or
 * that asks at least as many times as it states something, is a non-answer, enough to abstain on
 * its own. Everything else counts only beside another layer's
 * doubt, with a weight that depends on where it stands: an admission that is the answer's
 * conclusion weighs 0.8, anything else 0.3.
 */
export type HedgeCueKind = 'ask' | 'admission' | 'hedge' | 'offer';

/** One cue of doubt in an answer. */
export interface HedgeCue {
  kind: HedgeCueKind;
  /** The sentence that carries it, on one line. */
  sentence: string;
  /** Index of the sentence among the answer's sentences. */
  index: number;
  /** Offset of the sentence in the answer. */
  position: number;
}

/** What the hedging layer found in an answer. */
export interface HedgingAssessment {
  /** The answer commits to nothing, or opens by asking the user; enough to abstain. */
  nonAnswer: boolean;
  /** The answer carries a cue of doubt that counts only beside another layer's doubt. */
  hedged: boolean;
  /** How much those cues weigh, from 0 to 1 (the strongest, by kind and place). */
  doubt: number;
  /** Every cue, in order. */
  cues: HedgeCue[];
  /** How many sentences commit to something. */
  substance: number;
}

/** Options of {@link createHedgingAssessor}: extra phrasings per kind of cue. */
export interface HedgingOptions {
  /** Extra phrasings of turning the question back to the user. */
  nonAnswerPatterns?: readonly PatternInput[];
  /** Extra hedges (estimates, assumptions, admissions of missing information). */
  hedgePatterns?: readonly PatternInput[];
}

/** The weights of the cues beside another layer's doubt (see the module comment). */
export const HEDGE_WEIGHTS = Object.freeze({
  concludingAdmission: 0.8,
  other: 0.3,
});

const sources = (list: readonly string[]) => list.map((template) => phrase(template)).join('|');

/** Phrasings that turn the question back to the user. */
export const ASK_PATTERNS: readonly string[] = [
  String.raw`\b(?:could|can|would) you (?:please )?(?:share|provide|tell me|clarify|remind me|confirm|specify|let me know|give me)\b`,
  String.raw`\bdo you (?:remember|recall)\b`,
  String.raw`\b(?:think back to|try to (?:remember|recall)|jog your memory|(?<!(?:happy|glad) to )help you (?:remember|recall)|check your (?:records|notes|calendar|receipts|photos|messages|emails|bank))\b`,
  String.raw`\b(?:think (?:about|of) (?:your|when|what|where|how|who|the (?:day|time|moment|occasion))|reflect on (?:your|when|what|the)|look (?:back (?:at|on|through)|through) your|go through your)\b`,
  String.raw`\bI(?:'ll| will| would)? need (?:some |more |additional )?(?:information|details|context) (?:from you|about|on|to)\b`,
];

/** Phrasings that say the information the answer needs is missing. */
export const ADMISSION_PATTERNS: readonly string[] = [
  String.raw`\bI (?:don't|do not|didn't|did not) (?:have|see|find) (?:any |enough |sufficient |specific |the |that |this |those )?(?:information|details|data|records?|mention|knowledge|context)\b`,
  String.raw`\bI (?:don't|do not) know (?:what|which|how|when|where|who|your|if|whether|the exact|exactly)\b`,
  String.raw`\bthere (?:is|was|are|were) (?:no|not any|not enough) (?:specific |explicit |direct |clear |exact |further |additional |relevant )?(?:mention|information|record|data|details?|indication|evidence|reference)\b`,
  String.raw`\b(?:you|the user|the (?:chat|conversation)(?: history)?|our (?:previous |past |earlier )?(?:chats?|conversations?)|the (?:sessions?|history|notes?|context)|we) (?:did not|does not|do not|didn't|doesn't|don't) (?:explicitly |specifically |directly |actually |ever )?(?:mention|provide|specify|include|state|say|contain|discuss|share|indicate|give|tell)\b`,
  String.raw`\b(?:you|the user|the (?:chat|conversation)(?: history)?|our (?:previous |past |earlier )?(?:chats?|conversations?)|the (?:sessions?|history|notes?|context)|we)(?: (?:has|have|had) (?:not|never|yet to)|'ve (?:not|never)| (?:hasn't|haven't|hadn't)(?: yet)?| never) (?:explicitly |specifically |directly |actually |ever )?(?:mentioned|provided|specified|included|stated|said|contained|discussed|shared|indicated|given|gave|told|talked about)\b`,
  String.raw`\b(?:that|this|it|the (?:topic|subject)) (?:has not|hasn't|has never|never) (?:come|came) up\b`,
  String.raw`\bnot (?:explicitly |specifically |directly )?(?:mentioned|provided|specified|stated|given) (?:in|anywhere)\b`,
  String.raw`\b(?:cannot|can't|can not|unable to|not able to|impossible to|not possible to|difficult to|hard to) (?:be )?(?:determine|determined|answer|find|know|tell|say|calculate|confirm|infer|identify) (?:for (?:sure|certain) )?(?:exactly |precisely |the exact |how|what|which|when|where|who|whether|if|this|that|from|with|based|without|the answer)`,
  String.raw`\bno (?:information|record|mention|data|details) (?:about|of|on|regarding)\b`,
  // "I don't know." said as a whole, not "I don't know why, but …"
  String.raw`\bI (?:really |honestly |just )?(?:don't|do not) know(?: (?:for sure|for certain|the answer))?(?= ?[.!;]| ?$)`,
  String.raw`\b(?:without|lacking) (?:more|further|additional|specific) (?:information|details|context)\b`,
];

/** Estimates and assumptions. */
export const HEDGE_PATTERNS: readonly string[] = [
  String.raw`\b(?:assum(?:e|ing|ption|ptions)|rough (?:estimate|idea)|ballpark|educated guess|my best guess)\b`,
  String.raw`\b(?:typically|usually) (?:take|takes|last|lasts|cost|costs|range)\b`,
  String.raw`\bdepends? (?:on|upon) (?:your|the) (?:individual|personal|specific|own) (?:circumstances|situation|needs|preferences|schedule|habits)\b`,
  // not being sure, guessing and recalling in the first person: "I'm not sure, maybe Denver",
  // "Possibly the 12th, I guess" (a bare "maybe" or "possibly" is too often a figure of speech)
  String.raw`\b(?:I(?:'m| am) not (?:sure|certain|positive)|I (?:guess|suppose)|if I (?:remember|recall) (?:correctly|right))\b`,
];

/** Offers of more. */
export const OFFER_PATTERNS: readonly string[] = [
  String.raw`\bfeel free to\b`,
  String.raw`\blet me know (?:if|whether|what|how|when|which)\b`,
  String.raw`\bif you (?:have|need|want|can (?:share|provide|tell|give)|could (?:share|provide|tell|give)|remember|recall)\b`,
  String.raw`\bI(?:'m| am|'d be| would be) (?:happy|glad) to\b`,
  String.raw`\b(?:is there anything else|hope (?:this|that) helps)\b`,
];

/**
 * Questions (sentences that end with a question mark) that offer more rather than ask for what the
 * answer needs ("Would you like me to list them?", "Is there anything else you'd like to know?",
 * "Shall I set a reminder?"): offers, however they are put.
 */
export const OFFER_QUESTION_PATTERNS: readonly string[] = [
  String.raw`\b(?:would|do|did|will) you (?:also |still |perhaps )?(?:like|want|need|prefer)\b`,
  String.raw`\b(?:want|need|like) me to\b`,
  String.raw`\b(?:shall|should) I\b`,
  String.raw`\banything else\b`,
  String.raw`\b(?:how )?(?:else )?(?:can|could|may) I (?:help|assist|do|offer)\b`,
];

// a sentence that draws a conclusion is substance, whatever it admits on the way
const INFERENCE = new RegExp(
  phrase(
    String.raw`\b(?:infer|inferred|conclude|concluded|therefore|thus|hence|so the answer|which means|it (?:is|seems) (?:likely|reasonable|safe)|we can (?:assume|say|deduce)|based on (?:this|that|the above)|the answer is|this means|however|but|my (?:best |educated )?guess is|I(?:'d| would) (?:guess|say))\b`,
  ),
  'i',
);
const PREAMBLE =
  /^(?:to (?:answer|determine|find|figure out|calculate|work out)\b[^.!?]*\b(?:steps?|follow|break|need to|let's|I'll|I will)|(?:let's|let me|I'll|I will) (?:break|go|follow|think|work|look)\b|here(?:'s|’s| is) (?:my|the) (?:answer|response)|step \d+\b[^.!?]{0,60}$|based on (?:the|our) (?:chat|previous|conversation)[^.!?]{0,30}:$)/i;
// a question of the answer's own: it ends with a question mark and quotes nobody
const OWN_QUESTION = /^[^"“”]*\?\W*$/;
// a question that asks which thing was meant, or for what the answer needs
const CLARIFYING =
  /\b(?:mean|meant|referring|refer to|which one|remind|clarify|specify|in mind|thinking of|talking about|asking about)\b/i;
// a question put to the user; quoted speech is reported, not asked
const QUESTION_TO_USER =
  /^(?:could|can|would|will|do|did|does|what|when|how|which|where|who|are|is|were|was|have|had)\b[^"“”]*\byour?\b[^"“”]*\?$/i;

function compile(patterns: readonly (string | PatternInput)[]): RegExp | undefined {
  const parts = patterns.map((pattern) => {
    if (pattern instanceof RegExp) return pattern.source;
    if (typeof pattern === 'string') return pattern;
    return pattern.pattern instanceof RegExp ? pattern.pattern.source : pattern.pattern;
  });
  return parts.length === 0 ? undefined : new RegExp(parts.join('|'), 'i');
}

/** Splits an answer into sentences and lines, with their offsets; list markers are dropped. */
function sentencesOf(answer: string): { text: string; position: number }[] {
  const found: { text: string; position: number }[] = [];
  // a sentence ends at its punctuation, a blank line, or a line that starts a list item or heading;
  // a single line break inside wrapped prose does not end one
  const boundary = /(?<=[.!?:])["”’)]*\s+|\n[ \t]*\n\s*|\n(?=[ \t]*(?:[-*•#>]|\d+[.)])\s)/g;
  let start = 0;
  const push = (end: number) => {
    const raw = answer.slice(start, end);
    const text = raw
      .replace(/\s+/g, ' ')
      .replace(/^[\s>*#\-•]*(?:\d+[.)]\s*)?/, '')
      .replace(/[*_`]+/g, '')
      .trim();
    if (text.replace(/[\s.:]/g, '') !== '') {
      found.push({ text, position: start + raw.length - raw.trimStart().length });
    }
  };
  for (const match of answer.matchAll(boundary)) {
    push(match.index);
    start = match.index + match[0].length;
  }
  push(answer.length);
  return found;
}

/**
 * Builds the hedging layer: it reads an answer sentence by sentence and says whether it is a
 * non-answer, and how much its hedges, admissions and offers weigh beside another layer's doubt.
 */
export function createHedgingAssessor(
  options: HedgingOptions = {},
): (answer: string) => HedgingAssessment {
  const ask = compile([sources(ASK_PATTERNS), ...(options.nonAnswerPatterns ?? [])]);
  const admission = compile([sources(ADMISSION_PATTERNS)]);
  const hedge = compile([sources(HEDGE_PATTERNS), ...(options.hedgePatterns ?? [])]);
  const offer = compile([sources(OFFER_PATTERNS)]);
  const offerQuestion = compile([sources(OFFER_QUESTION_PATTERNS)]);
  // 'question': a question put to the user, an ask or a follow-up depending on where it stands
  type Kind = HedgeCueKind | 'preamble' | 'substance' | 'question';
  const kindOf = (sentence: string): Kind => {
    if (ask?.test(sentence)) return 'ask';
    if (OWN_QUESTION.test(sentence) && offerQuestion?.test(sentence)) return 'offer';
    if (QUESTION_TO_USER.test(sentence)) return CLARIFYING.test(sentence) ? 'ask' : 'question';
    if (PREAMBLE.test(sentence)) return 'preamble';
    if (admission?.test(sentence)) return INFERENCE.test(sentence) ? 'substance' : 'admission';
    if (offer?.test(sentence)) return 'offer';
    if (hedge?.test(sentence)) return 'hedge';
    return 'substance';
  };
  return (answer: string): HedgingAssessment => {
    const sentences = sentencesOf(answer);
    const raw = sentences.map((sentence) => kindOf(sentence.text));
    // one question that closes an answer which has stated something follows the conversation on
    // ("Have you finished it yet?"), like an offer; any other hands the question back
    const closing = raw.findLastIndex((kind) => kind !== 'offer' && kind !== 'preamble');
    const stated = raw.findIndex((kind) => kind === 'substance' || kind === 'hedge');
    const kinds = raw.map((kind, index): Exclude<Kind, 'question'> => {
      if (kind !== 'question') return kind;
      return index === closing && stated !== -1 && stated < index ? 'offer' : 'ask';
    });
    const cues: HedgeCue[] = [];
    kinds.forEach((kind, index) => {
      const sentence = sentences[index];
      if (kind !== 'preamble' && kind !== 'substance' && sentence) {
        cues.push({ kind, sentence: sentence.text, index, position: sentence.position });
      }
    });
    // offers and announcements neither commit nor doubt: they are left out of the reading
    const read = kinds.filter((kind) => kind !== 'offer' && kind !== 'preamble');
    // a hedged sentence still commits to something; asks and admissions do not
    const substance = read.filter((kind) => kind === 'substance' || kind === 'hedge').length;
    const asks = read.filter((kind) => kind === 'ask').length;
    // an answer that opens by asking, or asks at least as much as it says, hands the question back
    const nonAnswer = substance === 0 || read[0] === 'ask' || asks >= substance;
    let doubt = 0;
    if (!nonAnswer && cues.length > 0) {
      const concludes = read.at(-1) === 'admission';
      doubt = concludes ? HEDGE_WEIGHTS.concludingAdmission : HEDGE_WEIGHTS.other;
    }
    return { nonAnswer, hedged: !nonAnswer && cues.length > 0, doubt, cues, substance };
  };
}
