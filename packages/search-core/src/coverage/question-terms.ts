import { englishStopWords } from '../retrieval/stop-words.js';
import { getLexicon, type Lexicon } from './lexicon.js';

/**
 * What makes a question term specific: a name (`proper`), a concrete noun (`concrete`), a
 * many-word WordNet noun such as "table tennis" (`compound`), or a number joined to a unit as in
 * "40-litre" (`quantity`).
 */
export type SpecificTermKind = 'proper' | 'concrete' | 'compound' | 'quantity';

/** A term of a question that the evidence must mention for the question to be answerable. */
export interface SpecificTerm {
  /** The term as it reads in the question, lowercased. */
  text: string;
  /** Its words, lowercased, possessive `'s` removed. */
  words: string[];
  /** The WordNet lemma the term was looked up as (the text itself for names and quantities). */
  lemma: string;
  kind: SpecificTermKind;
  /** −ln relative frequency of its last word in web text: 7 is common, 13 is rare. */
  rarity: number;
}

// a request for advice or a recommendation is answered from general knowledge, not from memory
const adviceRequest =
  /\b(?:any (?:tips|advice|suggestions?|recommendations?|ideas|thoughts)|(?:can|could|would) you (?:please )?(?:suggest|recommend)|do you have any (?:tips|advice|suggestions?|recommendations?|ideas)|what should I|do you think|should I)\b/i;

// words that ask, or refer to the speaker, rather than name something to look for
const questionWords = new Set([
  ...englishStopWords,
  'many',
  'much',
  'often',
  'long',
  'first',
  'last',
  'total',
  'narrator',
  'user',
  'speaker',
  'assistant',
  // titles before a name: the name is what must be found
  'dr',
  'mr',
  'mrs',
  'ms',
  'prof',
  'st',
]);
const calendarWords = new Set([
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
]);

interface Token {
  raw: string;
  word: string;
  /** The word with its possessive kept, for WordNet lemmas such as "bachelor's_degree". */
  possessive: string;
  joinedToNext: boolean;
}

/** Whether a question asks for advice or a recommendation rather than for a remembered fact. */
export function isAdviceRequest(question: string): boolean {
  return adviceRequest.test(question.replaceAll(/[‘’]/g, "'"));
}

/**
 * The specific terms of a question: names, concrete nouns, WordNet compounds and quantities with
 * units, which an answerable question's evidence mentions. Requests for advice have none.
 */
export function extractSpecificTerms(
  question: string,
  lexicon: Lexicon = getLexicon(),
): SpecificTerm[] {
  const text = question.replaceAll(/[‘’]/g, "'");
  if (isAdviceRequest(text)) return [];
  const nouns = new Set<string>();
  for (const tagged of lexicon.tag(text)) {
    if (tagged.noun && !tagged.verb) {
      for (const word of tagged.normal.split(/[^\p{L}\p{N}]+/u)) nouns.add(word);
    }
  }
  const tokens = tokenize(text);
  const terms: SpecificTerm[] = [];
  const used = new Set<number>();

  for (let size = 3; size >= 2; size -= 1) {
    for (let start = 0; start + size <= tokens.length; start += 1) {
      const span = tokens.slice(start, start + size);
      if (span.some((_, offset) => used.has(start + offset))) continue;
      const words = span.map((token) => token.word);
      if (questionWords.has(words[0] ?? '') || questionWords.has(words.at(-1) ?? '')) continue;
      const lemma =
        lexicon.baseNoun(words.join('_')) ??
        lexicon.baseNoun(
          [...span.slice(0, -1).map((token) => token.possessive), words.at(-1)].join('_'),
        );
      if (lemma === undefined) continue;
      for (let offset = 0; offset < size; offset += 1) used.add(start + offset);
      const nounClass = lexicon.nounClass(lemma);
      if (nounClass === 'concrete' || nounClass === 'activity') {
        terms.push({
          text: words.join(' '),
          words,
          lemma,
          kind: 'compound',
          rarity: lexicon.rarity(words.at(-1) ?? ''),
        });
      }
    }
  }

  tokens.forEach((token, index) => {
    const { word } = token;
    if (used.has(index) || word.length < 2 || questionWords.has(word) || calendarWords.has(word)) {
      return;
    }
    const next = tokens[index + 1];
    if (/^\p{N}+$/u.test(word)) {
      if (token.joinedToNext && next && /^\p{L}+$/u.test(next.word)) {
        used.add(index + 1);
        const words = [word, next.word];
        terms.push({
          text: words.join(' '),
          words,
          lemma: words.join(' '),
          kind: 'quantity',
          rarity: lexicon.rarity(next.word),
        });
      }
      return;
    }
    const capitalised = index > 0 && /^\p{Lu}/u.test(token.raw) && !/^I(?:'|$)/.test(token.raw);
    if (capitalised) {
      terms.push({
        text: word,
        words: [word],
        lemma: word,
        kind: 'proper',
        rarity: lexicon.rarity(word),
      });
      return;
    }
    const lemma = nouns.has(word) ? lexicon.baseNoun(word) : undefined;
    if (lemma !== undefined && lexicon.nounClass(lemma) === 'concrete') {
      terms.push({
        text: word,
        words: [word],
        lemma,
        kind: 'concrete',
        rarity: lexicon.rarity(word),
      });
    }
  });
  return terms;
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const match of text.matchAll(/[\p{L}\p{N}]+(?:'\p{L}+)?(?:-[\p{L}\p{N}]+)*/gu)) {
    const parts = match[0].split('-');
    parts.forEach((raw, index) => {
      const lower = raw.toLowerCase();
      tokens.push({
        raw,
        word: lower.replace(/'s$/, '').replaceAll("'", ''),
        possessive: lower,
        joinedToNext: index < parts.length - 1,
      });
    });
  }
  return tokens;
}
