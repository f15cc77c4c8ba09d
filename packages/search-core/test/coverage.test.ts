import { describe, expect, it } from 'vitest';
import { extractSpecificTerms, isAdviceRequest, measureCoverage } from '../src/index.js';

const terms = (question: string) =>
  extractSpecificTerms(question).map((term) => `${term.text}/${term.kind}`);
const missing = (question: string, evidence: string[]) =>
  measureCoverage(question, evidence).missing.map((term) => term.text);

describe('specific terms of a question', () => {
  it('finds names, concrete nouns, many-word nouns and quantities with units', () => {
    expect(terms('How often do I play table tennis with Dr. Johnson?')).toEqual([
      'table tennis/compound',
      'johnson/proper',
    ]);
    expect(terms('How many fish are there in my 30-gallon tank?')).toEqual([
      'fish/concrete',
      '30 gallon/quantity',
      'tank/concrete',
    ]);
  });

  it('leaves out question words, calendar words, verbs and abstract nouns', () => {
    expect(terms('How many days did I spend in total traveling in December?')).toEqual([]);
    expect(terms('What was the first issue I had after the service?')).toEqual([]);
  });

  it('reads curly apostrophes and possessives as written', () => {
    expect(terms('What did I bake for my uncle’s birthday party?')).toContain('uncle/concrete');
    expect(terms("Where did I complete my Bachelor's degree?")).toEqual([]);
  });

  it('has none for a request for advice, which general knowledge answers', () => {
    expect(isAdviceRequest('Can you suggest a hotel for my trip to Miami?')).toBe(true);
    expect(isAdviceRequest('I’ve been sneezing a lot. Any tips?')).toBe(true);
    expect(isAdviceRequest('Which hotel did I book in Miami?')).toBe(false);
    expect(terms('Can you suggest a hotel for my trip to Miami?')).toEqual([]);
  });
});

describe('coverage of the question by the evidence', () => {
  it('reports a name the evidence never mentions as missing', () => {
    expect(
      missing('Who became a parent first, Tom or Alex?', ['My cousin Alex adopted a baby girl.']),
    ).toEqual(['tom']);
  });

  it('counts synonyms and kinds of a noun, from WordNet, as covered', () => {
    const vehicle = measureCoverage('Which vehicle did I buy last spring?', [
      'I finally bought a new car.',
    ]);
    expect(vehicle.missing).toEqual([]);
    expect(vehicle.terms[0]?.matchedAs).toBe('car');
    expect(missing('How often do I play table tennis?', ['I play ping-pong every week.'])).toEqual(
      [],
    );
  });

  it('finds a missing concrete noun when a different one is there', () => {
    expect(missing('What is the name of my hamster?', ['My cat is called Luna.'])).toEqual([
      'hamster',
    ]);
    expect(missing('How often do I play table tennis?', ['I play tennis every week.'])).toEqual([
      'table tennis',
    ]);
  });

  it('needs the number next to its unit', () => {
    expect(
      missing('How many fish are in my 30-gallon tank?', ['I keep 12 fish in a 20-gallon tank.']),
    ).toEqual(['30 gallon']);
    expect(
      missing('How many fish are in my 30-gallon tank?', ['My 30 gallon tank holds 12 fish.']),
    ).toEqual([]);
  });

  it('lets a long name match a word it begins, and never a short one', () => {
    expect(missing('How much did I spend in Hawaii?', ['The Hawaiian resort was pricey.'])).toEqual(
      [],
    );
    expect(missing('What did Tom bring?', ['We grew tomatoes.'])).toEqual(['tom']);
  });

  it('keeps separate evidence texts apart for many-word terms', () => {
    expect(
      missing('How often do I play table tennis?', ['I bought a table.', 'I play tennis.']),
    ).toEqual(['table tennis']);
  });

  it('does not apply to a request for advice', () => {
    const coverage = measureCoverage('Any tips for my trip to Denver?', []);
    expect(coverage).toEqual({ adviceRequest: true, terms: [], missing: [] });
  });
});
