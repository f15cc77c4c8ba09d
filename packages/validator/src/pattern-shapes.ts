import type { PatternShape, Trigger } from './regex-analysis.js';

// The analysis of the built-in patterns (their trigger literals, reach and look-behind) takes most
// of a second; it is written once into default-shapes.generated.ts and read back at start, so a
// process or worker thread that creates a validator does not redo it. Each entry carries a hash of
// its pattern's source: an edited pattern no longer matches its entry and is analysed afresh.

const FIELD = '\t';

/** FNV-1a over the UTF-16 code units of a pattern source, as 8 hex digits. */
export function sourceHash(source: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < source.length; index += 1) {
    hash ^= source.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

const encodeLength = (value: number) => (Number.isFinite(value) ? String(value) : '');
const decodeLength = (text: string) => (text === '' ? Number.POSITIVE_INFINITY : Number(text));

/**
 * One line for a pattern: hash, reach, look-behind, then each trigger as its two boundary bits,
 * how many characters it shares with the trigger before it (base 36), and the rest.
 */
export function encodeShape(source: string, shape: PatternShape): string {
  const fields = [sourceHash(source), encodeLength(shape.reach), encodeLength(shape.behind)];
  if (shape.triggers === undefined) return fields.join(FIELD);
  fields.push('+');
  let previous = '';
  for (const trigger of shape.triggers) {
    const { literal } = trigger;
    let shared = 0;
    const most = Math.min(literal.length, previous.length, 35);
    while (shared < most && literal[shared] === previous[shared]) shared += 1;
    const bits = (trigger.leadingBoundary ? 1 : 0) | (trigger.trailingBoundary ? 2 : 0);
    fields.push(`${bits}${shared.toString(36)}${literal.slice(shared)}`);
    previous = literal;
  }
  return fields.join(FIELD);
}

/** The shape an entry holds for `source`, or undefined when the entry is for another source. */
export function decodeShape(source: string, entry: string | undefined): PatternShape | undefined {
  if (entry === undefined) return undefined;
  const fields = entry.split(FIELD);
  if (fields[0] !== sourceHash(source)) return undefined;
  const reach = decodeLength(fields[1] ?? '');
  const behind = decodeLength(fields[2] ?? '');
  if (fields[3] !== '+') return { triggers: undefined, reach, behind };
  const triggers: Trigger[] = [];
  let previous = '';
  for (let index = 4; index < fields.length; index += 1) {
    const field = fields[index]!;
    const bits = field.charCodeAt(0) - 48;
    const literal = previous.slice(0, Number.parseInt(field[1]!, 36)) + field.slice(2);
    triggers.push({
      literal,
      leadingBoundary: (bits & 1) !== 0,
      trailingBoundary: (bits & 2) !== 0,
    });
    previous = literal;
  }
  return { triggers, reach, behind };
}
