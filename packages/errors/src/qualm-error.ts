import { printable } from './printable.js';

/**
 * What kind of failure an error is. The kind, not the code, tells a caller what to do next: fix
 * the input or the set-up, try again later, record the failure, or report a bug.
 */
export const ErrorKind = {
  /** The input is wrong (a file, a line, a value): fixing it is the only way forward. */
  INVALID_INPUT: 'invalid_input',
  /** The set-up is wrong (an option, credentials, an endpoint, a model): every item would fail alike. */
  SETUP: 'setup',
  /** Something outside failed for now (unreachable, rate-limited, timed out, a broken reply): try again later. */
  UNAVAILABLE: 'unavailable',
  /** The work ran and did not succeed, and would not on a retry (a reply that never fit the schema). */
  FAILED: 'failed',
  /** The caller stopped the work. */
  ABORTED: 'aborted',
  /** A bug. */
  INTERNAL: 'internal',
} as const;

/** One of the kinds in {@link ErrorKind}. */
export type ErrorKind = (typeof ErrorKind)[keyof typeof ErrorKind];

const errorKinds = new Set<string>(Object.values(ErrorKind));

const marker = 'qualm.error';
const markerSymbol = Symbol.for(marker);

/** Options of {@link QualmError}. */
export interface QualmErrorOptions {
  /** A stable name of the failure, `UPPER_SNAKE_CASE`, from the raising package's code map. */
  code: string;
  kind: ErrorKind;
  /** One line that names what is wrong; control characters in it are escaped. */
  message: string;
  cause?: unknown;
}

/**
 * The base of every error a qualm package raises on purpose. `isInstance` checks a marker under
 * `Symbol.for`, so it holds when two copies of a package are installed, where `instanceof` fails.
 */
export class QualmError extends Error {
  readonly [markerSymbol] = true;
  override readonly name: string = 'QualmError';
  /** A stable name of the failure, from the raising package's code map. */
  readonly code: string;
  /** What kind of failure this is: see {@link ErrorKind}. */
  readonly kind: ErrorKind;

  constructor({ code, kind, message, cause }: QualmErrorOptions) {
    super(printable(message), { cause });
    this.code = code;
    this.kind = errorKinds.has(kind) ? kind : ErrorKind.INTERNAL;
  }

  /** Whether a value is a qualm error, from any installed copy of any qualm package. */
  static isInstance(value: unknown): value is QualmError {
    return QualmError.hasMarker(value, marker);
  }

  /** Whether a value carries the marker `Symbol.for(name)`; subclasses build their own `isInstance` on it. */
  protected static hasMarker(value: unknown, name: string): boolean {
    const symbol = Symbol.for(name);
    return (
      typeof value === 'object' &&
      value !== null &&
      symbol in value &&
      (value as Record<symbol, unknown>)[symbol] === true
    );
  }
}

/** Whether an error is a qualm error that a later attempt may not meet (`unavailable`). */
export function isTransient(error: unknown): boolean {
  return QualmError.isInstance(error) && error.kind === ErrorKind.UNAVAILABLE;
}
