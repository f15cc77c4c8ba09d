import { describe, expect, it } from 'vitest';
import { analysePattern } from '../src/regex-analysis.js';

const literals = (source: string, flags = 'i') =>
  analysePattern(source, flags).triggers?.map((trigger) => trigger.literal);

describe('finding the literals every match starts with', () => {
  it('reads words, alternatives and optional pieces', () => {
    expect(literals(String.raw`\bI(?:'m| am) not sure\b`)).toEqual([
      "i'm not sure",
      'i am not sure',
    ]);
    expect(literals(String.raw`\b(?:an )?error\b`)).toEqual(['an error', 'error']);
  });

  it('treats runs of blanks and any apostrophe alike', () => {
    expect(literals(String.raw`\bI\s{1,8}can['’]t\s+help`)).toEqual(["i can't help"]);
  });

  it('marks word boundaries before and after the literal', () => {
    const [trigger] = analysePattern(String.raw`\bmay(?: be)?\b`, 'i').triggers ?? [];
    expect(trigger).toMatchObject({ literal: 'may be', leadingBoundary: true });
    const [bare] = analysePattern(String.raw`\bi\s`, 'i').triggers ?? [];
    expect(bare).toMatchObject({ literal: 'i ', leadingBoundary: true });
  });

  it('gives up on patterns that can start anywhere', () => {
    expect(literals(String.raw`\w+ing\b`)).toBeUndefined();
    expect(literals('(?:foo)?bar|.baz')).toBeUndefined();
    expect(literals('x*y')).toBeUndefined();
  });

  it('leaves unicode case-insensitive patterns to the plain search', () => {
    expect(literals('strasse', 'iu')).toBeUndefined();
  });
});

describe('bounding how far a match reaches', () => {
  it('adds up bounded pieces, lookahead and boundaries', () => {
    expect(analysePattern('abc', '').reach).toBe(3);
    expect(analysePattern(String.raw`a\s{1,8}b(?=cd)`, '').reach).toBe(12);
    expect(analysePattern(String.raw`\bword\b`, '').reach).toBe(5);
  });

  it('reports unbounded repetition and back-references as unbounded', () => {
    expect(analysePattern('a+b', '').reach).toBe(Number.POSITIVE_INFINITY);
    expect(analysePattern(String.raw`(a)\1`, '').reach).toBe(Number.POSITIVE_INFINITY);
  });

  it('measures look-behind', () => {
    expect(analysePattern(String.raw`(?<!if\s{1,3})x`, '').behind).toBe(5);
  });
});

describe('long phrases', () => {
  it('keep only the first characters as their trigger', () => {
    expect(literals(String.raw`\bthe response was truncated\b`)).toEqual(['the response was']);
  });
});

describe('letters that fold in unusual ways', () => {
  it('stop a trigger at a cased letter outside ASCII', () => {
    expect(literals('\\bcaf\\u00e9 cr\\u00e8me')).toEqual(['caf']);
    expect(literals('\\bİstanbul')).toBeUndefined();
  });

  it('leave v-flag patterns to the plain search', () => {
    expect(analysePattern('[\\p{L}--[a-z]]x', 'v').triggers).toBeUndefined();
  });
});
