import { isWhitespaceCode } from '../scan.js';

/** How a response's opening is turned into hashed features; stored in every model file. */
export interface FeatureSettings {
  /** Characters read, from the first non-blank one: the opening window. */
  window: number;
  /** 2^bits hash buckets per label. */
  bits: number;
  /** 1: words; 2: and pairs of words; 3: and triples. */
  wordNgrams: number;
  /** Shortest character n-gram of a word (with its boundary marks); 0 for none. */
  charMin: number;
  /** Longest character n-gram of a word; 0 for none. */
  charMax: number;
  /** The first this many tokens also count as opening features, apart from the same words later. */
  leadTokens: number;
}

// a word longer than this contributes its character n-grams from its first letters only
const MAX_WORD_CODES = 32;
const WORD_SEED = 0x2c1b3c6d;
const PAIR_SEED = 0x297a2d39;
const TRIPLE_SEED = 0x7f4a7c15;
const CHAR_SEED = 0x1b873593;
const LEAD_SEED = 0x68e31da4;
const LEAD_PAIR_SEED = 0x5bd1e995;

/** Finishes a 32-bit hash (the MurmurHash3 finaliser): every input bit reaches every output bit. */
function finish(hash: number): number {
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

const combine = (left: number, right: number, seed: number) =>
  finish(Math.imul(left ^ seed, 0x01000193) ^ right);

// each UTF-16 code unit's class and folded form, built at the first read: a table lookup in
// the hot loop instead of a chain of comparisons
const BLANK = 0;
const LETTER = 1;
const SYMBOL = 2;
const APOSTROPHE = 3;
const LOW_SURROGATE = 4;
let classes: Uint8Array | undefined;
let folded: Uint16Array | undefined;

function characterTables(): { classes: Uint8Array; folded: Uint16Array } {
  if (classes && folded) return { classes, folded };
  classes = new Uint8Array(65536);
  folded = new Uint16Array(65536);
  for (let code = 0; code < 65536; code += 1) {
    let fold = code;
    if (code >= 65 && code <= 90) fold += 32;
    else if (code >= 0xc0 && code <= 0xde && code !== 0xd7) fold += 32;
    folded[code] = fold;
    if (isWhitespaceCode(code)) classes[code] = BLANK;
    else if (code === 39 || code === 0x2019 || code === 0x2018) {
      classes[code] = APOSTROPHE;
      folded[code] = 39;
    } else if (code >= 0xdc00 && code <= 0xdfff) classes[code] = LOW_SURROGATE;
    else if (
      (fold >= 97 && fold <= 122) ||
      (fold >= 48 && fold <= 57) ||
      (fold >= 0xdf && fold !== 0xf7 && fold < 0x2000)
    ) {
      classes[code] = LETTER;
    } else classes[code] = SYMBOL;
  }
  return { classes, folded };
}

/**
 * Reusable storage for the features of one window: no allocation per n-gram or per response.
 * `hashes[i]` is a bucket, `sentences[i]` the sentence it came from; sentence `s` spans
 * `sentenceStart[s]` to `sentenceEnd[s]` (offsets in the text).
 */
export class FeatureBuffer {
  readonly hashes: Int32Array;
  readonly sentences: Int32Array;
  sentenceStart: Int32Array;
  sentenceEnd: Int32Array;
  count = 0;
  sentenceCount = 0;
  // the tokens of the window: hash, sentence, and for words where their letters are
  private readonly tokenHash: Int32Array;
  private readonly tokenSentence: Int32Array;
  private readonly tokenStart: Int32Array;
  private readonly tokenLength: Int32Array;
  private readonly wordCodes = new Int32Array(MAX_WORD_CODES + 2);

  constructor(readonly settings: FeatureSettings) {
    const perCharacter =
      settings.wordNgrams + 2 + Math.max(0, settings.charMax - settings.charMin + 1);
    const capacity = settings.window * perCharacter + 16;
    this.hashes = new Int32Array(capacity);
    this.sentences = new Int32Array(capacity);
    this.sentenceStart = new Int32Array(64);
    this.sentenceEnd = new Int32Array(64);
    this.tokenHash = new Int32Array(settings.window + 1);
    this.tokenSentence = new Int32Array(settings.window + 1);
    this.tokenStart = new Int32Array(settings.window + 1);
    this.tokenLength = new Int32Array(settings.window + 1);
  }

  private pushSentence(start: number, end: number): void {
    if (this.sentenceCount === this.sentenceStart.length) {
      // grows rarely: at most a few times over a run, never per n-gram
      const larger = this.sentenceStart.length * 2;
      const starts = new Int32Array(larger);
      const ends = new Int32Array(larger);
      starts.set(this.sentenceStart);
      ends.set(this.sentenceEnd);
      this.sentenceStart = starts;
      this.sentenceEnd = ends;
    }
    this.sentenceStart[this.sentenceCount] = start;
    this.sentenceEnd[this.sentenceCount] = end;
    this.sentenceCount += 1;
  }

  /**
   * Reads `text[from, to)` (at most `window` characters) into hashed features, replacing what the
   * buffer held. Letters are folded to lower case (ASCII and Latin-1), curly apostrophes to
   * straight ones; a word is a run of letters, digits and inner apostrophes, and any other
   * non-blank character is a token of its own. A sentence ends at a line break, or at ".", "!" or
   * "?" before a blank.
   */
  read(text: string, from: number, to: number): void {
    const tables = characterTables();
    const classOf = tables.classes;
    const foldOf = tables.folded;
    if (to - from > this.settings.window) to = from + this.settings.window;
    const tokenHash = this.tokenHash;
    const tokenSentence = this.tokenSentence;
    const tokenStart = this.tokenStart;
    const tokenLength = this.tokenLength;
    this.sentenceCount = 0;
    let tokens = 0;
    let sentence = 0;
    let sentenceStart = -1;
    let sentenceEnd = -1;
    let wordStart = -1;
    let wordHash = 0;
    let endsSentence = false;
    for (let index = from; index < to; index += 1) {
      const code = text.charCodeAt(index);
      let kind = classOf[code] as number;
      if (kind === APOSTROPHE) kind = wordStart !== -1 ? LETTER : SYMBOL;
      if (kind === LETTER) {
        if (wordStart === -1) {
          wordStart = index;
          wordHash = 0x811c9dc5;
        }
        wordHash = Math.imul(wordHash ^ (foldOf[code] as number), 0x01000193);
        if (sentenceStart === -1) sentenceStart = index;
        sentenceEnd = index + 1;
        endsSentence = false;
        continue;
      }
      if (wordStart !== -1) {
        tokenHash[tokens] = wordHash;
        tokenSentence[tokens] = sentence;
        tokenStart[tokens] = wordStart;
        tokenLength[tokens] = index - wordStart;
        tokens += 1;
        wordStart = -1;
      }
      if (kind === BLANK) {
        if ((endsSentence || code === 10 || code === 13) && sentenceStart !== -1) {
          this.pushSentence(sentenceStart, sentenceEnd);
          sentence += 1;
          sentenceStart = -1;
        }
        endsSentence = false;
        continue;
      }
      if (sentenceStart === -1) sentenceStart = index;
      sentenceEnd = index + 1;
      // a low surrogate is the second half of a symbol already counted
      if (kind === LOW_SURROGATE) continue;
      tokenHash[tokens] = Math.imul(0x811c9dc5 ^ (foldOf[code] as number), 0x01000193);
      tokenSentence[tokens] = sentence;
      tokenStart[tokens] = index;
      tokenLength[tokens] = 0;
      tokens += 1;
      endsSentence = code === 46 || code === 33 || code === 63;
    }
    if (wordStart !== -1) {
      tokenHash[tokens] = wordHash;
      tokenSentence[tokens] = sentence;
      tokenStart[tokens] = wordStart;
      tokenLength[tokens] = to - wordStart;
      tokens += 1;
    }
    if (sentenceStart !== -1) this.pushSentence(sentenceStart, sentenceEnd);
    this.count = this.emit(text, tokens, foldOf);
  }

  /** Turns the tokens into features: words, pairs, triples, opening words, character n-grams. */
  private emit(text: string, tokens: number, foldOf: Uint16Array): number {
    const { wordNgrams, charMin, charMax, leadTokens } = this.settings;
    const mask = (1 << this.settings.bits) - 1;
    const hashes = this.hashes;
    const sentences = this.sentences;
    const tokenHash = this.tokenHash;
    const tokenSentence = this.tokenSentence;
    const codes = this.wordCodes;
    let count = 0;
    for (let token = 0; token < tokens; token += 1) {
      const hash = tokenHash[token] as number;
      const sentence = tokenSentence[token] as number;
      hashes[count] = finish(hash ^ WORD_SEED) & mask;
      sentences[count++] = sentence;
      if (wordNgrams >= 2 && token > 0) {
        const previous = tokenHash[token - 1] as number;
        hashes[count] = combine(previous, hash, PAIR_SEED) & mask;
        sentences[count++] = sentence;
        if (wordNgrams >= 3 && token > 1) {
          const pair = combine(tokenHash[token - 2] as number, previous, TRIPLE_SEED);
          hashes[count] = combine(pair, hash, TRIPLE_SEED) & mask;
          sentences[count++] = sentence;
        }
      }
      if (token < leadTokens) {
        hashes[count] = finish(hash ^ LEAD_SEED) & mask;
        sentences[count++] = sentence;
        if (token > 0) {
          hashes[count] = combine(tokenHash[token - 1] as number, hash, LEAD_PAIR_SEED) & mask;
          sentences[count++] = sentence;
        }
      }
      const wordLength = this.tokenLength[token] as number;
      if (charMin > 0 && wordLength > 0) {
        // the word between boundary marks, as fastText reads subwords: <word>
        const start = this.tokenStart[token] as number;
        const length = Math.min(wordLength, MAX_WORD_CODES) + 2;
        codes[0] = 60;
        for (let index = 1; index < length - 1; index += 1) {
          codes[index] = foldOf[text.charCodeAt(start + index - 1)] as number;
        }
        codes[length - 1] = 62;
        for (let first = 0; first < length; first += 1) {
          let gram = CHAR_SEED;
          for (let size = 1; size <= charMax && first + size <= length; size += 1) {
            gram = Math.imul(gram ^ (codes[first + size - 1] as number), 0x01000193);
            if (size >= charMin && size < length) {
              hashes[count] = finish(gram) & mask;
              sentences[count++] = sentence;
            }
          }
        }
      }
    }
    return count;
  }
}

/** Where the opening window of a text starts and ends: from its first non-blank character. */
export function openingWindow(text: string, window: number): { from: number; to: number } {
  let from = 0;
  while (from < text.length && isWhitespaceCode(text.charCodeAt(from))) from += 1;
  let to = Math.min(text.length, from + window);
  // never split a surrogate pair: the stream and the whole text must cut at the same place
  const last = text.charCodeAt(to - 1);
  if (to < text.length && last >= 0xd800 && last <= 0xdbff) to -= 1;
  return { from, to };
}
