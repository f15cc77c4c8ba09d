import { describe, expect, it } from 'vitest';
import { Analyzer, defaultAnalyzer } from '../src/index.js';

describe('the retrieval analyzer', () => {
  it('lowercases, drops stop words and Porter-stems words', () => {
    expect(defaultAnalyzer.analyze('The Runners were RUNNING to the stations')).toEqual([
      'runner',
      'run',
      'station',
    ]);
  });

  it('lowercases beyond ASCII and keeps accented words whole', () => {
    expect(defaultAnalyzer.analyze('ÉCOLE Größe Déjà-vu')).toEqual([
      'école',
      'größe',
      'déjà',
      'vu',
    ]);
  });

  it('keeps numbers, with decimal points and without thousands separators', () => {
    expect(defaultAnalyzer.analyze('I paid $1,000 for 3.5 kg and 42 apples in 2023')).toEqual([
      'paid',
      '1000',
      '3.5',
      'kg',
      '42',
      'appl',
      '2023',
    ]);
  });

  it('ends a separated number where its digits end', () => {
    expect(defaultAnalyzer.analyze('3.5km 35km')).toEqual(['3.5', 'km', '35km']);
  });

  it('splits contractions and possessives before the stop-word lookup', () => {
    expect(
      defaultAnalyzer.analyze("I don't know my sister's cat; we'll see. O'Brien can't"),
    ).toEqual(['know', 'sister', 'cat', 'see', 'obrien']);
  });

  it('treats a typographic apostrophe like a plain one', () => {
    expect(defaultAnalyzer.analyze('my sister’s cat')).toEqual(
      defaultAnalyzer.analyze("my sister's cat"),
    );
  });

  it('folds compatibility characters such as full-width digits and ligatures', () => {
    expect(defaultAnalyzer.analyze('Ｒｏｏｍ １２ ﬁle')).toEqual(['room', '12', 'file']);
  });

  it('indexes ideographs one by one, since such text has no spaces', () => {
    expect(defaultAnalyzer.analyze('東京タワー visit')).toEqual(['東', '京', 'タワー', 'visit']);
  });

  it('gives the same terms for ASCII text on both of its tokenising paths', () => {
    const text = "We'll meet at 10.30, bring 2,500 coins and O'Neil's 3.5kg bag!";
    // a non-ASCII character elsewhere sends the whole text down the Unicode path
    const unicodeTerms = defaultAnalyzer.analyze(`${text} é`);
    expect(unicodeTerms.slice(0, -1)).toEqual(defaultAnalyzer.analyze(text));
  });

  it('can keep every word and skip stemming', () => {
    const plain = new Analyzer({ stopWords: false, stem: false });
    expect(plain.analyze('The cats were running')).toEqual(['the', 'cats', 'were', 'running']);
  });

  it('drops extra stop words on top of the English ones', () => {
    const analyzer = new Analyzer({ extraStopWords: ['Remember'] });
    expect(analyzer.analyze('Do you remember my dog?')).toEqual(['dog']);
  });

  it('gives the same terms however many words it has seen before', () => {
    const text = "Running cats don't chase 3.5 dogs; O'Neil's café runs daily.";
    const expected = new Analyzer().analyze(text);
    const busy = new Analyzer();
    // more distinct words than the term cache holds, so that it grows and is emptied
    const words = Array.from({ length: 230_000 }, (_, index) => `w${index.toString(36)}x`);
    for (let start = 0; start < words.length; start += 10_000) {
      busy.analyze(words.slice(start, start + 10_000).join(' '));
      expect(busy.analyze(text)).toEqual(expected);
    }
    expect(busy.analyze(`${text} ${text}`)).toEqual([...expected, ...expected]);
  });
});
