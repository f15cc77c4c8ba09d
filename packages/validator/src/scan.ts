import {
  type CompiledPattern,
  type CompiledPatternSet,
  compileAtOnce,
  compilePrefilters,
  followFor,
  type Prefilter,
  type TriggerBucket,
} from './compile.js';
import { PART_TOPIC_WORDS } from './default-patterns.js';
import { canonicalTrigger } from './regex-analysis.js';
import { speaksInVoices, VoiceTracker } from './voices.js';

/** The first usable match of one pattern. */
export interface Found {
  pattern: CompiledPattern;
  /** Absolute offset of the match in the response. */
  position: number;
  /** Absolute offset just past the match. */
  end: number;
  /** The matched text as it stands. */
  match: string;
  /** The match with up to CONTEXT_LENGTH characters either side, as it stands. */
  around: string;
  /** Whether text was cut off before and after `around`. */
  cutBefore: boolean;
  cutAfter: boolean;
}

/** The evidence of a match, on one line (computed only for the matches that become signals). */
export function evidenceOf(found: Found): string {
  const evidence = oneLine(found.match).trim();
  return evidence.length > MAX_EVIDENCE_LENGTH
    ? `${evidence.slice(0, MAX_EVIDENCE_LENGTH)}…`
    : evidence;
}

/** The evidence with some surrounding text, on one line. */
export function contextOf(found: Found): string {
  return `${found.cutBefore ? '…' : ''}${oneLine(found.around).trim()}${found.cutAfter ? '…' : ''}`;
}

/** Characters of surrounding text kept on each side of the evidence in `context`. */
export const CONTEXT_LENGTH = 40;
const MAX_EVIDENCE_LENGTH = 200;

const OPENING_QUOTES = new Set(['"', '“', '‘', "'", '`', '«', '„', '‚', '‹', '「', '『']);

/** Whether a UTF-16 code unit is white space as JavaScript's \s and trim() define it. */
export function isWhitespaceCode(code: number): boolean {
  return (
    (code >= 9 && code <= 13) ||
    code === 32 ||
    code === 160 ||
    code === 5760 ||
    (code >= 8192 && code <= 8202) ||
    code === 8232 ||
    code === 8233 ||
    code === 8239 ||
    code === 8287 ||
    code === 12288 ||
    code === 65279
  );
}

/**
 * Positions of code-fence lines (``` or ~~~ at the start of a line, indented by at most three
 * spaces). Text between an odd and the next even fence is code that the answer quotes, not what
 * the model says, so matches there are not signals. Keeps only a parity count for old fences.
 */
export class FenceTracker {
  private positions: number[] = [];
  private countBefore = 0;
  private forgottenBefore = 0;
  /** Where the first fence of the text is (kept when older fences are folded into a count). */
  private first: number | undefined;

  /** Records the fences that start in [from, to) of `buffer`, whose first character is at `offset`. */
  scan(buffer: string, offset: number, from: number, to: number): void {
    const found = ['```', '~~~'].map((marker) => {
      const starts: number[] = [];
      let index = buffer.indexOf(marker, from - offset);
      while (index !== -1 && index + offset < to) {
        let start = index;
        let spaces = 0;
        while (spaces < 3 && start > 0 && buffer.charCodeAt(start - 1) === 32) {
          start -= 1;
          spaces += 1;
        }
        if (start + offset === 0 || buffer.charCodeAt(start - 1) === 10)
          starts.push(index + offset);
        index = buffer.indexOf(marker, index + marker.length);
      }
      return starts;
    });
    // scans cover increasing stretches, so merging the two sorted lists keeps the whole sorted
    const [backticks = [], tildes = []] = found;
    let left = 0;
    let right = 0;
    while (left < backticks.length || right < tildes.length) {
      const takeBacktick =
        right >= tildes.length ||
        (left < backticks.length && (backticks[left] ?? 0) < (tildes[right] ?? 0));
      const next = takeBacktick ? backticks[left++] : tildes[right++];
      if (next !== undefined) {
        this.first ??= next;
        this.positions.push(next);
      }
    }
  }

  /**
   * Whether `position` lies inside a code block that opens the whole response (its first fence
   * stands at `leadStart`): a reply the model wrote as a block, as when it plays a terminal.
   */
  insideOpeningBlock(position: number, leadStart: number | undefined): boolean {
    if (this.first === undefined || this.first !== leadStart || position <= leadStart) return false;
    return this.fencesBefore(position) === 1;
  }

  /** Whether `position` lies inside a fenced code block. */
  inside(position: number): boolean {
    return this.fencesBefore(position) % 2 === 1;
  }

  /** How many fences of the text start before `position` (a binary search of the kept ones). */
  private fencesBefore(position: number): number {
    const list = this.positions;
    let low = 0;
    let high = list.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((list[middle] ?? 0) < position) low = middle + 1;
      else high = middle;
    }
    return this.countBefore + low;
  }

  /** Folds fences before `position` into a count; later questions are all about later positions. */
  forgetBefore(position: number): void {
    if (position <= this.forgottenBefore) return;
    let drop = 0;
    while (drop < this.positions.length && (this.positions[drop] ?? 0) < position) drop += 1;
    if (drop > 0) {
      this.countBefore += drop;
      this.positions = this.positions.slice(drop);
    }
    this.forgottenBefore = position;
  }
}

