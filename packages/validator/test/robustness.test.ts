import { describe, expect, it } from 'vitest';
import { createValidator } from '../src/index.js';
import { validateResponseReference } from '../src/validator.js';
import { seeded } from './fixtures.js';

function randomUnicode(random: () => number, length: number): string {
  const units: number[] = [];
  for (let index = 0; index < length; index += 1) {
    const roll = random();
    if (roll < 0.05)
      units.push(0xd800 + Math.floor(random() * 0x800)); // lone surrogates
    else if (roll < 0.1) units.push(0);
    else if (roll < 0.5) units.push(32 + Math.floor(random() * 95));
    else units.push(Math.floor(random() * 0x10000));
  }
  return String.fromCharCode(...units);
}

/**
 * The fastest of `runs` timings of `run`, in seconds: a pause of the machine (other tests, the
 * collector) lengthens one run, not the fastest, so ratios of fastest runs say how the work grows.
 */
function fastestOf(runs: number, run: () => unknown): number {
  let fastest = Number.POSITIVE_INFINITY;
  for (let index = 0; index < runs; index += 1) {
    const started = performance.now();
    run();
    fastest = Math.min(fastest, (performance.now() - started) / 1000);
  }
  return fastest;
}

describe('robustness', () => {
  const validator = createValidator();

  it('handles random Unicode, lone surrogates and NUL bytes without throwing', () => {
    const random = seeded(13);
    for (let round = 0; round < 300; round += 1) {
      const text = randomUnicode(random, Math.floor(random() * 400));
      const result = validator.validate(text);
      expect(result.score).toBeGreaterThanOrEqual(0);
      expect(result.score).toBeLessThanOrEqual(1);
      expect(result).toEqual(validateResponseReference(text));
    }
  });

  it('keeps a cue found next to NUL bytes and lone surrogates', () => {
    const text = '\u0000\ud800 I cannot help with that request. \udc00\u0000';
    expect(validator.validate(text).signals.map((signal) => signal.type)).toEqual(['refusal']);
  });

  it('validates a 50 MB response in bounded time and memory of signals', () => {
    const sentence =
      'The bridge opened in 1932 after four years of work, probably. I think so, etc. ';
    const text = sentence.repeat(Math.ceil(50_000_000 / sentence.length));
    const started = performance.now();
    const result = validator.validate(text);
    const seconds = (performance.now() - started) / 1000;
    expect(result.signals.length).toBeLessThan(10);
    expect(seconds).toBeLessThan(30);
  }, 60_000);

  it('stays linear on a text made of code fences of both kinds', () => {
    const unit = '```\n~~~\nI cannot help\n';
    const text = unit.repeat(500_000);
    // a tenth of the text, timed in the same run: other work on the machine slows both alike, and
    // time that grew with the square of the length would take a hundred times as long for ten times
    // the text
    const tenth = unit.repeat(50_000);
    validator.validate(tenth);
    const tenthSeconds = fastestOf(3, () => validator.validate(tenth));
    const result = validator.validate(text);
    const seconds = fastestOf(2, () => validator.validate(text));
    // read in the opening and again past it: refusals only
    expect(new Set(result.signals.map((signal) => signal.type))).toEqual(new Set(['refusal']));
    expect(seconds / tenthSeconds).toBeLessThan(30);
    const stream = validator.stream();
    for (let index = 0; index < text.length; index += 65_536) {
      stream.push(text.slice(index, index + 65_536));
    }
    expect(stream.end()).toEqual(result);
  }, 60_000);

  it('validates a 50 MB stream of random Unicode without hanging', () => {
    const random = seeded(17);
    const chunk = randomUnicode(random, 1 << 16);
    const streamed = (bytes: number) => () => {
      const stream = validator.stream();
      for (let sent = 0; sent < bytes; sent += chunk.length) stream.push(chunk);
      const result = stream.end();
      expect(result.score).toBeGreaterThanOrEqual(0);
    };
    // against a tenth of it in the same run, as above
    const tenth = fastestOf(3, streamed(5_000_000));
    expect(fastestOf(2, streamed(50_000_000)) / tenth).toBeLessThan(30);
  }, 60_000);
});
