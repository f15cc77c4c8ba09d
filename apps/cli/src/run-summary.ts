import type { ResumableRun } from '@qualm/benchmark';
import type { RunFailure, TokenUsage } from '@qualm/judge';

/** Token usage as `prompt + completion = total (calls, requests)`. */
export function formatUsage(usage: TokenUsage): string {
  return `${usage.promptTokens} prompt + ${usage.completionTokens} completion = ${usage.totalTokens} (${usage.calls} calls, ${usage.requests} requests)`;
}

/** One line about the questions a run left out, with the first one's reason. */
export function failureLine(failures: readonly RunFailure[], what: string): string {
  const first = failures[0];
  return `qualm: ${failures.length} ${what} (first ${first?.id}: ${first?.code}: ${first?.message}); they are not in the output, so rerunning the same command retries them`;
}

/** The line an interrupted run ends with: what it wrote, and how to continue. */
export function interruptedLine(run: ResumableRun, what: string): string {
  return `qualm: interrupted: ${run.written} of ${run.total} ${what} written to ${run.outPath}; run the same command again to continue`;
}