/** Where the response starts and how long its opening is. */
export interface Layout {
  /** Offset of the first non-blank character (or where it will be, when none has arrived). */
  leadStart: number | undefined;
  leadLength: number;
  fences: FenceTracker;
  voices: VoiceTracker;
  /**
   * Where a draft the response hands over starts (after an opening line such as "Here's a polite
   * email you can send:"), or undefined when it opens with no such line or is not known yet.
   */
  draftFrom?: number | undefined;
  /** The quotation that opens the response, when one does (see {@link OpeningQuote}). */
  openingQuote?: OpeningQuote | undefined;
  /**
   * Whether the response is written as a JSON object (its first non-blank character is `{`), as
   * structured output is: its string values are the model's words, so a plain `"` delimits a
   * value and only an escaped one (`\"`) opens a quotation within it.
   */
  json?: boolean | undefined;
}

/** Whether a response whose first non-blank character is `first` is written as a JSON object. */
export function opensJson(first: string | undefined): boolean {
  return first === '{';
}

// the mark that closes a quotation opened by each mark
const CLOSING_MARK: Record<string, string> = { '"': '"', '“': '”', '«': '»', '„': '“' };

/**
 * A quotation mark that opens the whole response: the model may be speaking through it ('"I'm
 * sorry, but I can't help with that."'), or handing over a text to send or read out, written
 * whole in quotation marks ('"Hi Sam! … sadly I can't make the barbecue this time …"'). A reply
 * put in quotation marks says no in its first sentence; a no further on, before the quotation
 * closes, is the text's own. Read as the response arrives: what is known at a position depends
 * only on the text before it.
 */
export class OpeningQuote {
  /** Where the quotation's first sentence ends (a stop before a blank, or a line break). */
  sentenceEnd = Number.POSITIVE_INFINITY;
  /** Where the quotation closes. */
  close = Number.POSITIVE_INFINITY;
  private readonly closing: string;
  /** Where the searches go on from (absolute). */
  private closeFrom: number;
  private sentenceFrom: number;

  /** `start` is the absolute offset of the opening mark, `mark` the mark. */
  constructor(start: number, mark: string) {
    this.closing = CLOSING_MARK[mark] as string;
    this.closeFrom = start + 1;
    this.sentenceFrom = start + 1;
  }

  /** Reads on to the end of `buffer`, which holds the response from absolute `offset`. */
  read(buffer: string, offset: number): void {
    if (this.close !== Number.POSITIVE_INFINITY) return;
    const closeAt = buffer.indexOf(this.closing, this.closeFrom - offset);
    this.closeFrom = offset + buffer.length;
    if (closeAt !== -1) this.close = closeAt + offset;
    if (this.sentenceEnd !== Number.POSITIVE_INFINITY) return;
    SENTENCE_END.lastIndex = this.sentenceFrom - offset;
    const stop = SENTENCE_END.exec(buffer);
    // a stop that ends the text so far may yet be followed by a blank: read it again
    if (stop === null) this.sentenceFrom = Math.max(this.sentenceFrom, offset + buffer.length - 1);
    else this.sentenceEnd = stop.index + offset;
  }

  /** Whether `position` is in the quotation past its first sentence. */
  holds(position: number): boolean {
    return position > this.sentenceEnd && position < this.close;
  }
}

const SENTENCE_END = /[.!?](?=\s)|\n/g;

/** The opening quotation of a response whose first non-blank character is at `leadStart`. */
export function openingQuoteAt(
  text: string,
  leadStart: number,
  offset = 0,
): OpeningQuote | undefined {
  const mark = text[leadStart - offset];
  return mark !== undefined && mark in CLOSING_MARK ? new OpeningQuote(leadStart, mark) : undefined;
}

/** How long an opening line may be and still announce a draft. */
export const MAX_DRAFT_INTRO = 300;

// "Sure! Here's a warm email you can send:", "Love that idea! Here is a toast for your sister's
// wedding:": what follows is a text written for the user to send or read out, in its own voice. The
// piece must be what "here is" hands over, a few words on ("Here are tips for writing a letter"
// hands over tips), and not a word that describes another thing ("a draft strategy", "posts a week")
const DRAFT_NOUNS = `(?:e-?mails?|letters?|messages?|notes?|texts?|repl(?:y|ies)|poems?|stories|story|tales?|fables?|dialogues?|scenes?|scripts?|monologues?|lyrics|songs?|verses?|raps?|ballads?|odes?|sonnets?|haikus?|limericks?|lullab(?:y|ies)|toasts?|speech(?:es)?|eulog(?:y|ies)|vows|prayers?|translations?|drafts?|posts?|tweets?|captions?|announcements?|invitations?|cards?|memos?|bios?|blurbs?|pitch(?:es)?|templates?|versions?|samples?|examples?|(?:example|sample) (?:responses?|repl(?:y|ies)|messages?|e-?mails?|scripts?|dialogues?|exchanges?|conversations?))`;
const DRAFT_INTRO = new RegExp(
  String.raw`^(?:[^\n]{0,200}?[.!?]\s+)?(?:(?:sure|certainly|of course|absolutely|okay|ok|great|here you go)[!,.]?\s*)?here(?:['’]s| is| are)\s+(?:(?!(?:for|on|about|to|of|with|in|from|into|how|what|why|when|where|that|which)\b)[^\s]+\s+){0,5}?` +
    DRAFT_NOUNS +
    String.raw`(?=\s*(?:$|[:,.!;(—–-]|(?:you|that|which|for|to|in|from|of|with|I|about|on|by|as|and|she|he|they|we|between|among|where|featuring|starring|told|addressed|written|explaining|asking|announcing|telling|inviting|thanking|declining|saying|celebrating|honou?ring|based|inspired|designed|titled|called|set)\b))`,
  'i',
);

