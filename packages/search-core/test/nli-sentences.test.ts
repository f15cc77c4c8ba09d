import { describe, expect, it } from 'vitest';
import { splitSentences } from '../src/index.js';

const texts = (input: string) => splitSentences(input).map((span) => span.text);

describe('splitSentences', () => {
  it('splits at full stops, question marks and exclamation marks', () => {
    expect(texts('She moved to Paris. Did she like it? Yes! She stayed.')).toEqual([
      'She moved to Paris.',
      'Did she like it?',
      'Yes!',
      'She stayed.',
    ]);
  });

  it('keeps abbreviations, titles and initials inside the sentence', () => {
    expect(
      texts('Dr. Smith met Mr. J. K. Rowling at 5 p.m. on Friday. They talked, e.g. about books.'),
    ).toEqual([
      'Dr. Smith met Mr. J. K. Rowling at 5 p.m. on Friday.',
      'They talked, e.g. about books.',
    ]);
    expect(texts('It moved to the U.S. Army base. Then it left.')).toEqual([
      'It moved to the U.S. Army base.',
      'Then it left.',
    ]);
  });

  it('never splits a decimal number or a version', () => {
    expect(texts('The price rose 3.5 percent to $10.25. Version 2.0.1 shipped.')).toEqual([
      'The price rose 3.5 percent to $10.25.',
      'Version 2.0.1 shipped.',
    ]);
  });

  it('ends a sentence at "no." and keeps "No. 5" together', () => {
    expect(texts('The answer is no. She lives at No. 5 Main Street.')).toEqual([
      'The answer is no.',
      'She lives at No. 5 Main Street.',
    ]);
  });

  it('does not split before a lowercase continuation', () => {
    expect(texts('He said "wait." and left. Then... nothing.')).toEqual([
      'He said "wait." and left.',
      'Then... nothing.',
    ]);
  });

  it('keeps a closing quote with its sentence', () => {
    expect(texts('She said "I moved." Then she left.')).toEqual([
      'She said "I moved."',
      'Then she left.',
    ]);
  });

  it('treats each list item and each line as its own sentence', () => {
    expect(texts('Steps:\n1. Buy milk\n2. Call Anna\n- Pay rent')).toEqual([
      'Steps:',
      '1. Buy milk',
      '2. Call Anna',
      '- Pay rent',
    ]);
  });

  it('joins a hard-wrapped line that continues in lowercase', () => {
    expect(texts('The meeting moved to the\nblue room on Monday.\nBring the book.')).toEqual([
      'The meeting moved to the\nblue room on Monday.',
      'Bring the book.',
    ]);
  });

  it('reports offsets that point back into the text', () => {
    const answer = '  First one.  Second\n\nthird line.  ';
    for (const span of splitSentences(answer)) {
      expect(answer.slice(span.start, span.end)).toBe(span.text);
    }
    expect(texts(answer)).toEqual(['First one.', 'Second', 'third line.']);
  });

  it('returns nothing for blank text', () => {
    expect(splitSentences(' \n\t ')).toEqual([]);
  });
});
