import { describe, expect, it } from 'vitest';
import { type CompiledPatternSet, compilePatterns, followFor } from '../src/compile.js';
import { DEFAULT_PATTERNS } from '../src/default-patterns.js';
import { DEFAULT_SHAPES, DEFAULT_TRIGGER_LENGTH } from '../src/default-shapes.generated.js';
import { decodeShape, encodeShape } from '../src/pattern-shapes.js';
import { analysePattern } from '../src/regex-analysis.js';

describe('the analysis written for the built-in patterns', () => {
  it('is, for every built-in pattern, the analysis of its source (else run pnpm shapes:validator)', () => {
    expect(DEFAULT_SHAPES).toHaveLength(DEFAULT_PATTERNS.length);
    const stale: string[] = [];
    DEFAULT_PATTERNS.forEach((definition, position) => {
      const written = decodeShape(definition.source, DEFAULT_SHAPES[position]);
      const fresh = analysePattern(definition.source, 'i');
      try {
        expect(written).toStrictEqual(fresh);
      } catch {
        stale.push(
          `built-in ${definition.type} pattern #${position + 1} (${definition.source.slice(0, 60)}…)`,
        );
      }
    });
    expect(stale, 'written analysis out of date: run pnpm shapes:validator').toEqual([]);
  });

  it('compiles the built-in patterns exactly as working everything out again does', () => {
    const outline = (set: CompiledPatternSet) => ({
      prefilters: [...set.prefilterAll, ...set.prefilterAnywhere].map((each) => each.source),
      buckets: [...set.buckets.entries()].map(([literal, bucket]) => {
        const follow = followFor(bucket);
        return {
          literal,
          trigger: bucket.trigger,
          patterns: bucket.patterns.map((pattern) => pattern.index),
          follow: follow && {
            source: follow.sticky.source,
            anyway: follow.anyway.map((pattern) => pattern.index),
            patterns: [...follow.patterns].map(([key, list]) => [key, list.map((p) => p.index)]),
          },
        };
      }),
      triggerLength: set.triggerLength,
      reach: set.reach,
      behind: set.behind,
    });
    const written = compilePatterns({});
    const fresh = compilePatterns({}, { fresh: true });
    expect(written.triggerLength).toBe(DEFAULT_TRIGGER_LENGTH);
    expect(outline(written)).toStrictEqual(outline(fresh));
  });

  it('reads back what it wrote, unbounded lengths and odd literals included', () => {
    const source = String.raw`(?:café|naïve)\s+[a-z]+|\tab`;
    const shape = {
      triggers: [
        { literal: "i can't", leadingBoundary: true, trailingBoundary: false },
        { literal: "i can't say", leadingBoundary: true, trailingBoundary: true },
        { literal: 'naïve|café', leadingBoundary: false, trailingBoundary: true },
        { literal: 'n', leadingBoundary: false, trailingBoundary: false },
      ],
      reach: Number.POSITIVE_INFINITY,
      behind: 3,
    };
    expect(decodeShape(source, encodeShape(source, shape))).toStrictEqual(shape);
    const plain = { triggers: undefined, reach: 40, behind: Number.POSITIVE_INFINITY };
    expect(decodeShape(source, encodeShape(source, plain))).toStrictEqual(plain);
  });

  it('is not used for a pattern whose source changed since it was written', () => {
    const entry = encodeShape(
      'I (?:cannot|can not) do that',
      analysePattern('I cannot do that', 'i'),
    );
    expect(decodeShape('I (?:cannot|can not) do that', entry)).toBeDefined();
    expect(decodeShape('I (?:cannot|can not) do this', entry)).toBeUndefined();
    expect(decodeShape('I cannot do that', undefined)).toBeUndefined();
  });
});