const HERE = /here/i;

// a response that is itself the letter or email: "Subject: …", "Dear Ms. Patel," or a greeting with
// a name ("Hi Jordan,", "Hello,") on its first line, or a template's placeholder there ("[Date]",
// "[Your Name]")
const LETTER_OPENING =
  /^\[(?:[a-z'’]+ ){0,2}(?:date|name|address)\]\s*$|^(?:\*\*)?subject(?:\*\*)?:\s*\S|^dear\s(?!user\b)[^\n]{1,40},\s*$|^["“]?(?:hi|hello|hey|good (?:morning|afternoon|evening))(?: (?!there\b|user\b)[^\s,]{1,20}){0,3},\s*$/i;

// … or a message that greets the one it is written to on its first line, before its first words
// ("Hey Sam! Sorry, I can't make it Saturday …", "Hi team — I won't be in tomorrow …"): a name in
// capitals or a word for a group or a relative, then a comma, "!" or a dash. What follows is the
// message, which the user asked for; the model does not greet the user by name
const INLINE_GREETING = new RegExp(
  String.raw`^["“]?(?:Hi|Hey|Hello|Hiya|Dear|Greetings|Good (?:morning|afternoon|evening)),?[ \t]+` +
    String.raw`(?:(?!(?:User|Assistant|There|Again|Friend|I)\b)[A-Z][\p{L}'’.-]+(?:[ \t]+(?:(?:or|and|&)[ \t]+)?[A-Z][\p{L}'’.-]+){0,3}|` +
    "everyone|everybody|all|team|folks|guys|y['’]all|sis|bro|mom|mum|dad|friends|neighbou?rs|gang|crew)" +
    String.raw`[ \t]*(?:[,!]|[ \t]?[—–][ \t]?|[ \t]-[ \t])`,
  'u',
);

/**
 * When the first line (from its first non-blank character, at `lineStart`) opens with a greeting to
 * someone by name (see INLINE_GREETING), where the greeting ends: the message is what comes after
 * it, as a draft is what comes after its opening line's break. The line may be cut anywhere past
 * the greeting.
 */
function greetingDraft(line: string, lineStart: number): number | undefined {
  const match = INLINE_GREETING.exec(line);
  return match === null ? undefined : lineStart + match[0].length - 1;
}

// a response that is itself a script or a titled piece: a scene heading in capitals ("INT. GARAGE -
// NIGHT", "[EXT. PIER]", "FADE IN:") or a title ("Title: The Night Shift") on its first line. What
// its characters say ("I don't know, it was here a minute ago") is not the model speaking
const PIECE_OPENING =
  /^[[(]?(?:\*\*)?(?:(?:INT|EXT|INT\.\/EXT|I\/E)\.\s|FADE IN:|(?:Title|TITLE)(?:\*\*)?:\s*\S)/;

// … or a title in bold on a line of its own, in title case and with no stop in it ("**The Night
// Shift**", "**Not Yet**"): a poem or a story follows. A bold line that names a notice or a reply
// ("**Important notice**", "**My answer**") is a heading of the model's own
const BOLD_TITLE =
  /^(?:\*\*|__)(?:[A-Z0-9][\w'’-]*)(?: (?:[A-Z0-9][\w'’-]*|a|an|the|of|and|or|in|on|at|to|for|with|by|from|my|your|our)){0,7}(?:\*\*|__)\s*$/;
const NOT_A_TITLE =
  /\b(?:notice|warning|disclaimer|important|note|caution|safety|policy|response|reply|answer|summary|update|error|sorry|unable|request|declined?|refusal|apolog\w*|limitations?|guidelines?)\b/i;

// after a draft, the model declining another part of the request: the line names the part or the
// model first ("As for the customer list, I'm unable to …", "On the second part, I can't …", "As an
// AI language model, I can't …"), or the no withholds what a writer hands over ("However, I cannot
// include …"); a letter's own no ("However, I won't be able to attend") does neither
const AFTER_DRAFT_TOPIC = new RegExp(
  String.raw`(?:^|\n)[ \t*_]*(?:${PART_TOPIC_WORDS}|(?:I['’]m |I am )?(?:just |only )?(?:as )?(?:an AI|a (?:large )?language model)\b)[^\n]*$`,
  'i',
);
const AFTER_DRAFT_NO =
  /I(?: cannot| can['’]t| can not|['’]m unable to| am unable to|['’]m not able to| am not able to| won['’]t| will not| must decline to)(?:\s{1,8}(?:help you|assist you))?\s{1,8}(?:provide|assist|include|add|write|create|generate|draft|compose|produce|reproduce|supply|fabricate|make up|alter|look up|log in|log into)\b/iy;

/** Whether the no at `local` of `buffer` declines a part of the request after a draft. */
function declinesAfterDraft(buffer: string, local: number): boolean {
  if (AFTER_DRAFT_TOPIC.test(buffer.slice(Math.max(0, local - 200), local))) return true;
  AFTER_DRAFT_NO.lastIndex = local;
  return AFTER_DRAFT_NO.test(buffer);
}

/**
 * Where the draft starts when `line` (the response's first line, from its first non-blank
 * character up to its line break at `end`) announces one.
 */
function draftAfter(line: string, end: number): number | undefined {
  if (line.length > MAX_DRAFT_INTRO) return undefined;
  // most first lines hold no "here": a plain search rules them out before the full expression
  const announces = HERE.test(line) && DRAFT_INTRO.test(line);
  const titled = BOLD_TITLE.test(line) && !NOT_A_TITLE.test(line);
  return announces || titled || LETTER_OPENING.test(line) || PIECE_OPENING.test(line)
    ? end
    : undefined;
}

/**
 * Where the draft starts (see {@link Layout.draftFrom}), from what is known of the response's first
 * line: `line`, from its first non-blank character at `lineStart`, up to its line break at `end`,
 * or, with `end` undefined, a start of it with no break in sight (only a greeting can settle it).
 */
export function draftStart(
  line: string,
  lineStart: number,
  end: number | undefined,
): number | undefined {
  return greetingDraft(line, lineStart) ?? (end === undefined ? undefined : draftAfter(line, end));
}

/** The draft start of a whole text (see {@link Layout.draftFrom}). */
function draftOf(text: string, leadStart: number): number | undefined {
  const end = text.indexOf('\n', leadStart);
  if (end === -1)
    return draftStart(text.slice(leadStart, leadStart + MAX_DRAFT_INTRO), leadStart, undefined);
  return draftStart(text.slice(leadStart, end), leadStart, end);
}

/**
 * Whether `position` is in an opening: the response's own, or a voice's (see voices.ts). Before
 * the first non-blank character everything is the opening.
 */
export function inLead(layout: Layout, position: number): boolean {
  const leadStart = layout.leadStart;
  if (leadStart === undefined || position - leadStart < layout.leadLength) return true;
  const voices = layout.voices;
  if (voices.starts.length === 0) return false;
  const section = voices.sectionOf(position);
  return section >= 0 && position - (voices.starts[section] ?? 0) < layout.leadLength;
}

/** Where the opening that holds `position` ends, or undefined when `position` is in none. */
function leadEnd(layout: Layout, position: number): number | undefined {
  const leadStart = layout.leadStart;
  if (leadStart === undefined) return Number.POSITIVE_INFINITY;
  let end = position - leadStart < layout.leadLength ? leadStart + layout.leadLength : undefined;
  const voices = layout.voices;
  if (voices.starts.length > 0) {
    const section = voices.sectionOf(position);
    const start = voices.starts[section];
    if (start !== undefined && position - start < layout.leadLength) {
      end = Math.max(end ?? 0, start + layout.leadLength);
    }
  }
  return end;
}

/** Where the next voice's opening starts after `position` (infinity when none is known). */
function nextLeadStart(layout: Layout, position: number): number {
  const voices = layout.voices;
  if (voices.starts.length === 0) return Number.POSITIVE_INFINITY;
  return voices.starts[voices.sectionOf(position) + 1] ?? Number.POSITIVE_INFINITY;
}

/** Whether `position` is in the pattern's region: an opening for `lead`, past the response's own for `late`. */
function inRegion(pattern: CompiledPattern, layout: Layout, position: number): boolean {
  if (pattern.region === 'anywhere') return true;
  if (pattern.region === 'lead') return inLead(layout, position);
  // past the response's own opening, whatever voices follow: a whole text is read for voices only
  // when it refuses in its opening, a stream always, and both must find the same late matches
  const leadStart = layout.leadStart;
  return leadStart !== undefined && position - leadStart >= layout.leadLength;
}

/**
 * Whether a counting match marks its voice as one that refuses: a voice refuses in its own opening,
 * so a refusal read anywhere marks it only from there.
 */
function refusesInVoiceOpening(
  pattern: CompiledPattern,
  layout: Layout,
  position: number,
): boolean {
  return pattern.type === 'refusal' && (pattern.region === 'lead' || inLead(layout, position));
}

/** Whether a refusal cue stands in the response's own opening. */
export function refusesInOpening(found: readonly Found[], layout: Layout): boolean {
  const end = (layout.leadStart ?? 0) + layout.leadLength;
  return found.some((item) => item.pattern.type === 'refusal' && item.position < end);
}

/**
 * The matches that stand once the whole response is known. Voices matter only to a response that
 * refuses in its opening and is written in voices: then its refusal cues stand only when every
 * voice (and any text before the first one) refuses in its own opening. Otherwise lead cues
 * count in the response's opening alone.
 */
export function settleVoices(
  found: Found[],
  layout: Layout,
  refusalSections: Set<number>,
): Found[] {
  const voices = layout.voices;
  if (voices.starts.length === 0) return found;
  const leadStart = layout.leadStart ?? 0;
  if (!refusesInOpening(found, layout) || !speaksInVoices(voices, leadStart, layout.leadLength)) {
    return found.filter(
      (item) => item.pattern.region !== 'lead' || item.position - leadStart < layout.leadLength,
    );
  }
  const first = voices.starts[0] ?? 0;
  const sections = voices.starts.map((_, index) => index);
  if (leadStart < first) sections.push(-1);
  const everyVoiceRefuses = sections.every((section) => refusalSections.has(section));
  return everyVoiceRefuses ? found : found.filter((item) => item.pattern.type !== 'refusal');
}

// white space other than a lone space: only then is there anything for oneLine to do
const NOT_ONE_LINE = /[^\S ]| {2}/;

function oneLine(text: string): string {
  return NOT_ONE_LINE.test(text) ? text.replace(/\s+/g, ' ') : text;
}

/** How far back on its line a match looks for an open quotation or a blockquote marker. */
export const QUOTE_LOOKBACK = 200;

const BLOCKQUOTE = /^ {0,3}>/;

/** How many times `mark` occurs in `line`, not counting the one at `skip`. */
function countMarks(line: string, mark: string, skip: number): number {
  let found = 0;
  for (let at = line.indexOf(mark); at !== -1; at = line.indexOf(mark, at + 1)) {
    // a quotation mark that opens the whole response does not make it a quotation
    if (at !== skip) found += 1;
  }
  return found;
}

const WORD_LIKE = /[\p{L}\p{N}]/u;
const ELIDED = /^(?:em|til|cause|cos|bout|round|tis|twas|n|\d\d)s?(?![\p{L}\p{N}])/iu;

/** Whether the UTF-16 code unit at `at` of `line` is a letter or a digit (false outside it). */
function wordLikeAt(line: string, at: number): boolean {
  if (at < 0 || at >= line.length) return false;
  const code = line.charCodeAt(at);
  if (code < 128) {
    return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
  }
  return WORD_LIKE.test(line[at] as string);
}

/** Where the first white space of `line` is (0 when it has none). */
function firstBlank(line: string): number {
  for (let at = 0; at < line.length; at += 1) if (isWhitespaceCode(line.charCodeAt(at))) return at;
  return 0;
}

/**
 * Whether a single quotation mark is left open on `line` from `from` on, not counting the one at
 * `skip`. A mark between two letters is an apostrophe ("can't"), and so is one that cuts a word
 * short at its start ('em, 'til, '90s); ‘ or ' before a word opens a quotation; ’ or ' after a
 * word or punctuation closes one ("the students' books" closes nothing that was open).
 */
function singleQuoteOpen(line: string, skip: number, from: number): boolean {
  let open = 0;
  // the next straight, left and right mark, each found with indexOf (most lines hold few)
  let straight = line.indexOf("'", from);
  let left = line.indexOf('‘', from);
  let right = line.indexOf('’', from);
  for (;;) {
    let at = -1;
    for (const candidate of [straight, left, right]) {
      if (candidate !== -1 && (at === -1 || candidate < at)) at = candidate;
    }
    if (at === -1) break;
    const code = line.charCodeAt(at);
    if (code === 39) straight = line.indexOf("'", at + 1);
    else if (code === 0x2018) left = line.indexOf('‘', at + 1);
    else right = line.indexOf('’', at + 1);
    if (at === skip) continue;
    const wordBefore = wordLikeAt(line, at - 1);
    const wordAfter = wordLikeAt(line, at + 1);
    if (wordBefore && wordAfter) continue;
    if (wordAfter && ELIDED.test(line.slice(at + 1, at + 7))) continue;
    if (wordAfter && code !== 0x2019) open += 1;
    else if (open > 0) open -= 1;
  }
  return open > 0;
}

/**
 * Whether `position` is inside quoted speech on its line: after an unclosed quotation mark
 * ("…, “…, «…, '…, ‘…) or parenthesis within QUOTE_LOOKBACK characters, or on a markdown
 * blockquote line ("> …"). A quotation mark that opens the whole response does not count: the
 * response is the speech.
 */
function insideQuotation(
  buffer: string,
  offset: number,
  position: number,
  leadStart: number | undefined,
  json: boolean,
): boolean {
  const local = position - offset;
  const stop = Math.max(0, local - QUOTE_LOOKBACK);
  // the stretch of the line before the match, within reach; native searches over a slice
  const before = buffer.slice(stop, local);
  const newline = before.lastIndexOf('\n');
  const line = newline === -1 ? before : before.slice(newline + 1);
  const lineStart = stop + (newline === -1 ? 0 : newline + 1);
  const opening = leadStart === undefined ? -1 : leadStart - offset - lineStart;
  // straight marks pair up in order: one left open is the last; it opens the whole response (and so
  // quotes nothing) only when it is the one at the start ('"Borrowing" a phone is theft. …' is closed)
  if (json) {
    // in a JSON value, a quotation is written with escaped marks
    if (countMarks(line, '\\"', -1) % 2 === 1) return true;
  } else {
    const straight = countMarks(line, '"', -1);
    if (straight % 2 === 1 && !(straight === 1 && line[opening] === '"')) return true;
  }
  const opened = countMarks(line, '“', opening) + countMarks(line, '«', opening);
  if (opened > countMarks(line, '”', opening) + countMarks(line, '»', opening)) return true;
  // an aside in parentheses: "Je ne peux pas. (I'm sorry, but I can't.)"
  if (countMarks(line, '(', opening) > countMarks(line, ')', opening)) return true;
  // a line cut at the reach of the look-back starts mid-word: read it from its first blank
  if (singleQuoteOpen(line, opening, newline === -1 && stop > 0 ? firstBlank(line) : 0))
    return true;
  // the line's start is in reach: a blockquote line is quoted text
  if (newline === -1 && stop > 0) return false;
  return BLOCKQUOTE.test(line);
}

// marks that put a phrase forward as a gloss: "*no puedo ir* = I can't go", "→ I cannot accept"
const GLOSS_MARKS = new Set(['=', '→']);

/**
 * Whether the text just before `local` (blanks and markdown emphasis skipped, a few characters
 * back) is a gloss mark: the phrase is a translation, not the model declining.
 */
function glossed(buffer: string, local: number): boolean {
  for (let at = local - 1; at >= 0 && at >= local - 4; at -= 1) {
    const character = buffer[at] as string;
    if (GLOSS_MARKS.has(character)) return true;
    if (character !== ' ' && character !== '*' && character !== '_') return false;
  }
  return false;
}

/**
 * Whether a match at `position` counts: not quoted, not in code, and in its region. A refusal in a
 * code block that opens the whole response counts: the block is the reply ("```\nI'm sorry, but I
 * cannot run that command."), as a quotation mark that opens the response is.
 */
function counts(
  pattern: CompiledPattern,
  position: number,
  buffer: string,
  offset: number,
  layout: Layout,
): boolean {
  const leadStart = layout.leadStart;
  if (!inRegion(pattern, layout, position)) return false;
  // the draft is the user's text to send, not the model speaking, unless a part declined after it
  // turns to the reader about the request
  if (
    layout.draftFrom !== undefined &&
    position > layout.draftFrom &&
    !(pattern.region === 'late' && declinesAfterDraft(buffer, position - offset))
  ) {
    return false;
  }
  if (layout.openingQuote?.holds(position)) return false;
  if (position > 0) {
    const before = buffer[position - 1 - offset];
    const json = layout.json === true;
    // a quotation mark that opens the whole response does not make it a quotation, nor does the
    // mark that opens a JSON value
    if (
      before !== undefined &&
      OPENING_QUOTES.has(before) &&
      position - 1 !== leadStart &&
      !(json && before === '"' && buffer[position - 2 - offset] !== '\\')
    ) {
      return false;
    }
    if (glossed(buffer, position - offset)) return false;
    if (insideQuotation(buffer, offset, position, leadStart, json)) return false;
  }
  if (!layout.fences.inside(position)) return true;
  return pattern.type === 'refusal' && layout.fences.insideOpeningBlock(position, leadStart);
}

function record(
  pattern: CompiledPattern,
  position: number,
  match: string,
  buffer: string,
  offset: number,
): Found {
  const local = position - offset;
  const end = local + match.length;
  const from = Math.max(0, local - CONTEXT_LENGTH);
  const to = Math.min(buffer.length, end + CONTEXT_LENGTH);
  return {
    pattern,
    position,
    end: position + match.length,
    match,
    around: buffer.slice(from, to),
    cutBefore: position - CONTEXT_LENGTH > 0,
    cutAfter: to < buffer.length,
  };
}

/**
 * Most prefilter hits repeat a few spellings ("I cannot", "i cannot"): what a spelling names is
 * kept for the next hit, up to a bound on entries and on their length, so that no text can make the
 * lookups grow without end.
 */
const SEEN_LIMIT = 8_192;
const SEEN_KEY_LENGTH = 32;

function remember<Value>(
  set: CompiledPatternSet,
  seen: Map<string, Value>,
  key: string,
  value: Value,
): void {
  if (set.seenCount < SEEN_LIMIT && key.length <= SEEN_KEY_LENGTH) {
    seen.set(key, value);
    set.seenCount += 1;
  }
}

/** The bucket a prefilter hit names, by the hit's text as it stands (null: none). */
function bucketOf(set: CompiledPatternSet, trigger: string): TriggerBucket | null {
  let bucket = set.seen.get(trigger);
  if (bucket === undefined) {
    bucket = set.buckets.get(canonicalTrigger(trigger)) ?? null;
    remember(set, set.seen, trigger, bucket);
  }
  return bucket;
}

/** How many prefilter hits are gathered before their patterns run. */
const HIT_BATCH = 64;

/**
 * Finds, for each pattern, its first match that counts, scanning with one prefilter over the
 * patterns' leading literals and checking the patterns only where a literal occurs. State is kept
 * between calls so that a stream can be scanned piece by piece with the same outcome.
 */
export class Scanner {
  readonly found: (Found | undefined)[];
  /** The sections (voice index, -1 before the first voice) where a refusal cue counted. */
  readonly refusalSections = new Set<number>();
  private remaining: number;
  private remainingAnywhere: number;
  private readonly fastPatterns: CompiledPattern[];
  /** Prefilter hits gathered and not yet checked: where each is, and the patterns to run there. */
  private readonly hitPositions: number[] = [];
  private readonly hitPatterns: CompiledPattern[][] = [];

  constructor(
    private readonly set: CompiledPatternSet,
    private readonly layout: Layout,
  ) {
    this.found = new Array(set.patterns.length).fill(undefined);
    compilePrefilters(set);
    this.fastPatterns = set.fastPatterns;
    this.remaining = set.fastPatterns.length;
    this.remainingAnywhere = set.fastAnywhere;
  }

  /** Whether nothing is left to look for; with voices, each voice's refusals are still wanted. */
  private done(): boolean {
    return this.remaining === 0 && this.layout.voices.starts.length === 0;
  }

  /**
   * Checks every match start in [from, to) (absolute offsets) of the patterns with leading
   * literals. `buffer` holds the response from absolute offset `offset`, including enough text
   * after `to` for any match starting before `to`.
   */
  scanFast(buffer: string, offset: number, from: number, to: number): void {
    const layout = this.layout;
    let position = from;
    while (position < to && !this.done()) {
      const end = leadEnd(layout, position);
      if (end !== undefined) {
        const stop = Math.min(to, end);
        this.runPrefilters(this.set.prefilterAll, buffer, offset, position, stop);
        position = stop;
        continue;
      }
      const stop = Math.min(to, nextLeadStart(layout, position));
      if (this.remainingAnywhere > 0) {
        this.runPrefilters(this.set.prefilterAnywhere, buffer, offset, position, stop);
      }
      position = stop;
    }
  }

  /**
   * Runs the prefilters over [from, to), taking their hits in order of position, then the patterns
   * that can match at each hit. Hits are gathered a batch at a time before any pattern runs, and
   * whether the scan is done is asked after each batch.
   */
  private runPrefilters(
    prefilters: Prefilter[],
    buffer: string,
    offset: number,
    from: number,
    to: number,
  ): void {
    if (prefilters.length === 0) return;
    // a trigger is the start of a match, so it ends within `reach` of a start before `to`: the
    // prefilters need not read past that (they would run on to the next hit, maybe the text's end)
    const end = to - offset + this.set.reach;
    const text = end < buffer.length ? buffer.slice(0, end) : buffer;
    const limit = to - offset;
    const positions = this.hitPositions;
    const lists = this.hitPatterns;
    let count = 0;
    // one or two prefilters (word-start triggers, other triggers): their hits taken in order
    const first = prefilters[0] as Prefilter;
    const second = prefilters[1];
    first.lastIndex = from - offset;
    let hitFirst = first.exec(text);
    let hitSecond = null as { index: number; 0: string } | null;
    if (second) {
      second.lastIndex = from - offset;
      hitSecond = second.exec(text);
    }
    for (;;) {
      const useFirst =
        hitFirst !== null &&
        hitFirst.index < limit &&
        (hitSecond === null || hitSecond.index >= limit || hitFirst.index <= hitSecond.index);
      const hit = useFirst
        ? hitFirst
        : hitSecond !== null && hitSecond.index < limit
          ? hitSecond
          : null;
      if (hit === null) break;
      const patterns = this.patternsAt(text, hit.index, hit[0]);
      if (patterns.length > 0) {
        positions[count] = hit.index + offset;
        lists[count] = patterns;
        count += 1;
        if (count === HIT_BATCH) {
          this.runHits(count, buffer, offset);
          count = 0;
          if (this.done()) return;
        }
      }
      if (useFirst) {
        first.lastIndex = hit.index + 1;
        hitFirst = first.exec(text);
      } else if (second) {
        second.lastIndex = hit.index + 1;
        hitSecond = second.exec(text);
      }
    }
    this.runHits(count, buffer, offset);
  }

  /**
   * The patterns that can match at a prefilter hit (`trigger`, the text it matched, at `index` of
   * `text`): those of the bucket it names whose continuation of the trigger follows it there.
   */
  private patternsAt(text: string, index: number, trigger: string): CompiledPattern[] {
    const bucket = bucketOf(this.set, trigger);
    if (!bucket) return this.fastPatterns;
    const follow = followFor(bucket);
    if (!follow) return bucket.patterns;
    const sticky = follow.sticky;
    const after = index + trigger.length;
    sticky.lastIndex = after;
    if (!sticky.test(text)) return follow.anyway;
    const continuation = text.slice(after, sticky.lastIndex);
    let patterns = follow.seen.get(continuation);
    if (patterns === undefined) {
      patterns = follow.patterns.get(canonicalTrigger(continuation)) ?? bucket.patterns;
      remember(this.set, follow.seen, continuation, patterns);
    }
    return patterns;
  }

  /** Runs the patterns of the first `count` gathered hits, in order. */
  private runHits(count: number, buffer: string, offset: number): void {
    const positions = this.hitPositions;
    const lists = this.hitPatterns;
    for (let index = 0; index < count; index += 1) {
      this.checkAt(lists[index] as CompiledPattern[], buffer, offset, positions[index] as number);
    }
  }

  private checkAt(
    patterns: CompiledPattern[],
    buffer: string,
    offset: number,
    position: number,
  ): void {
    const layout = this.layout;
    const voices = layout.voices.starts.length > 0;
    let section: number | undefined;
    for (const pattern of patterns) {
      const already = this.found[pattern.index] !== undefined;
      if (already) {
        if (pattern.type !== 'refusal' || !voices) continue;
        section ??= layout.voices.sectionOf(position);
        if (this.refusalSections.has(section)) continue;
      }
      // checked before the pattern runs, to save running it; counts() checks it for the reference
      if (!inRegion(pattern, layout, position)) continue;
      const sticky = pattern.sticky;
      if (!pattern.stickyCompiled) {
        compileAtOnce(sticky);
        pattern.stickyCompiled = true;
      }
      const local = position - offset;
      sticky.lastIndex = local;
      // test() builds no match array, and a sticky match ends where lastIndex is left
      if (!sticky.test(buffer) || sticky.lastIndex === local) continue;
      const end = sticky.lastIndex;
      if (!counts(pattern, position, buffer, offset, layout)) continue;
      if (refusesInVoiceOpening(pattern, layout, position)) {
        section ??= layout.voices.sectionOf(position);
        this.refusalSections.add(section);
      }
      if (already) continue;
      this.found[pattern.index] = record(
        pattern,
        position,
        buffer.slice(local, end),
        buffer,
        offset,
      );
      this.remaining -= 1;
      if (pattern.region !== 'lead') this.remainingAnywhere -= 1;
    }
  }

  /** Searches the whole text for each pattern without leading literals (needs the whole text). */
  scanPlain(text: string): void {
    for (const pattern of this.set.plain) {
      scanOne(pattern, text, this.layout, this.found, this.refusalSections);
    }
  }

  /** The matches that stand, once the whole response has been scanned. */
  settle(): Found[] {
    return settleVoices(
      this.found.filter((found): found is Found => found !== undefined),
      this.layout,
      this.refusalSections,
    );
  }
}

/**
 * The first match of one pattern that counts, found by searching the text from the start. With
 * voices, a refusal pattern is followed to its last match, to learn which voices refuse.
 */
function scanOne(
  pattern: CompiledPattern,
  text: string,
  layout: Layout,
  found: (Found | undefined)[],
  refusalSections: Set<number>,
): void {
  const voices = layout.voices.starts.length > 0;
  const search = pattern.search;
  search.lastIndex = 0;
  for (;;) {
    const match = search.exec(text);
    if (match === null) return;
    const position = match.index;
    search.lastIndex = position + 1;
    if (pattern.region === 'lead' && !inLead(layout, position)) {
      if (!voices) return;
      continue;
    }
    if (match[0] === '' || !counts(pattern, position, text, 0, layout)) continue;
    if (refusesInVoiceOpening(pattern, layout, position)) {
      refusalSections.add(layout.voices.sectionOf(position));
    }
    if (found[pattern.index] === undefined) {
      found[pattern.index] = record(pattern, position, match[0], text, 0);
    }
    if (pattern.type !== 'refusal' || !voices) return;
  }
}

/** Where the first and last non-blank characters of a text are. */
export function trimBounds(text: string): { first: number; last: number } | undefined {
  let first = 0;
  while (first < text.length && isWhitespaceCode(text.charCodeAt(first))) first += 1;
  if (first === text.length) return undefined;
  let last = text.length - 1;
  while (last > first && isWhitespaceCode(text.charCodeAt(last))) last -= 1;
  return { first, last };
}

/** Lays out a whole text: where it starts and where its code fences are. */
export function layoutText(text: string, leadLength: number): Layout {
  const fences = new FenceTracker();
  fences.scan(text, 0, 0, text.length);
  const leadStart = trimBounds(text)?.first ?? text.length;
  const openingQuote = openingQuoteAt(text, leadStart);
  openingQuote?.read(text, 0);
  return {
    leadStart,
    leadLength,
    fences,
    voices: new VoiceTracker(),
    draftFrom: draftOf(text, leadStart),
    openingQuote,
    json: opensJson(text[leadStart]),
  };
}

/** The same layout with the text's voice labels found (past the opening only when wanted). */
function withVoices(text: string, layout: Layout): Layout {
  const voices = new VoiceTracker();
  const openingEnd = (layout.leadStart ?? 0) + layout.leadLength;
  voices.scan(text, 0, Math.min(openingEnd, text.length), true);
  if (voices.wanted(openingEnd)) voices.scan(text, 0, text.length, true);
  return { ...layout, voices };
}

/**
 * Runs a whole-text scan; voices are looked for only when the response refuses in its opening,
 * the one case where they can change the outcome (see settleVoices).
 */
function scanWhole(
  set: CompiledPatternSet,
  text: string,
  layout: Layout,
  scan: (set: CompiledPatternSet, text: string, layout: Layout) => Found[],
): Found[] {
  const found = scan(set, text, layout);
  if (!refusesInOpening(found, layout)) return found;
  const voiced = withVoices(text, layout);
  const leadStart = voiced.leadStart ?? 0;
  if (!speaksInVoices(voiced.voices, leadStart, voiced.leadLength)) return found;
  return scan(set, text, voiced);
}

function scanFastOnce(set: CompiledPatternSet, text: string, layout: Layout): Found[] {
  const scanner = new Scanner(set, layout);
  scanner.scanFast(text, 0, 0, text.length);
  scanner.scanPlain(text);
  return scanner.settle();
}

/** Finds the first counting match of every pattern with the prefilter (the fast path). */
export function scanText(set: CompiledPatternSet, text: string, layout: Layout): Found[] {
  return scanWhole(set, text, layout, scanFastOnce);
}

function scanReferenceOnce(set: CompiledPatternSet, text: string, layout: Layout): Found[] {
  const found: (Found | undefined)[] = new Array(set.patterns.length).fill(undefined);
  const refusalSections = new Set<number>();
  for (const pattern of set.patterns) scanOne(pattern, text, layout, found, refusalSections);
  return settleVoices(
    found.filter((item): item is Found => item !== undefined),
    layout,
    refusalSections,
  );
}

/**
 * The straightforward scan: each pattern searched over the whole text on its own. Same result as
 * {@link scanText}; kept as the reference the fast path is tested and measured against.
 */
export function scanTextReference(set: CompiledPatternSet, text: string, layout: Layout): Found[] {
  return scanWhole(set, text, layout, scanReferenceOnce);
}
