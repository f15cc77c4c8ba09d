import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  compareToExpected,
  JudgeError,
  JudgeErrorCode,
  templateFields,
  templateFromJsonSchema,
  validateTemplate,
} from '../src/index.js';

function templateError(run: () => unknown): JudgeError {
  try {
    run();
  } catch (error) {
    if (error instanceof JudgeError) return error;
    throw error;
  }
  throw new Error('expected a JudgeError');
}

describe('answer templates', () => {
  it('accepts a zod object schema', () => {
    expect(() => validateTemplate({ schema: z.object({ a: z.string() }) })).not.toThrow();
  });

  it.each([
    [{ schema: z.string() }, 'got a zod string schema'],
    [{ schema: z.array(z.string()) }, 'got a zod array schema'],
    [{}, 'got no schema'],
    [{ schema: z.object({}) }, 'has no fields'],
  ])('rejects a template that is not a usable object schema', (template, message) => {
    const error = templateError(() => validateTemplate(template));
    expect(error.code).toBe(JudgeErrorCode.INVALID_TEMPLATE);
    expect(error.message).toContain(message);
  });

  it('builds a template from a JSON Schema object, keeping descriptions and optional fields', () => {
    const template = templateFromJsonSchema({
      type: 'object',
      title: 'dosage',
      properties: {
        drug: { type: 'string', description: 'name of the drug' },
        milligrams: { type: 'number' },
        route: { enum: ['oral', 'iv'] },
        notes: { type: 'array', items: { type: 'string' } },
      },
      required: ['drug', 'milligrams'],
    });
    expect(template.name).toBe('dosage');
    expect(templateFields(template.schema)).toEqual([
      { name: 'drug', type: 'string', description: 'name of the drug', required: true },
      { name: 'milligrams', type: 'number', description: undefined, required: true },
      { name: 'route', type: 'one of "oral", "iv"', description: undefined, required: false },
      { name: 'notes', type: 'array of string', description: undefined, required: false },
    ]);
    expect(template.schema.safeParse({ drug: 'x', milligrams: 5 }).success).toBe(true);
    expect(template.schema.safeParse({ drug: 'x' }).success).toBe(false);
  });

  it('rejects a JSON Schema whose top level is not an object, naming the file', () => {
    const error = templateError(() =>
      templateFromJsonSchema(
        { type: 'array', items: { type: 'string' } },
        { source: 'schema.json' },
      ),
    );
    expect(error.code).toBe(JudgeErrorCode.INVALID_TEMPLATE);
    expect(error.message).toBe(
      'schema.json: the top level of a template schema must be {"type": "object", "properties": …}, got type "array"',
    );
    expect(templateError(() => templateFromJsonSchema([], { source: 's.json' })).message).toBe(
      's.json: a template must be a JSON Schema object, got an array',
    );
    expect(
      templateError(() => templateFromJsonSchema({ type: 'object', properties: {} })).message,
    ).toContain('needs at least one field');
  });

  it('rejects a JSON Schema zod cannot read, with the reason', () => {
    const error = templateError(() =>
      templateFromJsonSchema(
        { type: 'object', properties: { a: { type: 'wat' } } },
        { source: 'bad.json' },
      ),
    );
    expect(error.message).toMatch(/^bad\.json: unsupported JSON Schema: .*wat/);
  });

  it('compares strings without case or spacing, numbers by value, arrays in order', () => {
    expect(
      compareToExpected(
        { city: '  paris ', n: 2.0, list: ['a', 'B'], nested: { x: 1, y: 2 } },
        { city: 'Paris', n: 2, list: ['A', 'b'], nested: { x: 1 } },
      ),
    ).toEqual({ match: true, mismatches: [] });
    expect(compareToExpected({ list: ['b', 'a'] }, { list: ['a', 'b'] }).match).toBe(false);
    expect(compareToExpected({ n: '2' }, { n: 2 }).mismatches).toEqual(['n: expected 2, got "2"']);
    expect(compareToExpected({}, { ok: true }).mismatches).toEqual([
      'ok: expected true, got undefined',
    ]);
  });
});
