import { describe, expect, it } from 'vitest';
import {
  createValidator,
  DEFAULT_WEIGHTS,
  ValidatorError,
  ValidatorErrorCode,
  validateResponse,
} from '../src/index.js';

describe('custom patterns', () => {
  it('adds RegExp and string patterns to a type, strings matching in any case', () => {
    const validator = createValidator({
      customPatterns: { low_confidence: [/\bballpark\b/i, 'rough figure'] },
    });
    const result = validator.validate('As a ROUGH FIGURE, and only a ballpark one, say forty.');
    expect(result.signals.map((signal) => [signal.type, signal.evidence])).toEqual([
      ['low_confidence', 'ROUGH FIGURE'],
      ['low_confidence', 'ballpark'],
    ]);
    expect(result.signals[0]?.weight).toBe(DEFAULT_WEIGHTS.low_confidence);
  });

  it('lets a pattern carry its own weight', () => {
    const validator = createValidator({
      customPatterns: { incomplete_reasoning: [{ pattern: /\bTBD\b/, weight: 0.1 }] },
    });
    const [signal] = validator.validate(
      'Launch date: TBD, venue confirmed for the spring.',
    ).signals;
    expect(signal).toMatchObject({ type: 'incomplete_reasoning', evidence: 'TBD', weight: 0.1 });
  });

  it('uses only the given patterns with defaultPatterns: false', () => {
    const options = { defaultPatterns: false, customPatterns: { confusion: [/\bhuh\b/i] } };
    const result = validateResponse("I cannot help with that. Huh, I'm not sure.", options);
    expect(result.signals.map((signal) => signal.evidence)).toEqual(['Huh']);
  });

  it('applies the refusal rule to custom refusals: counted in the opening only', () => {
    const validator = createValidator({ customPatterns: { refusal: [/\bno can do\b/i] } });
    expect(validator.validate('No can do, sorry about that friend.').shouldEscalate).toBe(true);
    const deep = `${'A long and useful answer sentence. '.repeat(20)}No can do on the last bit.`;
    expect(validator.validate(deep).signals).toEqual([]);
    const anywhere = createValidator({
      customPatterns: { refusal: [{ pattern: /\bno can do\b/i, region: 'anywhere' }] },
    });
    expect(anywhere.validate(deep).signals.map((signal) => signal.type)).toEqual(['refusal']);
  });

  it('rejects a pattern that can backtrack catastrophically, naming it', () => {
    const attempt = () => createValidator({ customPatterns: { confusion: [/^(a+)+$/] } });
    expect(attempt).toThrow(ValidatorError);
    expect(attempt).toThrow(
      /custom confusion pattern #1 \/\^\(a\+\)\+\$\/ can backtrack catastrophically/,
    );
    try {
      attempt();
    } catch (error) {
      expect((error as ValidatorError).code).toBe(ValidatorErrorCode.UNSAFE_PATTERN);
    }
  });

  it('rejects a string pattern with polynomial backtracking too', () => {
    expect(() => createValidator({ customPatterns: { refusal: ['\\s*x\\s*\\s*y'] } })).toThrow(
      /custom refusal pattern #1 "\\\\s\*x\\\\s\*\\\\s\*y" can backtrack catastrophically/,
    );
  });

  it('rejects invalid, empty-matching and mistyped patterns with a clear message', () => {
    expect(() => createValidator({ customPatterns: { confusion: ['(unclosed'] } })).toThrow(
      /custom confusion pattern #1 "\(unclosed" is not a valid regular expression/,
    );
    expect(() => createValidator({ customPatterns: { confusion: [/x*/] } })).toThrow(
      /matches the empty string/,
    );
    expect(() =>
      createValidator({
        customPatterns: { hedging: [/x/] } as unknown as Record<string, RegExp[]>,
      }),
    ).toThrow(/unknown signal type "hedging"/);
    expect(() =>
      createValidator({ customPatterns: { refusal: [{ pattern: /nope/, weight: 2 }] } }),
    ).toThrow(/weight must be a number from 0 to 1, got 2/);
    expect(() =>
      createValidator({ customPatterns: { refusal: [42 as unknown as RegExp] } }),
    ).toThrow(/must be a RegExp, a string or \{ pattern, weight \}, got number/);
  });

  it('compiles once per validator and reuses the compilation for the same options object', () => {
    const customPatterns = { confusion: [/\bhuh\b/i] };
    const first = validateResponse('Huh, that is odd, and also rather surprising.', {
      customPatterns,
    });
    const again = validateResponse('Huh, that is odd, and also rather surprising.', {
      customPatterns,
    });
    expect(again).toEqual(first);
  });
});
