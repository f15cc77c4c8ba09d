import { describe, expect, it } from 'vitest';
import { compilePatterns } from '../src/compile.js';
import { createValidator } from '../src/index.js';
import { layoutText, scanText, scanTextReference } from '../src/scan.js';
import { validateResponseReference } from '../src/validator.js';
import { mixedText, seeded } from './fixtures.js';

describe('the prefilter scan', () => {
  it('finds exactly what searching each pattern over the whole text finds', () => {
    const validator = createValidator();
    const random = seeded(7);
    for (let round = 0; round < 400; round += 1) {
      const text = mixedText(random, 1 + Math.floor(random() * 40));
      expect(validator.validate(text), text).toEqual(validateResponseReference(text));
    }
  });

  it('agrees with the plain search in long texts, where lead-only patterns stop counting', () => {
    const validator = createValidator({ leadLength: 120 });
    const random = seeded(11);
    for (let round = 0; round < 60; round += 1) {
      const text = mixedText(random, 200);
      expect(validator.validate(text)).toEqual(
        validateResponseReference(text, { leadLength: 120 }),
      );
    }
  });

  it('agrees with the plain search for custom patterns with and without leading literals', () => {
    const customPatterns = {
      confusion: [/\bwhat do you mean\b/i, '[0-9]{3}-[0-9]{4}', { pattern: /zz+/, weight: 0.2 }],
      refusal: ['\\bnot (?:today|now)\\b'],
    };
    const validator = createValidator({ customPatterns });
    const random = seeded(3);
    for (let round = 0; round < 100; round += 1) {
      const text = `${mixedText(random, 20)} what do you mean, call 555-1234 zzz not today`;
      expect(validator.validate(text)).toEqual(validateResponseReference(text, { customPatterns }));
    }
  });
});

describe('patterns that share a trigger', () => {
  it('run wherever their next words follow it, in any blanks, apostrophes and case', () => {
    const customPatterns = {
      low_confidence: ["I'm (?:not|never) (?:quite )?sure\\b", /\bI\s+am\s+unsure\b/],
    };
    const validator = createValidator({ customPatterns });
    for (const text of [
      "I'm not quite sure, but the answer is 42.",
      'I’M  NOT\tQUITE\nsure, but the answer is 42.',
      'I‘m never sure of it. I am unsure. I’m unable to say.',
      "I'm   unable to help with that, and I'm\n\nnot sure anyone can.",
      "Well, I cannot say; I can't, I CANNOT\n tell you that.",
    ]) {
      expect(validator.validate(text), text).toEqual(
        validateResponseReference(text, { customPatterns }),
      );
    }
    const evidence = validator
      .validate('Honestly, I’M  NOT\tQUITE\nsure, but the answer is 42.')
      .signals.map((signal) => signal.evidence);
    expect(evidence).toContain('I’M NOT QUITE sure');
  });
});

describe('the spellings of triggers kept between responses', () => {
  it('stay bounded however many spellings arrive, and never change a verdict', () => {
    const customPatterns = {
      refusal: ["I\\s+can['’‘]t\\s+(?:help|say|do)\\b", "I\\s+can['’‘]t\\s+stay\\b"],
    };
    const set = compilePatterns({ customPatterns });
    const validator = createValidator({ customPatterns });
    const blanks = [' ', '\t', '\n', ' \u00a0', '  '];
    const cases = ['I can’t', 'i CAN’T', "I Can't", 'I cAn‘t'];
    for (let round = 0; round < 3_000; round += 1) {
      // each spelling has its own run of blanks, so hardly any repeats
      const gap = blanks[round % blanks.length]?.repeat(1 + (round % 7)) ?? ' ';
      const opening = (cases[round % cases.length] ?? '').replace(' ', gap);
      const text = `${opening}${gap}${round % 2 === 0 ? 'help' : 'stay'} with that, sorry.`;
      const fast = scanText(set, text, layoutText(text, 400)).map((found) => found.match);
      const plain = scanTextReference(set, text, layoutText(text, 400)).map((f) => f.match);
      expect(fast, JSON.stringify(text)).toEqual(plain);
      if (round % 500 === 0) {
        expect(validator.validate(text)).toEqual(
          validateResponseReference(text, { customPatterns }),
        );
      }
    }
    expect(set.seenCount).toBeGreaterThan(0);
    expect(set.seenCount).toBeLessThanOrEqual(8_192);
    // a spelling longer than the bound is looked up each time and not kept
    const fresh = compilePatterns({ customPatterns, defaultPatterns: false });
    const long = `I can't${' '.repeat(100)}help with that.`;
    expect(scanText(fresh, long, layoutText(long, 400))).toHaveLength(1);
    expect(fresh.seenCount).toBe(0);
    const short = "I can't help with that.";
    expect(scanText(fresh, short, layoutText(short, 400))).toHaveLength(1);
    expect(fresh.seenCount).toBe(1);
  });
});

describe('patterns with letters outside ASCII', () => {
  it('find every case of them, like the plain search', () => {
    const customPatterns = { confusion: ['été indien', /İstanbul/i, /straße/i] };
    const validator = createValidator({ customPatterns });
    const text =
      'Un ÉTÉ INDIEN, un été indien, ISTANBUL, İstanbul, STRASSE, Straße et la fin du texte.';
    const result = validator.validate(text);
    expect(result).toEqual(validateResponseReference(text, { customPatterns }));
    expect(result.signals.map((signal) => signal.evidence)).toEqual([
      'ÉTÉ INDIEN',
      'İstanbul',
      'Straße',
    ]);
  });
});

describe('a large custom pattern set', () => {
  it('keeps the prefilter small enough for V8 to optimise, and still exact', async () => {
    const { compilePatterns } = await import('../src/compile.js');
    const words = Array.from({ length: 400 }, (_, index) => `keyword${index.toString(36)}phrase`);
    const customPatterns = {
      low_confidence: words.map((word) => ({
        pattern: `\\b${word} (?:one|two|three) more\\b`,
        weight: 0.1,
      })),
    };
    const set = compilePatterns({ customPatterns });
    for (const prefilter of set.prefilterAll) {
      expect(prefilter.source.length).toBeLessThanOrEqual(16_000);
    }
    const validator = createValidator({ customPatterns });
    const text = `Some text, then ${words[123]} two more, and ${words[399]} three more.`;
    const result = validator.validate(text);
    expect(result.signals.map((signal) => signal.evidence)).toEqual([
      `${words[123]} two more`,
      `${words[399]} three more`,
    ]);
    expect(result).toEqual(validateResponseReference(text, { customPatterns }));
  }, 120_000);
});
