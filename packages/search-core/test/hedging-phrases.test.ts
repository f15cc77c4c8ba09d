import { createValidator } from '@qualm/validator';
import { describe, expect, it } from 'vitest';
import { createHedgingAssessor, HEDGE_PATTERNS, NON_ANSWER_PATTERNS } from '../src/index.js';

const assess = createHedgingAssessor();

describe('hedging patterns read answers as people write them', () => {
  it('finds a non-answer whose words are split by a line break or a double space', () => {
    expect(assess('Could you\nplease share the date of the trip?').nonAnswer).toBe(true);
    expect(assess('Feel free  to share more about your trip.').nonAnswer).toBe(true);
  });

  it('finds a hedge written with any apostrophe, the left single quotation mark included', () => {
    for (const apostrophe of ["'", '’', '‘']) {
      const answer = `I don${apostrophe}t have any information about your trip to Rome.`;
      expect(assess(answer).hedged).toBe(true);
    }
  });

  it('keeps every pattern safe for the validator’s backtracking check', () => {
    expect(() =>
      createValidator({
        defaultPatterns: false,
        customPatterns: { confusion: NON_ANSWER_PATTERNS, low_confidence: HEDGE_PATTERNS },
      }),
    ).not.toThrow();
  });
});
