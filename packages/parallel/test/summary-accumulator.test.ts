import { createValidator, getQualitySummary } from '@qualm/validator';
import { describe, expect, it } from 'vitest';
import { packFlags, SummaryAccumulator } from '../src/index.js';

const validator = createValidator();
const texts = [
  'The boiler pressure should sit between one and one and a half bar when cold.',
  "I'm sorry, but I can't help with that request.",
  'I think it might be the fuse, but I am not entirely sure...',
  'Tool error: the weather service returned status 503.',
  '',
  'Maybe. Probably. I guess it could be Tuesday, etc.',
  'Paris.',
];

describe('SummaryAccumulator', () => {
  it('gives exactly what getQualitySummary gives, one assessment at a time or packed', () => {
    // many assessments in a fixed shuffled order, so the float sums are not trivially equal
    const results = Array.from({ length: 997 }, (_, index) =>
      validator.validate(texts[(index * 7919) % texts.length]!),
    );
    const one = new SummaryAccumulator();
    for (const result of results) {
      one.add(
        result.score,
        result.shouldEscalate,
        result.signals.map((signal) => signal.type),
      );
    }
    const packed = new SummaryAccumulator();
    packed.addPacked(
      Float64Array.from(results.map((result) => result.score)),
      Uint16Array.from(
        results.map((result) =>
          packFlags(
            result.shouldEscalate,
            result.signals.map((signal) => signal.type),
          ),
        ),
      ),
    );
    const expected = getQualitySummary(results);
    expect(expected.commonIssues.length).toBeGreaterThan(3);
    expect(one.summary()).toStrictEqual(expected);
    expect(packed.summary()).toStrictEqual(expected);
    expect(packed.count).toBe(997);
  });

  it('summarises nothing as getQualitySummary does', () => {
    expect(new SummaryAccumulator().summary()).toStrictEqual(getQualitySummary([]));
  });
});
