import { contextOf, evidenceOf, type Found } from './scan.js';
import { assess } from './score.js';
import { DEFAULT_WEIGHTS, type ResponseQuality, type Signal } from './types.js';

/** The empty-response signal for a non-blank span the caller found shorter than `minLength`. */
export function emptySignal(trimmed: string, position: number): Signal {
  return {
    type: 'empty_response',
    evidence: trimmed,
    weight: DEFAULT_WEIGHTS.empty_response,
    position,
    context: trimmed,
    source: 'pattern',
  };
}

/** Turns the found matches (and the empty-response check) into an assessment. */
export function toQuality(
  found: Found[],
  empty: Signal | undefined,
  strictMode: boolean,
): ResponseQuality {
  const ordered = [...found].sort(
    (left, right) => left.position - right.position || left.pattern.index - right.pattern.index,
  );
  // two patterns of one type matching the same stretch of text are one piece of evidence
  const kept: Found[] = [];
  for (const item of ordered) {
    const overlaps = kept.some(
      (other) =>
        other.pattern.type === item.pattern.type &&
        item.position < other.end &&
        other.position < item.end,
    );
    if (!overlaps) kept.push(item);
  }
  const signals: Signal[] = kept.map((item) => ({
    type: item.pattern.type,
    evidence: evidenceOf(item),
    weight: item.pattern.weight,
    position: item.position,
    context: contextOf(item),
    source: 'pattern',
  }));
  if (empty) {
    const at = signals.findIndex((signal) => signal.position >= empty.position);
    signals.splice(at === -1 ? signals.length : at, 0, empty);
  }
  return assess(signals, strictMode);
}
