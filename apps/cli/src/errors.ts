/** Error codes the CLI itself raises. */
export const CliErrorCode = {
  INVALID_ARGUMENT: 'INVALID_ARGUMENT',
  INVALID_INPUT: 'INVALID_INPUT',
  FILE_NOT_FOUND: 'FILE_NOT_FOUND',
  MISSING_CREDENTIALS: 'MISSING_CREDENTIALS',
  GATE_FAILED: 'GATE_FAILED',
} as const;

/** One of the codes in {@link CliErrorCode}. */
export type CliErrorCode = (typeof CliErrorCode)[keyof typeof CliErrorCode];

/** A problem with what the user asked for: printed as one line, never with a stack trace. */
export class CliError extends Error {
  override readonly name = 'CliError';
  readonly code: CliErrorCode;
  /** Exit status the process ends with. */
  readonly exitCode: number;

  constructor(
    code: CliErrorCode,
    message: string,
    options: { cause?: unknown; exitCode?: number } = {},
  ) {
    super(message, { cause: options.cause });
    this.code = code;
    this.exitCode = options.exitCode ?? 2;
  }
}

/**
 * Whether an error is one the packages raise on purpose (bad input, unreachable model, …):
 * every qualm package error class carries a string `code` and a name ending in `Error`.
 */
export function isKnownError(error: unknown): error is Error & { code: string } {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^[A-Z][A-Z_]+$/.test(code) && error.name !== 'Error';
}

// package error codes that mean the input, the options or the set-up is wrong, not the run
const badInputCodes = new Set<string>([
  'INVALID_INPUT',
  'INVALID_CONFIG',
  'INVALID_OPTIONS',
  'FILE_NOT_FOUND',
  'INVALID_TEMPLATE',
  'INVALID_PATTERN',
  'UNSAFE_PATTERN',
  'MISSING_CREDENTIALS',
  'MODEL_NOT_FOUND',
  'UNSUPPORTED_MODEL',
]);

/** The exit status of a known package error: 2 when the input or configuration is wrong, else 1. */
export function exitCodeOf(error: { code: string }): number {
  return badInputCodes.has(error.code) ? 2 : 1;
}

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
