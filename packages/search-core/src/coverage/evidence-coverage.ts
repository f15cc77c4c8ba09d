import { Analyzer } from '../retrieval/analyzer.js';
import { getLexicon, type Lexicon } from './lexicon.js';
import { extractSpecificTerms, isAdviceRequest, type SpecificTerm } from './question-terms.js';

/** Whether one specific term of the question occurs in the evidence, and as what. */
export interface TermCoverage {
  term: SpecificTerm;
  covered: boolean;
  /** The words that matched: the term itself, a synonym or a kind of it ("brother" for "sibling"). */
  matchedAs?: string;
}

/** How well the specific terms of a question are covered by the evidence for it. */
export interface EvidenceCoverage {
  /** The question asks for advice, which general knowledge answers: coverage does not apply. */
  adviceRequest: boolean;
  terms: TermCoverage[];
  /** The specific terms that the evidence never mentions. */
  missing: SpecificTerm[];
}

/** Options of {@link measureCoverage}. */
export interface CoverageOptions {
  /** The lexicon; the shared one by default. */
  lexicon?: Lexicon;
  /** How many words apart the words of a many-word term may stand, per word (default 3). */
  proximity?: number;
}

// stemming only, so that "the" or "of" inside a many-word term still has a position to match
const analyzer = new Analyzer({ stopWords: false });
// words between two evidence texts, so that a phrase never spans a boundary
const textGap = 1_000;
// a name this long also matches words it begins ("Hawaii" → "Hawaiian")
const minimumPrefixLength = 5;

/**
 * Measures how the specific terms of a question (names, concrete nouns, compounds, quantities) are
 * covered by the evidence texts, allowing synonyms and kinds of a noun from WordNet.
 */
export function measureCoverage(
  question: string,
  evidence: readonly string[],
  options: CoverageOptions = {},
): EvidenceCoverage {
  const lexicon = options.lexicon ?? getLexicon();
  const proximity = options.proximity ?? 3;
  if (isAdviceRequest(question)) return { adviceRequest: true, terms: [], missing: [] };
  const terms = extractSpecificTerms(question, lexicon);
  if (terms.length === 0) return { adviceRequest: false, terms: [], missing: [] };
  const positions = indexPositions(evidence);

  const coverage = terms.map((term): TermCoverage => {
    const forms: (readonly string[])[] = [term.words];
    if (term.kind === 'concrete' || term.kind === 'compound')
      forms.push(...lexicon.expansions(term.lemma));
    const proximityLimit = term.kind === 'quantity' ? 1 : proximity;
    for (const form of forms) {
      const stems = analyzer.analyze(form.join(' '));
      if (stems.length > 0 && occursNear(positions, stems, proximityLimit)) {
        return { term, covered: true, matchedAs: form.join(' ') };
      }
    }
    if (term.kind === 'proper' && term.text.length >= minimumPrefixLength) {
      const prefix = term.text.slice(0, Math.max(minimumPrefixLength, term.text.length - 1));
      for (const stem of positions.keys()) {
        if (stem.startsWith(prefix)) return { term, covered: true, matchedAs: stem };
      }
    }
    return { term, covered: false };
  });
  return {
    adviceRequest: false,
    terms: coverage,
    missing: coverage.filter((entry) => !entry.covered).map((entry) => entry.term),
  };
}

function indexPositions(evidence: readonly string[]): Map<string, number[]> {
  const positions = new Map<string, number[]>();
  let position = 0;
  for (const text of evidence) {
    for (const stem of analyzer.analyze(text)) {
      let list = positions.get(stem);
      if (!list) {
        list = [];
        positions.set(stem, list);
      }
      list.push(position);
      position += 1;
    }
    position += textGap;
  }
  return positions;
}

/** Whether every stem occurs within `proximity × stems` words of one occurrence of the first. */
function occursNear(positions: Map<string, number[]>, stems: readonly string[], proximity: number) {
  const lists = stems.map((stem) => positions.get(stem));
  if (lists.some((list) => list === undefined)) return false;
  if (lists.length === 1) return true;
  const reach = proximity * stems.length;
  return (lists[0] ?? []).some((anchor) =>
    lists.every((list) => (list ?? []).some((position) => Math.abs(position - anchor) <= reach)),
  );
}
