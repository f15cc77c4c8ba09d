import { createValidator } from '@qualm/validator';
import { describe, expect, it } from 'vitest';
import { countLineBreaks, validateChunk, validationRecord } from '../src/index.js';

const validator = createValidator();
const line = (id: number | string, response: unknown) => JSON.stringify({ id, response });

describe('validateChunk', () => {
  it('reads lines as Node readline does: \\n, \\r\\n and a lone \\r end a line; blanks count', () => {
    const text = `${line(1, 'The kettle needs descaling monthly.')}\r\n\n${line(2, "I can't help with that.")}\r${line(3, 'Descale with citric acid, then rinse twice.')}`;
    const outcome = validateChunk(validator, text, { idField: 'id', output: 'rows', last: true });
    expect(outcome.rows.map((row) => [row.line, row.id])).toEqual([
      [1, 1],
      [3, 2],
      [4, 3],
    ]);
    expect(outcome.lines).toBe(4);
    expect(Array.from(outcome.flags, (flags) => flags & 1)).toEqual([0, 1, 0]);
  });

  it('writes the jsonl record of each response, in order', () => {
    const text = `${line('a', 'Tool error: the lookup failed.')}\n${line('b', 'The lookup returned three rows.')}\n`;
    const outcome = validateChunk(validator, text, { idField: 'id', last: false });
    const records = Buffer.from(outcome.jsonl).toString().trimEnd().split('\n');
    expect(records).toEqual([
      JSON.stringify(
        validationRecord('a', validator.validate('Tool error: the lookup failed.'), 1),
      ),
      JSON.stringify(
        validationRecord('b', validator.validate('The lookup returned three rows.'), 2),
      ),
    ]);
    expect(Array.from(outcome.scores)).toEqual([
      validator.validate('Tool error: the lookup failed.').score,
      1,
    ]);
  });

  it('numbers its lines after the lines of the input before it', () => {
    const text = `${line('a', 'The gasket is the part to replace.')}\n\n{"id": "b"}\n`;
    const outcome = validateChunk(validator, text, { idField: 'id', last: false, linesBefore: 40 });
    expect(JSON.parse(Buffer.from(outcome.jsonl).toString())).toMatchObject({ id: 'a', line: 41 });
    expect(outcome.failure?.line).toBe(43);
    expect(countLineBreaks(Buffer.from(text))).toBe(3);
    expect(countLineBreaks(Buffer.from('a\r\nb\rc\n\r'))).toBe(4);
  });

  it('leaves the last line without a break to the end of the input', () => {
    const text = `${line(1, 'One two three four five six.')}\n${line(2, 'Seven eight nine ten eleven.')}`;
    expect(validateChunk(validator, text, { last: false }).scores).toHaveLength(1);
    expect(validateChunk(validator, text, { last: true }).scores).toHaveLength(2);
  });

  it('stops at the first line that is not valid and says what is wrong with it', () => {
    const text = [
      line(1, 'Fine answer with enough words in it.'),
      '{"id": 2, "response": 42}',
      'not json',
      '',
    ].join('\n');
    const outcome = validateChunk(validator, text, { idField: 'id', last: true });
    expect(outcome.failure).toEqual({
      line: 2,
      problem: 'response: the field "response" must hold the response text as a string',
    });
    expect(Buffer.from(outcome.jsonl).toString().split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('words each kind of bad line, and counts them when told to skip', () => {
    const problems = ['[1, 2]', '{"id": true, "response": "x"}', '{"response": "unterminated}'].map(
      (bad) => validateChunk(validator, bad, { idField: 'id', last: true }).failure?.problem,
    );
    expect(problems[0]).toBe('is not a JSON object');
    expect(problems[1]).toBe('id: the field "id" must be a string or a number');
    expect(problems[2]).toMatch(/^is not valid JSON \(/);
    const skipping = validateChunk(
      validator,
      `[1]\n${line(1, 'A full answer about hinges.')}\nnope\n`,
      {
        idField: 'id',
        skipInvalid: true,
        last: false,
      },
    );
    expect(skipping).toMatchObject({ skipped: 2, lines: 3 });
    expect(skipping.scores).toHaveLength(1);
  });
});
