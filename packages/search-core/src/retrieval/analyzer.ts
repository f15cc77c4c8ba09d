import { stemmer } from 'stemmer';
import { englishStopWords } from './stop-words.js';

/** Options of an {@link Analyzer}. */
export interface AnalyzerOptions {
  /** Words removed before stemming; defaults to {@link englishStopWords}, `false` keeps every word. */
  stopWords?: Iterable<string> | false;
  /** Words removed on top of `stopWords`, e.g. boilerplate of the questions a retriever serves. */
  extraStopWords?: Iterable<string>;
  /** Porter-stem words of plain ASCII letters; defaults to true. */
  stem?: boolean;
}

// a number with decimal or thousands separators, a single ideograph or hiragana character (scripts
// written without spaces are indexed character by character), or a run of letters, marks and digits
// with inner apostrophes ("don't", "o'brien"); built from a string because the `v` flag needs an
// es2024 target in the type checker while node 20 runs it
const wordCharacter = '[[\\p{L}\\p{M}\\p{N}]--[\\p{Script=Han}\\p{Script=Hiragana}]]';
const tokenPattern = new RegExp(
  `\\p{N}+(?:[.,]\\p{N}+)+|[\\p{Script=Han}\\p{Script=Hiragana}]|${wordCharacter}+(?:['’]${wordCharacter}+)*`,
  'gv',
);
const nonAscii = /[\u0080-\uffff]/;
const asciiWord = /^[a-z]+$/;
const separatedNumber = /^\p{N}+(?:[.,]\p{N}+)+$/u;
const apostrophe = 0x27;
const period = 0x2e;
const comma = 0x2c;
const contractionSuffixes = new Set(['s', 'd', 'll', 're', 've', 'm']);
const irregularNegations: Readonly<Record<string, string>> = {
  ca: 'can',
  wo: 'will',
  sha: 'shall',
};
// the cache maps a lowercased token to its term ('' for a dropped word); it is bounded so that a
// long-lived analyzer fed an open vocabulary cannot grow without limit
const cacheLimit = 200_000;
// the cache's open-addressing table starts small and doubles while it is over half full
const initialCacheSlots = 1 << 12;

/**
 * Turns text into index terms: Unicode lowercasing and NFKC folding, word tokenising that keeps
 * numbers ("3.5", "1,000" → "1000"), contraction and possessive splitting, stop-word removal and
 * Porter stemming. The same analyzer must serve documents and queries.
 */
export class Analyzer {
  /** The words this analyzer drops. */
  readonly stopWords: ReadonlySet<string>;
  /** Whether ASCII words are Porter-stemmed. */
  readonly stem: boolean;
  private readonly cache = new TermCache();

  constructor(options: AnalyzerOptions = {}) {
    const stopWords = new Set<string>(
      options.stopWords === false ? [] : (options.stopWords ?? englishStopWords),
    );
    for (const word of options.extraStopWords ?? []) stopWords.add(word.toLowerCase());
    this.stopWords = stopWords;
    this.stem = options.stem ?? true;
  }

  /** The terms of a text, in order, repeats kept. */
  analyze(text: string): string[] {
    const terms: string[] = [];
    if (nonAscii.test(text)) {
      const folded = text.normalize('NFKC').toLowerCase();
      tokenPattern.lastIndex = 0;
      for (
        let match = tokenPattern.exec(folded);
        match !== null;
        match = tokenPattern.exec(folded)
      ) {
        const token = match[0];
        this.addTerm(terms, token, 0, token.length);
      }
      return terms;
    }
    // plain ASCII, which most text is: the same tokens as the pattern, found by a scanner that is
    // several times faster than the regular expression
    const folded = text.toLowerCase();
    const length = folded.length;
    let index = 0;
    while (index < length) {
      if (!isAsciiWordCharacter(folded.charCodeAt(index))) {
        index += 1;
        continue;
      }
      const start = index;
      let digitsOnly = true;
      while (index < length) {
        const code = folded.charCodeAt(index);
        if (isAsciiWordCharacter(code)) {
          if (!isDigit(code)) digitsOnly = false;
          index += 1;
          continue;
        }
        const next = index + 1 < length ? folded.charCodeAt(index + 1) : 0;
        if (code === apostrophe && isAsciiWordCharacter(next)) {
          digitsOnly = false;
          index += 1;
          continue;
        }
        if (digitsOnly && (code === period || code === comma) && isDigit(next)) {
          // a separated number ends where its digits end ("3.5km" → "3.5", "km")
          index += 1;
          while (index < length) {
            const digit = folded.charCodeAt(index);
            if (isDigit(digit)) index += 1;
            else if ((digit === period || digit === comma) && isDigit(folded.charCodeAt(index + 1)))
              index += 1;
            else break;
          }
          break;
        }
        break;
      }
      this.addTerm(terms, folded, start, index);
    }
    return terms;
  }

