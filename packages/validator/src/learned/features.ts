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
  private readonly wordCodes = new Int32Array(MAX_WORD_CODES + 2);

  constructor(readonly settings: FeatureSettings) {
    const perCharacter =
      settings.wordNgrams + 2 + Math.max(0, settings.charMax - settings.charMin + 1);
    const capacity = settings.window * perCharacter + 16;
    this.hashes = new Int32Array(capacity);
    this.sentences = new Int32Array(capacity);
    this.sentenceStart = new Int32Array(64);
    this.sentenceEnd = new Int32Array(64);
  }

  private pushSentence(start: number, end: number): void {
    if (this.sentenceCount === this.sentenceStart.length) {
      // grows rarely: at most once or twice over a run, never per n-gram
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
   * Reads `text[from, to)` into hashed features, replacing what the buffer held. Letters are
   * folded to lower case (ASCII and Latin-1), curly apostrophes to straight ones; a word is a run
   * of letters, digits and inner apostrophes, and any other non-blank character is a token of its
   * own. A sentence ends at a line break or at ".", "!" or "?" before a blank.
   */
  read(text: string, from: number, to: number): void {
    const { wordNgrams, charMin, charMax, leadTokens } = this.settings;
    const mask = (1 << this.settings.bits) - 1;
    const hashes = this.hashes;
    const sentences = this.sentences;
    const codes = this.wordCodes;
    let count = 0;
    this.sentenceCount = 0;
    let sentence = 0;
    let sentenceStart = -1;
    let sentenceEnd = -1;
    let tokens = 0;
    let previous = 0;
    let beforePrevious = 0;
    let wordHash = 0;
    let wordLength = 0;
    let inWord = false;
    let endsSentence = false;

    // emits the features of one finished token (a word, or a symbol when `symbol` is set)
    const emit = (hash: number, symbol: boolean) => {
      hashes[count] = finish(hash ^ WORD_SEED) & mask;
      sentences[count++] = sentence;
      if (wordNgrams >= 2 && tokens > 0) {
        hashes[count] = combine(previous, hash, PAIR_SEED) & mask;
        sentences[count++] = sentence;
        if (wordNgrams >= 3 && tokens > 1) {
          hashes[count] =
            combine(combine(beforePrevious, previous, TRIPLE_SEED), hash, TRIPLE_SEED) & mask;
          sentences[count++] = sentence;
        }
      }
      if (tokens < leadTokens) {
        hashes[count] = finish(hash ^ LEAD_SEED) & mask;
        sentences[count++] = sentence;
        if (tokens > 0) {
          hashes[count] = combine(previous, hash, LEAD_PAIR_SEED) & mask;
          sentences[count++] = sentence;
        }
      }
      if (!symbol && charMin > 0) {
        // the word between boundary marks, as fastText reads subwords: <word>
        const length = Math.min(wordLength, MAX_WORD_CODES) + 2;
        codes[0] = 60;
        codes[length - 1] = 62;
        for (let start = 0; start < length; start += 1) {
          let gram = CHAR_SEED;
          for (let size = 1; size <= charMax && start + size <= length; size += 1) {
            gram = Math.imul(gram ^ (codes[start + size - 1] as number), 0x01000193);
            if (size >= charMin && size < length) {
              hashes[count] = finish(gram) & mask;
              sentences[count++] = sentence;
            }
          }
        }
      }
      beforePrevious = previous;
      previous = hash;
      tokens += 1;
    };

    const closeSentence = () => {
      if (sentenceStart !== -1) {
        this.pushSentence(sentenceStart, sentenceEnd);
        sentence += 1;
        sentenceStart = -1;
      }
      endsSentence = false;
    };

    for (let index = from; index < to; index += 1) {
      let code = text.charCodeAt(index);
      if (isWhitespaceCode(code)) {
        if (inWord) {
          emit(wordHash, false);
          inWord = false;
        }
        if (endsSentence || code === 10 || code === 13) closeSentence();
        continue;
      }
      if (sentenceStart === -1) sentenceStart = index;
      sentenceEnd = index + 1;
      if (code >= 65 && code <= 90) code += 32;
      else if (code >= 0xc0 && code <= 0xde && code !== 0xd7) code += 32;
      else if (code === 0x2019 || code === 0x2018) code = 39;
      const letter =
        (code >= 97 && code <= 122) ||
        (code >= 48 && code <= 57) ||
        (code >= 0xdf && code !== 0xf7 && code < 0x2000) ||
        (code === 39 && inWord);
      if (letter) {
        if (!inWord) {
          inWord = true;
          wordHash = 0x811c9dc5;
          wordLength = 0;
        }
        wordHash = Math.imul(wordHash ^ code, 0x01000193);
        if (wordLength < MAX_WORD_CODES) codes[wordLength + 1] = code;
        wordLength += 1;
        endsSentence = false;
        continue;
      }
      if (inWord) {
        emit(wordHash, false);
        inWord = false;
      }
      // a low surrogate is the second half of a symbol already counted
      if (code >= 0xdc00 && code <= 0xdfff) continue;
      emit(Math.imul(0x811c9dc5 ^ code, 0x01000193), true);
      endsSentence = code === 46 || code === 33 || code === 63;
    }
    if (inWord) emit(wordHash, false);
    closeSentence();
    this.count = count;
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
