import { describe, expect, it } from 'vitest';
import { getQualitySummary, validateResponses } from '../src/index.js';

describe('quality summary', () => {
  it('reports the average score, the escalation rate and the most common issues', () => {
    const results = validateResponses([
      'This is a clear and complete response.',
      "I'm not sure about this one.",
      'I cannot help with that.',
      'I cannot help with that request, sorry.',
    ]);
    const summary = getQualitySummary(results);
    expect(summary.total).toBe(4);
    expect(summary.escalated).toBe(3);
    expect(summary.escalationRate).toBe(0.75);
    expect(summary.averageScore).toBeCloseTo((1 + 0.4 + 0.25 + 0.25) / 4, 4);
    expect(summary.commonIssues).toEqual([
      { type: 'refusal', count: 2, share: 0.5 },
      { type: 'confusion', count: 1, share: 0.25 },
    ]);
  });

  it('is all zeros for no results', () => {
    expect(getQualitySummary([])).toEqual({
      total: 0,
      escalated: 0,
      averageScore: 0,
      escalationRate: 0,
      commonIssues: [],
    });
  });
});