  /** Adds the term of `text[start, end)`; a token seen before is looked up without copying it. */
  private addTerm(terms: string[], text: string, start: number, end: number): void {
    let term = this.cache.find(text, start, end);
    if (term === undefined) {
      const token = text.slice(start, end);
      term = this.termOf(token);
      this.cache.add(token, term);
    }
    if (term !== '') terms.push(term);
  }

  private termOf(token: string): string {
    let word = token;
    if (separatedNumber.test(word)) return word.replaceAll(',', '');
    const split = word.search(/['’]/);
    if (split > 0) {
      const base = word.slice(0, split);
      const suffix = word.slice(split + 1).replaceAll('’', "'");
      if (contractionSuffixes.has(suffix)) {
        word = base;
      } else if (suffix === 't' && base.endsWith('n')) {
        const stem = base.slice(0, -1);
        word = irregularNegations[stem] ?? stem;
      } else {
        word = word.replaceAll(/['’]/g, '');
      }
    }
    if (word === '' || this.stopWords.has(word)) return '';
    if (this.stem && asciiWord.test(word)) return stemmer(word);
    return word;
  }
}

// character codes: '0'–'9' are 0x30–0x39, 'a'–'z' are 0x61–0x7a
function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function isAsciiWordCharacter(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || isDigit(code);
}

/**
 * Terms of the tokens seen so far, found by hashing a token's characters where they stand in the
 * text: most tokens repeat, and a hit then costs neither a copy of the token nor a string hash.
 */
class TermCache {
  private tokens: (string | undefined)[] = new Array(initialCacheSlots);
  private terms: string[] = new Array(initialCacheSlots);
  private mask = initialCacheSlots - 1;
  private size = 0;

  find(text: string, start: number, end: number): string | undefined {
    const length = end - start;
    let slot = hashOf(text, start, end) & this.mask;
    for (;;) {
      const token = this.tokens[slot];
      if (token === undefined) return undefined;
      if (token.length === length && sameCharacters(token, text, start)) return this.terms[slot];
      slot = (slot + 1) & this.mask;
    }
  }

  add(token: string, term: string): void {
    if (this.size >= cacheLimit) this.reset(initialCacheSlots);
    else if (this.size * 2 >= this.tokens.length) this.reset(this.tokens.length * 2);
    this.place(token, term);
    this.size += 1;
  }

  private place(token: string, term: string): void {
    let slot = hashOf(token, 0, token.length) & this.mask;
    while (this.tokens[slot] !== undefined) slot = (slot + 1) & this.mask;
    this.tokens[slot] = token;
    this.terms[slot] = term;
  }

  /** Empties the table to `slots` slots, keeping its entries unless it is full. */
  private reset(slots: number): void {
    const tokens = this.tokens;
    const terms = this.terms;
    const keep = slots > tokens.length;
    this.tokens = new Array(slots);
    this.terms = new Array(slots);
    this.mask = slots - 1;
    if (!keep) {
      this.size = 0;
      return;
    }
    tokens.forEach((token, slot) => {
      if (token !== undefined) this.place(token, terms[slot] ?? '');
    });
  }
}

// 32-bit FNV-1a over UTF-16 code units
function hashOf(text: string, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let index = start; index < end; index += 1) {
    hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  }
  return hash >>> 0;
}

function sameCharacters(token: string, text: string, start: number): boolean {
  for (let index = 0; index < token.length; index += 1) {
    if (token.charCodeAt(index) !== text.charCodeAt(start + index)) return false;
  }
  return true;
}

/** The analyzer used when none is given: English stop words and Porter stemming. */
export const defaultAnalyzer: Analyzer = new Analyzer();
