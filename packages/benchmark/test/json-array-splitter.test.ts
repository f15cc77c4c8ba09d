import { describe, expect, it } from 'vitest';
import { JsonArraySplitter, JsonArraySyntaxError } from '../src/index.js';

function split(text: string, chunkSize: number): unknown[] {
  const bytes = Buffer.from(text);
  const splitter = new JsonArraySplitter();
  const elements: unknown[] = [];
  for (let start = 0; start < bytes.length; start += chunkSize) {
    for (const element of splitter.push(bytes.subarray(start, start + chunkSize))) {
      elements.push(JSON.parse(element.toString('utf8')));
    }
  }
  splitter.end();
  return elements;
}

const tricky = [
  { text: 'a quote " inside', nested: [1, [2, { deep: ']}' }]] },
  { text: 'backslashes \\ and \\\\" and a trailing one \\', emoji: 'café ☕ 🎉' },
  'a bare string with \\"escapes\\" and ] brackets',
  42.5e-1,
  true,
  null,
  [],
  {},
];

describe('the JSON array splitter', () => {
  it('returns each top-level element whatever the chunk size', () => {
    const text = ` \n[ ${tricky.map((value) => JSON.stringify(value, null, 1)).join(' ,\n ')} ]\n `;
    for (const chunkSize of [1, 2, 3, 5, 7, 64, 1 << 20]) {
      expect(split(text, chunkSize)).toEqual(tricky);
    }
  });

  it('skips a UTF-8 byte order mark', () => {
    expect(split('\ufeff[{"a":1}]', 1)).toEqual([{ a: 1 }]);
  });

  it('accepts an empty array', () => {
    expect(split('[]', 1)).toEqual([]);
  });

  it('counts the elements it returned', () => {
    const splitter = new JsonArraySplitter();
    splitter.push(Buffer.from('[1, 2, {"a": "b"}'));
    expect(splitter.elementCount).toBe(3);
  });

  it.each([
    ['{"a": 1}', /not a JSON array/],
    ['', /empty/],
    ['[{"a": 1}, {"b": 2}', /ends after record 1 without closing/],
    ['[{"a": 1}, {"b": "unfinished', /ends inside record 1/],
    ['[{"a": 1},]', /leaves record 1 empty/],
    ['[{"a": 1} {"b": 2}]', /missing "," between records 0 and 1/],
    ['[, {"a": 1}]', /unexpected ","/],
    ['[{"a": 1}] extra', /after the end of the JSON array/],
  ])('rejects %j', (text, message) => {
    expect(() => split(text, 3)).toThrowError(JsonArraySyntaxError);
    expect(() => split(text, 3)).toThrowError(message);
  });
});
