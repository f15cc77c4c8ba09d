import { BenchmarkError, BenchmarkErrorCode } from '../errors.js';

/** A number that Python holds as a float, so that JSON and printing write it with a `.0`. */
export class PythonFloat {
  constructor(readonly value: number) {}
}

/**
 * JSON text exactly as Python's `json.dumps` writes it by default: `", "` and `": "` separators,
 * every character outside printable ASCII escaped as `\uXXXX` (`ensure_ascii`), integers as
 * integers and {@link PythonFloat} values as Python writes floats (`1.0`, `1e-05`, `NaN`), so that
 * prompts and logs match the harness's byte for byte.
 */
export function pythonJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (value instanceof PythonFloat) {
    if (Number.isNaN(value.value)) return 'NaN';
    if (!Number.isFinite(value.value)) return value.value > 0 ? 'Infinity' : '-Infinity';
    return pythonFloatRepr(value.value);
  }
  if (typeof value === 'string') {
    return JSON.stringify(value).replace(
      /[\u007f-\uffff]/g,
      (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  }
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'NaN';
    if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
    return Number.isInteger(value) ? integerText(value) : pythonFloatRepr(value);
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(
      ([, entry]) => entry !== undefined,
    );
    return `{${entries.map(([key, entry]) => `${pythonJsonDumps(key)}: ${pythonJsonDumps(entry)}`).join(', ')}}`;
  }
  throw new BenchmarkError(
    BenchmarkErrorCode.INVALID_INPUT,
    `cannot write a ${typeof value} as JSON`,
  );
}

// a whole number parsed from JSON was an int to Python: written without exponent or ".0"
function integerText(value: number): string {
  if (Object.is(value, -0)) return '0';
  return Math.abs(value) < 1e21 ? String(value) : BigInt(value).toString();
}

/**
 * A float as Python's `repr` (and numpy's `str` of a float64) writes it: the shortest digits that
 * read back to the same value, in positional notation from 1e-4 to below 1e16 with at least one
 * decimal (`0.5`, `1.0`), in exponent notation otherwise (`1e-05`, `1.5e+16`); `nan`, `inf`.
 */
export function pythonFloatRepr(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const sign = value < 0 ? '-' : '';
  // toExponential() without digits gives the shortest round-trip digits
  const [mantissa, exponentText] = Math.abs(value).toExponential().split('e') as [string, string];
  const digits = mantissa.replace('.', '');
  const exponent = Number(exponentText);
  if (exponent >= -4 && exponent < 16) {
    if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
    const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
    const fraction = digits.slice(exponent + 1);
    return `${sign}${whole}.${fraction === '' ? '0' : fraction}`;
  }
  const shownMantissa = digits.length === 1 ? digits : `${digits[0]}.${digits.slice(1)}`;
  const exponentSign = exponent < 0 ? '-' : '+';
  return `${sign}${shownMantissa}e${exponentSign}${String(Math.abs(exponent)).padStart(2, '0')}`;
}

/** Rounds half to even, as C's `rint` (and numpy) does. */
export function roundHalfEven(value: number): number {
  if (!Number.isFinite(value)) return value;
  const floor = Math.floor(value);
  const difference = value - floor;
  if (difference > 0.5) return floor + 1;
  if (difference < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

/**
 * Rounds as `round(numpy.float64, decimals)` does: multiplies by 10^decimals, rounds half to even,
 * divides back (so 5/32 = 0.15625 gives 0.1562, where `toFixed` gives 0.1563).
 */
export function numpyRound(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return roundHalfEven(value * factor) / factor;
}

/**
 * The sum numpy's `np.sum` returns for float64 values: pairwise summation, eight running sums over
 * blocks of up to 128 values, halves above that; the order matters in the last bits.
 */
export function numpySum(values: readonly number[], start = 0, end = values.length): number {
  const count = end - start;
  if (count < 8) {
    let sum = 0;
    for (let index = start; index < end; index += 1) sum += values[index]!;
    return sum;
  }
  if (count <= 128) {
    const partial = values.slice(start, start + 8);
    let index = start + 8;
    const blockEnd = end - (count % 8);
    for (; index < blockEnd; index += 8) {
      for (let lane = 0; lane < 8; lane += 1)
        partial[lane] = partial[lane]! + values[index + lane]!;
    }
    const [p0, p1, p2, p3, p4, p5, p6, p7] = partial as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    let sum = p0 + p1 + (p2 + p3) + (p4 + p5 + (p6 + p7));
    for (; index < end; index += 1) sum += values[index]!;
    return sum;
  }
  let half = Math.floor(count / 2);
  half -= half % 8;
  return numpySum(values, start, start + half) + numpySum(values, start + half, end);
}

/** The mean numpy's `np.mean` returns: {@link numpySum} divided by the count; NaN when empty. */
export function numpyMean(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : numpySum(values) / values.length;
}

// the characters Python's str.strip() removes (str.isspace), which differ from String.trim()'s
const pythonWhitespace =
  '[\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const pythonStripPattern = new RegExp(`^${pythonWhitespace}+|${pythonWhitespace}+$`, 'g');

/** A string with leading and trailing whitespace removed as Python's `str.strip()` removes it. */
export function pythonStrip(text: string): string {
  return text.replace(pythonStripPattern, '');
}
