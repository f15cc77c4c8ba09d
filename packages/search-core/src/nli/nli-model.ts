/** The three natural language inference labels. */
export type NliLabel = 'entailment' | 'neutral' | 'contradiction';

/** The labels in a fixed order, for iteration. */
export const NLI_LABELS: readonly NliLabel[] = ['entailment', 'neutral', 'contradiction'];

/** A premise (the evidence) and a hypothesis (a claim of the answer) to judge together. */
export interface NliPair {
  premise: string;
  hypothesis: string;
}

/** Probabilities of each label for one pair; they sum to 1. */
export interface NliScores {
  entailment: number;
  neutral: number;
  contradiction: number;
}

/**
 * A natural language inference model: judges whether a premise entails, is neutral to, or
 * contradicts a hypothesis. It also counts tokens, so that long texts can be windowed to fit it
 * without knowing the backend.
 */
export interface NliModel {
  /** Longest pair the model reads whole, special tokens included. */
  readonly maxTokens: number;
  /** Special tokens the model adds around a pair (3 for `[CLS] a [SEP] b [SEP]`). */
  readonly pairSpecialTokens: number;
  /** Number of tokens a text takes, without special tokens. */
  countTokens(text: string): number;
  /** Label probabilities for each pair, in the order given. */
  classify(pairs: readonly NliPair[]): Promise<NliScores[]>;
}

/** The label with the highest probability (ties go to the first in `NLI_LABELS`). */
export function topLabel(scores: NliScores): NliLabel {
  let best: NliLabel = 'entailment';
  for (const label of NLI_LABELS) {
    if (scores[label] > scores[best]) best = label;
  }
  return best;
}
