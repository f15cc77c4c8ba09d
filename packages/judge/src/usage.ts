/** Tokens and calls spent on chat completions. */
export interface TokenUsage {
  /** Completions the model returned (each one billed), re-asks included. */
  calls: number;
  /** HTTP requests sent, retries of failed requests included. */
  requests: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/** A usage record with every count at zero. */
export function emptyUsage(): TokenUsage {
  return { calls: 0, requests: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0 };
}

/** Adds usage records into a new one. */
export function addUsage(...records: readonly (TokenUsage | undefined)[]): TokenUsage {
  const total = emptyUsage();
  for (const record of records) {
    if (!record) continue;
    total.calls += record.calls;
    total.requests += record.requests;
    total.promptTokens += record.promptTokens;
    total.completionTokens += record.completionTokens;
    total.totalTokens += record.totalTokens;
  }
  return total;
}
