/**
 * Voices: some answers are written as several speakers, one after another, each line led by a
 * label ("[GPT]: …", "(🔓Developer Mode Output) …", "DAN: …", "As BH, …"). Role-play prompts ask
 * for this, and one voice often refuses while another answers. Each voice has its own opening,
 * where refusal cues are read as in the opening of a response; the response refuses only when
 * every voice refuses.
 */

/** How far past a line start a voice label may reach. */
export const MAX_LABEL_LENGTH = 72;

// headings, list words and letter parts: a line led by one of these is not a new speaker
const NOT_A_SPEAKER = new Set(
  [
    'a|q|note|notes|nb|n.b|ps|p.s|step|title|subtitle|answer|question|example|examples|',
    'summary|conclusion|introduction|intro|warning|disclaimer|important|tip|tips|pro tip|',
    'update|edit|output|input|result|results|response|explanation|solution|option|options|',
    'pros|cons|ingredients|instructions|subject|date|time|to|from|dear|re|cc|bcc|source|',
    'sources|reference|references|caution|hint|context|background|overview|definition|',
    'problem|goal|goals|objective|purpose|method|methods|approach|analysis|discussion|',
    'recommendation|recommendations|verdict|rating|score|bonus|fun fact|key takeaway|',
    'takeaway|takeaways|scene|setting|chorus|verse|bridge|outro|hook|location|address|phone|',
    'email|website|price|cost|total|name|age|status|type|category|description|details|',
    'features|benefits|risks|advantages|disadvantages|strengths|weaknesses|pros and cons|day|',
    'week|month|year|morning|afternoon|evening|night|breakfast|lunch|dinner|snack|part|',
    'chapter|section|act|phase|stage|level|round|task|exercise|activity|materials|tools|',
    'equipment|requirements|prerequisites|usage|syntax|parameters|returns|return|raises|args|',
    'arguments|error|info|debug|fix|cause|causes|symptoms|treatment|diagnosis|prognosis|',
    'prevention|dosage|side effects|abstract|keywords|findings|limitations|implications|',
    'hypothesis|claim|evidence|reasoning|counterpoint|rebuttal|thesis|premise|premises|',
    'therefore|however|also|first|second|third|finally|next|then|lastly|additionally|',
    'moreover|yes|no|true|false|correct|incorrect|right|wrong|short answer|long answer|tl;dr|',
    'tldr|bottom line|in short|key points|main points|user|prompt|query|request|reply|',
    'comment|feedback|review|rationale|assumptions|caveat|caveats|alternatives|alternative|',
    'next steps|resources|links|faq|pricing|timeline|budget|deadline|author|authors|host|',
    'guest|interviewer|interviewee|moderator|speaker|narrator|character',
  ]
    .join('')
    .split('|'),
);

// a label at the start of a line, then speech on the same line: a bracketed or parenthesised
// name, "Name:" of up to three words (in bold or not), or "As Name,"
const VOICE_LABEL = new RegExp(
  String.raw`[ \t]{0,4}(?:` +
    String.raw`\[(?<bracketed>[^\]\n]{1,40})\](?!\()|` +
    String.raw`\((?<parenthesised>[^)\n]{1,40})\)|` +
    String.raw`(?<glyph>[\p{Script=Greek}\p{Extended_Pictographic}])\uFE0F?(?=:? )|` +
    String.raw`(?:\*\*)?(?<named>[^\s\w"'“‘\[(*_#>|~\-]{0,3}[A-Z][\w.\-]{0,24}(?: [A-Z(][\w.()\-]{0,14}){0,2})(?::\*\*|\*\*:|:)|` +
    String.raw`As (?!an?\b|the\b|such\b|of\b|for\b|far\b|well\b|long\b|soon\b|much\b|many\b|if\b|it\b|you\b|we\b|I\b)(?<as>[A-Z][\w.\-]{0,24}(?: [A-Z][\w.\-]{0,24}){0,2})(?: with [^,\n]{1,40})?,` +
    String.raw`):?[ \t]{0,4}(?=[^\s*_#|>~-])`,
  'uy',
);

