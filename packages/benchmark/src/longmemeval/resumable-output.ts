import type { RunFailure, TokenUsage } from '@qualm/judge';

/**
 * What a resumable run did, as the reader and the evaluator report it. Both run on
 * `runBatch` of @qualm/judge and share its failure policy.
 */
export interface ResumableRun {
  outPath: string;
  /** Questions this run had to do. */
  total: number;
  /** Questions already in the output, skipped. */
  alreadyDone: number;
  written: number;
  /** Questions left out of the output, for a rerun. */
  failures: RunFailure[];
  /** Tokens spent by this run, failed calls included. */
  usage: TokenUsage;
  /** The run was stopped by its signal; a rerun with the same output continues it. */
  interrupted: boolean;
}
