import { SearchCoreError, SearchCoreErrorCode } from '../errors.js';
import type { TextSpan } from './sentences.js';

/** A stretch of a text that fits the model, with its offsets and token count. */
export interface TextWindow extends TextSpan {
  tokens: number;
}

/** How to cut a text into windows. */
export interface WindowOptions {
  /** Most tokens a window may hold. */
  maxTokens: number;
  /** Tokens consecutive windows share at least (word-aligned); 0 for none. */
  overlapTokens: number;
  /** Counts the tokens of a text, without special tokens. */
  countTokens: (text: string) => number;
}

interface Unit {
  start: number;
  end: number;
  tokens: number;
}

// a word longer than a window (a URL, a hash) is cut into pieces that fit
function fitUnit(text: string, unit: Unit, options: WindowOptions, units: Unit[]): void {
  if (unit.tokens <= options.maxTokens || unit.end - unit.start <= 1) {
    units.push(unit);
    return;
  }
  const middle = unit.start + Math.ceil((unit.end - unit.start) / 2);
  for (const [start, end] of [
    [unit.start, middle],
    [middle, unit.end],
  ] as const) {
    fitUnit(
      text,
      { start, end, tokens: options.countTokens(text.slice(start, end)) },
      options,
      units,
    );
  }
}

function wordUnits(text: string, options: WindowOptions): Unit[] {
  const counts = new Map<string, number>();
  const units: Unit[] = [];
  for (const match of text.matchAll(/\S+/g)) {
    const word = match[0];
    let tokens = counts.get(word);
    if (tokens === undefined) {
      tokens = options.countTokens(word);
      counts.set(word, tokens);
    }
    fitUnit(text, { start: match.index, end: match.index + word.length, tokens }, options, units);
  }
  return units;
}

/**
 * Cuts a text into windows of at most `maxTokens` tokens along word boundaries. Windows follow one
 * another with a stride of about `maxTokens − overlapTokens`, and consecutive windows share at
 * least `overlapTokens` tokens, so every word is in some window (nothing is truncated) and any
 * passage shorter than the overlap is whole in at least one window. A text that fits is one window.
 */
export function splitIntoWindows(text: string, options: WindowOptions): TextWindow[] {
  const { maxTokens, overlapTokens } = options;
  if (!Number.isInteger(maxTokens) || maxTokens < 1) {
    throw new SearchCoreError(
      SearchCoreErrorCode.INVALID_INPUT,
      `a window must hold at least one token, got maxTokens ${maxTokens}`,
    );
  }
  if (!Number.isInteger(overlapTokens) || overlapTokens < 0 || overlapTokens * 2 > maxTokens) {
    throw new SearchCoreError(
      SearchCoreErrorCode.INVALID_INPUT,
      `overlapTokens must be an integer from 0 to half the window (${Math.floor(maxTokens / 2)}), got ${overlapTokens}`,
    );
  }
  const trimmed = text.trim();
  if (trimmed.length === 0) return [];
  const whole = options.countTokens(trimmed);
  if (whole <= maxTokens) {
    const start = text.indexOf(trimmed);
    return [{ text: trimmed, start, end: start + trimmed.length, tokens: whole }];
  }
  const units = wordUnits(text, options);
  const windows: TextWindow[] = [];
  let first = 0;
  while (first < units.length) {
    let last = first;
    let tokens = units[first]!.tokens;
    while (last + 1 < units.length && tokens + units[last + 1]!.tokens <= maxTokens) {
      last++;
      tokens += units[last]!.tokens;
    }
    const window = measuredWindow(text, units, { first, last }, options);
    windows.push(window.window);
    if (window.last === units.length - 1) break;
    // step back from the end until the shared part holds the overlap
    let next = window.last + 1;
    let shared = 0;
    while (next - 1 > first && shared < overlapTokens) {
      next--;
      shared += units[next]!.tokens;
    }
    first = next;
  }
  return windows;
}

// tokens of words counted alone may differ from the same words in context: recount and shrink
function measuredWindow(
  text: string,
  units: Unit[],
  range: { first: number; last: number },
  options: WindowOptions,
): { window: TextWindow; last: number } {
  let last = range.last;
  for (;;) {
    const start = units[range.first]!.start;
    const end = units[last]!.end;
    const slice = text.slice(start, end);
    const tokens = options.countTokens(slice);
    if (tokens <= options.maxTokens || last === range.first) {
      return { window: { text: slice, start, end, tokens }, last };
    }
    last--;
  }
}
