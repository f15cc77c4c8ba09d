import { describe, expect, it } from 'vitest';
import { SearchCoreError, splitIntoWindows, type TextWindow } from '../src/index.js';

// one token per 4 characters of a word, at least one: words of different lengths weigh differently
const countTokens = (text: string) =>
  (text.match(/\S+/g) ?? []).reduce((total, word) => total + Math.ceil(word.length / 4), 0);

function seeded(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

function randomText(random: () => number, words: number): string {
  const parts: string[] = [];
  for (let index = 0; index < words; index++) {
    const length = 1 + Math.floor(random() * 14);
    parts.push(`w${index}`.padEnd(length, 'x'));
  }
  return parts.join(random() < 0.5 ? ' ' : '  \n');
}

function wordsOf(text: string): { word: string; start: number }[] {
  return [...text.matchAll(/\S+/g)].map((match) => ({ word: match[0], start: match.index }));
}

function tokensShared(previous: TextWindow, next: TextWindow, text: string): number {
  if (next.start >= previous.end) return 0;
  return countTokens(text.slice(next.start, previous.end));
}

describe('splitIntoWindows', () => {
  it('keeps a text that fits as one window', () => {
    const windows = splitIntoWindows('  a short text  ', {
      maxTokens: 10,
      overlapTokens: 2,
      countTokens,
    });
    expect(windows).toEqual([{ text: 'a short text', start: 2, end: 14, tokens: 4 }]);
  });

  it('covers every word of a long text, with windows that fit and overlap', () => {
    const random = seeded(42);
    for (let round = 0; round < 40; round++) {
      const text = randomText(random, 50 + Math.floor(random() * 300));
      const maxTokens = 8 + Math.floor(random() * 60);
      const overlapTokens = Math.floor(random() * (maxTokens / 2));
      const windows = splitIntoWindows(text, { maxTokens, overlapTokens, countTokens });
      expect(windows.length).toBeGreaterThan(1);
      for (const window of windows) {
        expect(window.tokens).toBeLessThanOrEqual(maxTokens);
        expect(text.slice(window.start, window.end)).toBe(window.text);
      }
      // no truncation: every word lies inside some window
      for (const { word, start } of wordsOf(text)) {
        const covering = windows.some(
          (window) => window.start <= start && start + word.length <= window.end,
        );
        expect(covering, `word "${word}" at ${start}`).toBe(true);
      }
      for (let index = 1; index < windows.length; index++) {
        const previous = windows[index - 1]!;
        const next = windows[index]!;
        expect(next.start).toBeGreaterThan(previous.start);
        expect(tokensShared(previous, next, text)).toBeGreaterThanOrEqual(overlapTokens);
      }
    }
  });

  it('sees whole every passage shorter than the overlap', () => {
    const text = randomText(seeded(7), 400);
    const overlapTokens = 12;
    const windows = splitIntoWindows(text, { maxTokens: 40, overlapTokens, countTokens });
    const words = wordsOf(text);
    for (let first = 0; first < words.length; first++) {
      let last = first;
      while (
        last + 1 < words.length &&
        countTokens(
          text.slice(words[first]!.start, words[last + 1]!.start + words[last + 1]!.word.length),
        ) < overlapTokens
      ) {
        last++;
      }
      const start = words[first]!.start;
      const end = words[last]!.start + words[last]!.word.length;
      expect(windows.some((window) => window.start <= start && end <= window.end)).toBe(true);
    }
  });

  it('cuts a word longer than a window into pieces that fit', () => {
    const long = 'x'.repeat(200);
    const windows = splitIntoWindows(`before ${long} after`, {
      maxTokens: 10,
      overlapTokens: 0,
      countTokens,
    });
    expect(windows.every((window) => window.tokens <= 10)).toBe(true);
    expect(
      windows
        .map((window) => window.text)
        .join('')
        .replace(/\s/g, ''),
    ).toBe(`before${long}after`);
  });

  it('rejects an overlap larger than half the window', () => {
    expect(() =>
      splitIntoWindows('a b c', { maxTokens: 10, overlapTokens: 6, countTokens }),
    ).toThrow(SearchCoreError);
  });

  it('returns no window for blank text', () => {
    expect(splitIntoWindows(' \n ', { maxTokens: 10, overlapTokens: 2, countTokens })).toEqual([]);
  });
});
