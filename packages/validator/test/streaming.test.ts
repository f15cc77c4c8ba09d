import { describe, expect, it } from 'vitest';
import { createValidator, DEFAULT_PATTERNS, ValidatorError } from '../src/index.js';
import { expectSameAtEveryCut, mixedText, seeded, streamInPieces } from './fixtures.js';

describe('the streaming validator', () => {
  const validator = createValidator();

  it.each(DEFAULT_PATTERNS.map((definition, index) => [index + 1, definition.example] as const))(
    'loses no signal of pattern #%i when a chunk boundary falls anywhere in its phrase',
    (_, example) => {
      const text = `Some opening words. ${example} And a closing sentence follows here.`;
      const whole = validator.validate(text);
      expectSameAtEveryCut(text, whole);
    },
  );

  it('gives the whole-text result for random texts cut into random chunks', () => {
    const random = seeded(5);
    for (let round = 0; round < 200; round += 1) {
      const text = mixedText(random, 1 + Math.floor(random() * 60));
      const cuts: number[] = [];
      let position = 0;
      while (position < text.length) {
        position += 1 + Math.floor(random() * 12);
        cuts.push(Math.min(position, text.length));
      }
      expect(streamInPieces(text, cuts)).toEqual(validator.validate(text));
    }
  });

  it('gives the whole-text result one character at a time, long after the opening', () => {
    const text = `${'A plain sentence about bridges and bread. '.repeat(40)}I'm not entirely sure about the rest...`;
    const stream = validator.stream();
    for (const character of text) stream.push(character);
    expect(stream.end()).toEqual(validator.validate(text));
  });

  it('decodes UTF-8 bytes split inside a character', () => {
    const text = 'I’m not sure — the café’s answer is “maybe” 🙂 etc.';
    const bytes = new TextEncoder().encode(text);
    for (let cut = 0; cut <= bytes.length; cut += 1) {
      const stream = validator.stream();
      stream.push(bytes.subarray(0, cut));
      stream.push(bytes.subarray(cut));
      expect(stream.end()).toEqual(validator.validate(text));
    }
  });

  it('is exact with custom patterns it cannot bound, by keeping the text', () => {
    const options = { customPatterns: { confusion: [/\bwhy\s+would\s+anyone\s+do/i] } };
    const text = 'Why would anyone\u2028do this? I cannot help with that request.';
    const whole = createValidator(options).validate(text);
    expect(whole.signals.map((signal) => signal.type)).toContain('confusion');
    expectSameAtEveryCut(text, whole, options);
  });

  it('reports an empty stream as an empty response', () => {
    const stream = validator.stream();
    stream.push('   ');
    stream.push('\n');
    expect(stream.end()).toEqual(validator.validate('   \n'));
    expect(validator.validate('   \n').signals[0]?.type).toBe('empty_response');
  });

  it('says end() was already called when a stream is ended twice, whether it keeps the text or not', () => {
    const unbounded = { customPatterns: { confusion: [/\bwhy\s+would\s+anyone\s+do/i] } };
    for (const stream of [validator.stream(), createValidator(unbounded).stream()]) {
      stream.push('Fine.');
      stream.end();
      expect(() => stream.end()).toThrow('end() was already called on this stream');
    }
  });

  it('refuses chunks after the end and non-text chunks', () => {
    const stream = validator.stream();
    stream.push('Fine.');
    stream.end();
    expect(() => stream.push('more')).toThrow(ValidatorError);
    expect(() => validator.stream().push(42 as unknown as string)).toThrow(
      /string or a Uint8Array/,
    );
  });
});
