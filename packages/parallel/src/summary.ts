import { type QualitySummary, SIGNAL_TYPES, type SignalType } from '@qualm/validator';

/**
 * Adds up assessments one at a time in constant memory and gives exactly what
 * `getQualitySummary` gives for the same assessments in the same order.
 */
export class SummaryAccumulator {
  private total = 0;
  private escalated = 0;
  private scoreTotal = 0;
  private readonly counts = new Map<SignalType, number>();

  /** Adds one assessment: its score, whether it escalates, and its signal types (repeats count once). */
  add(score: number, shouldEscalate: boolean, types: Iterable<SignalType>): void {
    this.total += 1;
    this.scoreTotal += score;
    if (shouldEscalate) this.escalated += 1;
    for (const type of new Set(types)) this.counts.set(type, (this.counts.get(type) ?? 0) + 1);
  }

  /**
   * Adds assessments packed as a chunk result carries them: a score per assessment, and flags
   * whose bit 0 says it escalates and bit i + 1 that it has a signal of `SIGNAL_TYPES[i]`.
   */
  addPacked(scores: ArrayLike<number>, flags: ArrayLike<number>): void {
    for (let index = 0; index < scores.length; index += 1) {
      const flag = flags[index]!;
      this.total += 1;
      this.scoreTotal += scores[index]!;
      if (flag & 1) this.escalated += 1;
      for (let type = 0; type < SIGNAL_TYPES.length; type += 1) {
        if (flag & (2 << type)) {
          const name = SIGNAL_TYPES[type]!;
          this.counts.set(name, (this.counts.get(name) ?? 0) + 1);
        }
      }
    }
  }

  /** How many assessments were added. */
  get count(): number {
    return this.total;
  }

  /** The summary of everything added so far. */
  summary(): QualitySummary {
    const total = this.total;
    const commonIssues = [...this.counts.entries()]
      .map(([type, count]) => ({ type, count, share: count / total }))
      .sort(
        (left, right) =>
          right.count - left.count ||
          SIGNAL_TYPES.indexOf(left.type) - SIGNAL_TYPES.indexOf(right.type),
      );
    return {
      total,
      escalated: this.escalated,
      averageScore: total === 0 ? 0 : this.scoreTotal / total,
      escalationRate: total === 0 ? 0 : this.escalated / total,
      commonIssues,
    };
  }
}

/** Packs an assessment's escalation and signal types into the flags {@link SummaryAccumulator.addPacked} reads. */
export function packFlags(shouldEscalate: boolean, types: Iterable<SignalType>): number {
  let flags = shouldEscalate ? 1 : 0;
  for (const type of types) flags |= 2 << SIGNAL_TYPES.indexOf(type);
  return flags;
}
