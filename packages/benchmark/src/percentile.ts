import { BenchmarkError, BenchmarkErrorCode } from './errors.js';

/**
 * The nearest-rank percentile of a list: the smallest value with at least `quantile` (0 to 1) of
 * the values at or below it, `sorted[ceil(quantile × n) − 1]`; NaN for an empty list.
 */
export function percentile(values: readonly number[], quantile: number): number {
  if (!(quantile >= 0 && quantile <= 1)) {
    throw new BenchmarkError(
      BenchmarkErrorCode.INVALID_CONFIG,
      `a percentile's quantile must be from 0 to 1, got ${quantile}`,
    );
  }
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((left, right) => left - right);
  // a product that floating point puts a hair above a whole number (0.07 × 100) keeps its rank
  const rank = Math.ceil(quantile * sorted.length - 1e-9);
  return sorted[Math.max(0, rank - 1)]!;
}
