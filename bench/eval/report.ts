/*
 * Shared pieces of the evaluations: counting, formatting, and writing generated tables between
 * markers in the repository's Markdown files.
 */
import { readFileSync, writeFileSync } from 'node:fs';

/** Counts of a binary prediction against a label. */
export interface Confusion {
  truePositive: number;
  falsePositive: number;
  falseNegative: number;
  trueNegative: number;
}

export function confusion(items: Iterable<{ actual: boolean; predicted: boolean }>): Confusion {
  const counts = { truePositive: 0, falsePositive: 0, falseNegative: 0, trueNegative: 0 };
  for (const { actual, predicted } of items) {
    if (actual && predicted) counts.truePositive += 1;
    else if (!actual && predicted) counts.falsePositive += 1;
    else if (actual && !predicted) counts.falseNegative += 1;
    else counts.trueNegative += 1;
  }
  return counts;
}

export function scores(counts: Confusion): { precision: number; recall: number; f1: number } {
  const precision = counts.truePositive / (counts.truePositive + counts.falsePositive || 1);
  const recall = counts.truePositive / (counts.truePositive + counts.falseNegative || 1);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}

export const fixed = (value: number, digits = 3) => value.toFixed(digits);
export const percent = (value: number, digits = 1) => `${(value * 100).toFixed(digits)}%`;
export const rate = (part: number, whole: number) =>
  whole === 0 ? '–' : `${percent(part / whole)} (${part}/${whole})`;

/** A Markdown table. */
export function markdownTable(headers: string[], rows: string[][], align?: string[]): string {
  const rule = headers.map((_, column) => align?.[column] ?? '---');
  return [headers, rule, ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

/**
 * Replaces what stands between `<!-- eval:NAME -->` and `<!-- /eval:NAME -->` in a file. A marker
 * that is missing is an error: the documents and the command must not drift apart silently.
 */
export function writeBetweenMarkers(path: string, sections: Record<string, string>): string[] {
  let text = readFileSync(path, 'utf8');
  const written: string[] = [];
  for (const [name, body] of Object.entries(sections)) {
    const open = `<!-- eval:${name} -->`;
    const close = `<!-- /eval:${name} -->`;
    const start = text.indexOf(open);
    const end = text.indexOf(close);
    if (start === -1) continue;
    if (end === -1 || end < start) throw new Error(`${path}: ${open} has no ${close} after it`);
    text = `${text.slice(0, start + open.length)}\n${body.trim()}\n${text.slice(end)}`;
    written.push(name);
  }
  writeFileSync(path, text);
  return written;
}
