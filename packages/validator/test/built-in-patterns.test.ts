import { checkSync } from 'recheck';
import { describe, expect, it } from 'vitest';
import { compilePatterns, LiteralStartFinder } from '../src/compile.js';
import { DEFAULT_PATTERNS, DEFAULT_WEIGHTS } from '../src/index.js';
import { layoutText, scanText } from '../src/scan.js';

const compiled = compilePatterns({});

describe('the built-in patterns', () => {
  it.each(DEFAULT_PATTERNS.map((definition, index) => [index + 1, definition] as const))(
    'pattern #%i fires on its example',
    (number, definition) => {
      const found = scanText(compiled, definition.example, layoutText(definition.example, 400));
      expect(found.map((item) => item.pattern.index)).toContain(number - 1);
    },
  );

  it('give weak cues a weight below their type default', () => {
    for (const definition of DEFAULT_PATTERNS) {
      if (definition.weight !== undefined) {
        expect(definition.weight).toBeLessThan(DEFAULT_WEIGHTS[definition.type]);
      }
    }
  });

  it('all start with a literal and have a bounded reach, so one prefilter pass finds them', () => {
    const set = compiled;
    expect(set.plain).toEqual([]);
    for (const pattern of set.patterns) {
      expect(pattern.triggers?.length).toBeGreaterThan(0);
      expect(Number.isFinite(pattern.reach)).toBe(true);
    }
    // a stream holds back this many characters before it decides a match that starts there (a
    // reply that only judges the act is read to its end, up to 1,000 characters after the judgement)
    expect(set.reach).toBeLessThan(1536);
    // one regular expression pass over the text: triggers that do not start a word all open with
    // a character found by indexOf ("…", "["), so no second expression reads every position
    for (const prefilters of [set.prefilterAll, set.prefilterAnywhere]) {
      expect(prefilters[0]).toBeInstanceOf(RegExp);
      for (const other of prefilters.slice(1)) expect(other).toBeInstanceOf(LiteralStartFinder);
    }
  });

  it('stay under the size above which V8 compiles a regular expression without its optimisations', () => {
    // past 20 KB of source V8 leaves out the optimisations that make a long alternation fast: a
    // pattern that grows past it costs several times as much on every run
    const large = compiled.patterns
      .filter((pattern) => !pattern.custom && pattern.sticky.source.length > 20 * 1024)
      .map((pattern) => `#${pattern.index}: ${pattern.sticky.source.length}`);
    expect(large).toEqual([]);
  });

  it('start with words long enough to be rare: no trigger is one or two letters', () => {
    // a trigger such as "no" would stop the prefilter at every "not", "now" and "none"
    const short = compiled.patterns.flatMap((pattern) =>
      (pattern.triggers ?? [])
        .map((trigger) => trigger.literal)
        .filter((literal) => /^[\p{L}]/u.test(literal) && literal.trim().length < 3),
    );
    expect(short).toEqual([]);
  });

  it('start with more than one of the words nearly every answer has', () => {
    // a trigger such as "that " or "the " would stop the prefilter, past the opening too, at nearly
    // every sentence, and run every pattern whose own trigger it is a prefix of
    const common = new Set(
      "the that this these those it it's its is are and but for with you your not to of in".split(
        ' ',
      ),
    );
    const bare = compiled.patterns.flatMap((pattern) =>
      (pattern.triggers ?? [])
        .map((trigger) => trigger.literal.trim().replace(/[’‘]/g, "'"))
        .filter((literal) => common.has(literal)),
    );
    expect(bare).toEqual([]);
  });

  it('cannot backtrack catastrophically (checked with recheck)', () => {
    const unsafe = DEFAULT_PATTERNS.map((definition) => ({
      source: definition.source,
      status: checkSync(definition.source, 'i', { checker: 'automaton' }).status,
    })).filter((result) => result.status !== 'safe');
    expect(unsafe).toEqual([]);
  }, 60_000);
});
