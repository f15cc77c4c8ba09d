import { ErrorKind, printable, QualmError } from '@qualm/errors';

/** Error codes the CLI itself raises. */
export const CliErrorCode = {
  INVALID_ARGUMENT: 'INVALID_ARGUMENT',
  INVALID_INPUT: 'INVALID_INPUT',
  FILE_NOT_FOUND: 'FILE_NOT_FOUND',
  MISSING_CREDENTIALS: 'MISSING_CREDENTIALS',
  /** The input holds nothing to work on. */
  NOTHING_TO_DO: 'NOTHING_TO_DO',
  /** A gate the user asked for fired (`--fail-on-escalate`). */
  GATE_FAILED: 'GATE_FAILED',
} as const;

/** One of the codes in {@link CliErrorCode}. */
export type CliErrorCode = (typeof CliErrorCode)[keyof typeof CliErrorCode];

const kinds: Record<CliErrorCode, ErrorKind> = {
  INVALID_ARGUMENT: ErrorKind.SETUP,
  INVALID_INPUT: ErrorKind.INVALID_INPUT,
  FILE_NOT_FOUND: ErrorKind.INVALID_INPUT,
  MISSING_CREDENTIALS: ErrorKind.SETUP,
  NOTHING_TO_DO: ErrorKind.INVALID_INPUT,
  GATE_FAILED: ErrorKind.FAILED,
};

const marker = 'qualm.error.cli';
const markerSymbol = Symbol.for(marker);

/** A problem with what the user asked for: printed as one line, never with a stack trace. */
export class CliError extends QualmError {
  readonly [markerSymbol] = true;
  override readonly name = 'CliError';
  declare readonly code: CliErrorCode;

  constructor(code: CliErrorCode, message: string, options: { cause?: unknown } = {}) {
    super({ code, kind: kinds[code], message, cause: options.cause });
  }

  /** Whether a value is a CliError, from any installed copy of this package. */
  static override isInstance(value: unknown): value is CliError {
    return QualmError.hasMarker(value, marker);
  }
}

/**
 * The exit status of each kind of error: 2 when the input, an option or the set-up is wrong, 1
 * when the run failed on the way (an endpoint down, a gate that fired), 130 when it was
 * interrupted, 70 for a bug.
 */
export const exitStatusOfKind: Readonly<Record<ErrorKind, number>> = {
  invalid_input: 2,
  setup: 2,
  unavailable: 1,
  failed: 1,
  aborted: 130,
  internal: 70,
};

/** The exit status of an interrupted run, as shells report a process ended by SIGINT. */
export const INTERRUPTED_EXIT_STATUS = 130;

/**
 * Whether an error is Node's own failure of a system call on a file (a missing folder, a
 * directory where a file was expected, a file the process may not read): bad input, not a bug.
 */
export function isSystemError(error: unknown): error is NodeJS.ErrnoException & {
  code: string;
  syscall: string;
} {
  if (!(error instanceof Error)) return false;
  const { code, syscall } = error as NodeJS.ErrnoException;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code) && typeof syscall === 'string';
}

/** The line the CLI prints for a known error, and the status it exits with; undefined for a bug. */
export function describeError(error: unknown): { line: string; status: number } | undefined {
  if (QualmError.isInstance(error)) {
    return { line: `qualm: ${printable(error.message)}`, status: exitStatusOfKind[error.kind] };
  }
  if (isSystemError(error)) {
    // node's message already names the call and the path: "ENOENT: no such file …, open 'x'"
    return { line: `qualm: ${printable(error.message.split('\n')[0] ?? '')}`, status: 2 };
  }
  return undefined;
}
