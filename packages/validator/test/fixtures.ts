import { expect } from 'vitest';
import {
  createStreamingValidator,
  DEFAULT_PATTERNS,
  type ResponseQuality,
  type ValidatorOptions,
} from '../src/index.js';

/** A small seeded generator (mulberry32) so generated texts are the same on every run. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const PROSE = [
  'The bridge opened in 1932 after four years of work.',
  'Sourdough rises because wild yeast ferments the flour.',
  'Hold the reset button for ten seconds, then wait for the lights.',
  'The committee adopted most of the recommendations the next year.',
  'Copper conducts well and resists corrosion.',
  'The survey found that cycling had doubled since 2015.',
];

const NOISE = [
  '\n',
  '\n\n',
  '  ',
  '"',
  '“',
  '`',
  '```\n',
  '\n```\n',
  '> ',
  '…',
  '...',
  '— ',
  'I ',
  'the ',
];

/**
 * Builds a text from prose, the built-in patterns' examples (so every pattern has matches), code
 * fences, quotation marks and blanks, with case and apostrophes varied.
 */
export function mixedText(random: () => number, pieces: number): string {
  const parts: string[] = [];
  for (let index = 0; index < pieces; index += 1) {
    const roll = random();
    let piece: string;
    if (roll < 0.4) {
      piece = DEFAULT_PATTERNS[Math.floor(random() * DEFAULT_PATTERNS.length)]?.example ?? '';
    } else if (roll < 0.75) {
      piece = PROSE[Math.floor(random() * PROSE.length)] ?? '';
    } else {
      piece = NOISE[Math.floor(random() * NOISE.length)] ?? '';
    }
    const variant = random();
    if (variant < 0.1) piece = piece.toUpperCase();
    else if (variant < 0.2) piece = piece.replace(/'/g, '’');
    else if (variant < 0.3) piece = piece.replace(/ /g, '\n');
    parts.push(piece, random() < 0.8 ? ' ' : '');
  }
  return parts.join('');
}

/** Validates `text` as a stream cut at `cuts` (absolute offsets, ascending), with `options`. */
export function streamInPieces(
  text: string,
  cuts: number[],
  options: ValidatorOptions = {},
): ResponseQuality {
  const stream = createStreamingValidator(options);
  let start = 0;
  for (const cut of cuts) {
    stream.push(text.slice(start, cut));
    start = cut;
  }
  stream.push(text.slice(start));
  return stream.end();
}

/**
 * Checks that a stream cut once, at every offset of `text`, gives `whole` (the whole text's result
 * with the same `options`).
 */
export function expectSameAtEveryCut(
  text: string,
  whole: ResponseQuality,
  options: ValidatorOptions = {},
): void {
  for (let cut = 0; cut <= text.length; cut += 1) {
    expect(streamInPieces(text, [cut], options), `cut at ${cut}`).toEqual(whole);
  }
}
