/** Error codes the CLI itself raises. */
export const CliErrorCode = {
  INVALID_ARGUMENT: 'INVALID_ARGUMENT',
  INVALID_INPUT: 'INVALID_INPUT',
  FILE_NOT_FOUND: 'FILE_NOT_FOUND',
  MISSING_CREDENTIALS: 'MISSING_CREDENTIALS',
  GATE_FAILED: 'GATE_FAILED',
} as const;

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
