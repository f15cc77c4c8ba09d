import { describe, expect, it } from 'vitest';
import { extractSpecificTerms, isAdviceRequest, measureCoverage } from '../src/index.js';

const terms = (question: string) =>
  extractSpecificTerms(question).map((term) => `${term.text}/${term.kind}`);
const missing = (question: string, evidence: string[]) =>
  measureCoverage(question, evidence).missing.map((term) => term.text);

describe('specific terms of a question', () => {
  it('finds names, concrete nouns, many-word nouns and quantities with units', () => {
    expect(terms('How often do I play water polo with Dr. Okafor?')).toEqual([
      'water polo/compound',
      'okafor/proper',
    ]);
    expect(terms('How many guppies live in my 40-litre aquarium?')).toEqual([
      'guppies/concrete',
      '40 litre/quantity',
      'aquarium/concrete',
    ]);
  });

  it('leaves out question words, calendar words, verbs and abstract nouns', () => {
    expect(terms('How many nights did I stay away in total over the spring?')).toEqual([]);
    expect(terms('When did I first mention the second problem?')).toEqual([]);
  });

  it('reads curly apostrophes and possessives as written', () => {
    expect(terms('What did I cook for my aunt’s retirement party?')).toContain('aunt/concrete');
    expect(terms("When did I start my master's degree?")).toEqual([]);
  });

  it('has none for a request for advice, which general knowledge answers', () => {
    expect(isAdviceRequest('Can you recommend a guesthouse for my trip to Porto?')).toBe(true);
    expect(isAdviceRequest('My knee aches after running. Any tips?')).toBe(true);
    expect(isAdviceRequest('Which guesthouse did I book in Porto?')).toBe(false);
    expect(terms('Can you recommend a guesthouse for my trip to Porto?')).toEqual([]);
  });
});

describe('coverage of the question by the evidence', () => {
  it('reports a name the evidence never mentions as missing', () => {
    expect(
      missing('Who moved abroad first, Priya or Jonas?', ['My friend Jonas moved to Lisbon.']),
    ).toEqual(['priya']);
  });

  it('counts synonyms and kinds of a noun, from WordNet, as covered', () => {
    const vehicle = measureCoverage('Which vehicle did I buy last spring?', [
      'I finally bought a new car.',
    ]);
    expect(vehicle.missing).toEqual([]);
    expect(vehicle.terms[0]?.matchedAs).toBe('car');
    expect(
      missing('How often do I ride my motorcycle?', ['I take my motorbike out on Sundays.']),
    ).toEqual([]);
  });

  it('finds a missing concrete noun when a different one is there', () => {
    expect(missing('What did I name my tortoise?', ['My cat is called Luna.'])).toEqual([
      'tortoise',
    ]);
    expect(missing('How often do I play water polo?', ['I play polo every week.'])).toEqual([
      'water polo',
    ]);
  });

  it('needs the number next to its unit', () => {
    expect(
      missing('How many guppies are in my 40-gallon aquarium?', [
        'I keep 9 guppies in a 25-gallon aquarium.',
      ]),
    ).toEqual(['40 gallon']);
    expect(
      missing('How many guppies are in my 40-gallon aquarium?', [
        'My 40 gallon aquarium holds 9 guppies.',
      ]),
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
      missing('How often do I play water polo?', ['I bought a water bottle.', 'I play polo.']),
    ).toEqual(['water polo']);
  });

  it('does not apply to a request for advice', () => {
    const coverage = measureCoverage('Any tips for my trip to Denver?', []);
    expect(coverage).toEqual({ adviceRequest: true, terms: [], missing: [] });
  });
});