/** The name a voice label gives, when the line starts with one. */
function speakerAt(text: string, position: number): string | undefined {
  VOICE_LABEL.lastIndex = position;
  const match = VOICE_LABEL.exec(text);
  if (match === null || match.groups === undefined) return undefined;
  const groups = match.groups;
  const name = (
    groups.bracketed ??
    groups.parenthesised ??
    groups.named ??
    groups.as ??
    groups.glyph ??
    ''
  )
    .replace(/[:*_]+$/u, '')
    .trim();
  // a label names someone: it has letters, and it is not a heading or a list number
  // a single Greek letter or pictograph names a speaker in some role-play formats ("α …", "Ω …")
  if (groups.glyph !== undefined) return groups.glyph;
  if (!/\p{L}{2}|\p{Extended_Pictographic}/u.test(name)) return undefined;
  const bare = name
    .replace(/[^\p{L}\p{N} .;&'-]/gu, '')
    .trim()
    .toLowerCase();
  if (bare === '' || NOT_A_SPEAKER.has(bare)) return undefined;
  if (
    /^(?:step|part|chapter|section|option|day|week|phase|stage|level|round|question|example|figure|table|note|verse)\b/.test(
      bare,
    )
  ) {
    return undefined;
  }
  return bare;
}

/** Where the text of a line starting at `start` begins, past up to four blanks of indentation. */
function indented(text: string, start: number): number {
  let index = start;
  while (index < start + 4 && (text.charCodeAt(index) === 32 || text.charCodeAt(index) === 9)) {
    index += 1;
  }
  return index;
}

/** Whether the text at `index` opens a bold label: "**Agent:** …". */
function boldAt(text: string, index: number): boolean {
  return text.charCodeAt(index) === 42 && text.charCodeAt(index + 1) === 42;
}

/**
 * Whether a line could start with a label, read from its first characters without a regular
 * expression: most lines of prose start with a capital and have no colon among their first words.
 */
function mayStartLabel(text: string, start: number): boolean {
  let index = indented(text, start);
  if (boldAt(text, index)) index += 2;
  const first = text.charCodeAt(index);
  // "[", "(", and anything past Latin (Greek letters, pictographs)
  if (first === 91 || first === 40 || first >= 0x370) return true;
  if (first < 65 || first > 90) return false;
  if (first === 65 && text.charCodeAt(index + 1) === 115 && text.charCodeAt(index + 2) === 32) {
    return true;
  }
  // "Name:" of at most three words
  let spaces = 0;
  for (let at = index + 1; at < index + 64 && at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if (code === 58) return true;
    if (code === 10) return false;
    if (code === 32 && ++spaces > 3) return false;
  }
  return false;
}

/** Finds the voice labels of a response as it is read, line by line. */
export class VoiceTracker {
  /** Where each label's line starts, in order. */
  readonly starts: number[] = [];
  /** The speaker each label names, in the same order. */
  readonly speakers: string[] = [];
  /** Whether each label is in bold ("**Agent:**"), in the same order. */
  readonly bold: boolean[] = [];
  private scannedTo = 0;

  /**
   * Whether labels are still worth reading: a response is written in voices only when a label
   * stands in its opening (see speaksInVoices), so once the opening, up to `openingEnd`, has been
   * read without one, the labels after it can change no outcome.
   */
  wanted(openingEnd: number): boolean {
    return this.scannedTo < openingEnd || (this.starts[0] ?? openingEnd) < openingEnd;
  }

  /**
   * Looks for labels at the line starts in [scannedTo, to) (absolute offsets). `buffer` holds the
   * text from `offset`, including at least MAX_LABEL_LENGTH characters after `to` unless `final`.
   */
  scan(buffer: string, offset: number, to: number, final: boolean): void {
    let position = this.scannedTo;
    const end = Math.min(to, offset + buffer.length);
    while (position < end) {
      const local = position - offset;
      if (position === 0 || buffer.charCodeAt(local - 1) === 10) {
        // a label may still be arriving: look again when more text is here
        if (!final && local + MAX_LABEL_LENGTH > buffer.length) break;
        const speaker = mayStartLabel(buffer, local) ? speakerAt(buffer, local) : undefined;
        if (speaker !== undefined) {
          this.starts.push(position);
          this.speakers.push(speaker);
          this.bold.push(boldAt(buffer, indented(buffer, local)));
        }
      }
      const newline = buffer.indexOf('\n', local);
      // no line starts until another line break arrives
      position = newline === -1 ? offset + buffer.length : newline + offset + 1;
    }
    this.scannedTo = position;
  }

  /** The index of the last label at or before `position`, or -1 before the first. */
  sectionOf(position: number): number {
    const starts = this.starts;
    let low = 0;
    let high = starts.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((starts[middle] ?? 0) <= position) low = middle + 1;
      else high = middle;
    }
    return low - 1;
  }
}

/** Fewest characters from one label to the next for a line of speech, not a field of a record. */
const MIN_SPEECH = 24;
/** Most speakers a response in voices has; more labels than this are headings or fields. */
const MAX_SPEAKERS = 6;

/**
 * Whether the response is written in voices: two labels or more, naming two to six speakers, the
 * first in the opening of the response, each followed by at least a line of speech (or half of
 * them, when some speaker speaks again), and each bold label naming a speaker who speaks more
 * than once.
 */
export function speaksInVoices(
  voices: VoiceTracker,
  leadStart: number,
  leadLength: number,
): boolean {
  const starts = voices.starts;
  const first = starts[0];
  if (first === undefined || starts.length < 2) return false;
  if (first >= leadStart + leadLength) return false;
  const speakers = new Set(voices.speakers).size;
  // a script has its short lines ("ROOK: Fine.") and its speakers speak again; the fields of a
  // record ("Title: …", "Price: …") are short lines named once each: short lines are
  // allowed only where some speaker speaks again, and only up to half of the lines
  let short = 0;
  for (let index = 1; index < starts.length; index += 1) {
    if ((starts[index] ?? 0) - (starts[index - 1] ?? 0) < MIN_SPEECH) short += 1;
  }
  if (short > 0 && (short * 2 > starts.length - 1 || speakers === starts.length)) return false;
  if (speakers < 2 || speakers > MAX_SPEAKERS) return false;
  // a bold label is a speaker in a dialogue only when it speaks again; once, it is a heading
  // ("**Important note:** …")
  const all = voices.speakers;
  return all.every(
    (speaker, index) => !voices.bold[index] || all.indexOf(speaker) !== all.lastIndexOf(speaker),
  );
}
