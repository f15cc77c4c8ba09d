/** A sentence of a text, with its character offsets in that text. */
export interface TextSpan {
  text: string;
  /** Offset of the first character in the source text. */
  start: number;
  /** Offset just past the last character in the source text. */
  end: number;
}

// a period after these words rarely ends a sentence
const ABBREVIATIONS = new Set(
  (
    'mr mrs ms dr prof sr jr st mt vs cf al approx dept est fig gen gov inc ltd co corp vol pp ' +
    'ca jan feb mar apr jun jul aug sep sept oct nov dec'
  ).split(' '),
);

const TERMINATOR = /[.!?…]+["'”’)\]]*(?=\s)/g;

function isAbbreviation(before: string, nextCharacter: string): boolean {
  const word = /([\p{L}.]+)$/u.exec(before)?.[1];
  if (!word) return false;
  // "no. 5" is a number sign, "no. Then" ends a sentence
  if (word.toLowerCase() === 'no') return /\d/.test(nextCharacter);
  // initials and dotted forms: "J.", "e.g.", "U.S."
  if (/^\p{L}$/u.test(word) || /^(\p{L}\.)+\p{L}$/u.test(word)) return true;
  return ABBREVIATIONS.has(word.toLowerCase());
}

function splitLine(line: string, offset: number, spans: TextSpan[]): void {
  let start = 0;
  for (const match of line.matchAll(TERMINATOR)) {
    const end = match.index + match[0].length;
    const next = /\S/u.exec(line.slice(end));
    if (!next) break;
    const nextCharacter = next[0];
    // a lowercase continuation means the period did not end the sentence
    if (/\p{Ll}/u.test(nextCharacter)) continue;
    if (match[0] === '.') {
      if (isAbbreviation(line.slice(0, match.index), nextCharacter)) continue;
      // a list marker such as "1." or "iv." stays with its item
      if (/^\s*(\d+|[ivxlc]+)$/i.test(line.slice(start, match.index))) continue;
    }
    pushSpan(line, { start, end, offset }, spans);
    start = end;
  }
  pushSpan(line, { start, end: line.length, offset }, spans);
}

function pushSpan(
  line: string,
  range: { start: number; end: number; offset: number },
  spans: TextSpan[],
): void {
  const raw = line.slice(range.start, range.end);
  const leading = raw.length - raw.trimStart().length;
  const text = raw.trim();
  if (text.length === 0) return;
  const start = range.offset + range.start + leading;
  spans.push({ text, start, end: start + text.length });
}

/**
 * Splits a text into sentences. A sentence ends at `.`, `!`, `?` or `…` (with any closing quote or
 * bracket) followed by space and a character that is not lowercase, except after an abbreviation
 * ("Dr.", "e.g.", "U.S.") or an initial; decimals ("3.5") never split. A line break ends a
 * sentence unless the line has no closing punctuation and the next line starts in lowercase,
 * which reads as a wrapped line; list markers stay with their item.
 */
export function splitSentences(text: string): TextSpan[] {
  const spans: TextSpan[] = [];
  const lines: { text: string; start: number }[] = [];
  for (const match of text.matchAll(/[^\r\n]+/g)) {
    lines.push({ text: match[0], start: match.index });
  }
  let index = 0;
  while (index < lines.length) {
    const first = lines[index]!;
    let end = first.start + first.text.length;
    // join wrapped lines: no closing punctuation, and the next line continues in lowercase
    while (index + 1 < lines.length) {
      const current = text.slice(first.start, end).trimEnd();
      const next = lines[index + 1]!;
      const blankBetween = /\n\s*\n/.test(text.slice(end, next.start));
      if (blankBetween || /[.!?…:;"'”’)\]]$/u.test(current) || !/^\s*\p{Ll}/u.test(next.text))
        break;
      end = next.start + next.text.length;
      index++;
    }
    splitLine(text.slice(first.start, end), first.start, spans);
    index++;
  }
  return spans;
}
