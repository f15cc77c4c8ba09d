import { SearchCoreError, SearchCoreErrorCode } from '../errors.js';
import type { RetrievalHit } from './types.js';

/** Hits sort by score, best first; ties keep the order in which documents were indexed. */
export function compareHits(
  left: RetrievalHit & { position: number },
  right: RetrievalHit & { position: number },
): number {
  return (
    right.score - left.score || right.rawScore - left.rawScore || left.position - right.position
  );
}

/** The number of hits to return: 10 unless given; a non-negative integer or infinity. */
export function checkLimit(limit: number | undefined): number {
  if (limit === undefined) return 10;
  if (
    typeof limit !== 'number' ||
    Number.isNaN(limit) ||
    limit < 0 ||
    (!Number.isInteger(limit) && limit !== Number.POSITIVE_INFINITY)
  ) {
    throw new SearchCoreError(
      SearchCoreErrorCode.INVALID_INPUT,
      `limit must be a non-negative integer or Infinity, got ${String(limit)}`,
    );
  }
  return limit;
}
