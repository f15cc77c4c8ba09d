import { describe, expect, it } from 'vitest';
import { percentile } from '../src/index.js';

describe('percentile', () => {
  const tenValues = [7, 3, 10, 1, 9, 2, 8, 4, 6, 5];

  it('takes the nearest rank: p90 of ten values is the ninth, not the largest', () => {
    expect(percentile(tenValues, 0.9)).toBe(9);
    expect(percentile(tenValues, 0.5)).toBe(5);
    expect(percentile(tenValues, 0.1)).toBe(1);
    expect(percentile(tenValues, 1)).toBe(10);
  });

  it('gives the lower of the two middle values as p50 of an even count', () => {
    expect(percentile([40, 10, 30, 20], 0.5)).toBe(20);
    expect(percentile([40, 10, 30, 20], 0.75)).toBe(30);
  });

  it('gives the middle value as p50 of an odd count, and the one value of a single', () => {
    expect(percentile([3, 1, 2], 0.5)).toBe(2);
    expect(percentile([4.5], 0.9)).toBe(4.5);
    expect(percentile([4.5], 0)).toBe(4.5);
  });

  it('keeps the rank when the product is a hair above a whole number', () => {
    const hundred = Array.from({ length: 100 }, (_, index) => index + 1);
    expect(percentile(hundred, 0.07)).toBe(7);
  });

  it('is NaN for no values and refuses a quantile outside 0 to 1', () => {
    expect(percentile([], 0.5)).toBeNaN();
    expect(() => percentile([1], 1.5)).toThrow('from 0 to 1, got 1.5');
  });
});
