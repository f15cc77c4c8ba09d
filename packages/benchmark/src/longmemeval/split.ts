/** The two halves questions are split into: tune settings on one, report on the other. */
export type QuestionSplit = 'tune' | 'holdout';

/**
 * The half a question belongs to, from a stable hash of its id (32-bit FNV-1a, even → `tune`), so
 * that the split never depends on file order or on which questions a file holds.
 */
export function questionSplit(questionId: string): QuestionSplit {
  let hash = 0x811c9dc5;
  for (let index = 0; index < questionId.length; index += 1) {
    hash ^= questionId.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % 2 === 0 ? 'tune' : 'holdout';
}
