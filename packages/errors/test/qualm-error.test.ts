import { describe, expect, it } from 'vitest';
import { ErrorKind, isTransient, looksBinary, printable, QualmError } from '../src/index.js';

const marker = 'qualm.error.example';
const markerSymbol = Symbol.for(marker);

class ExampleError extends QualmError {
  readonly [markerSymbol] = true;
  override readonly name = 'ExampleError';

  static override isInstance(value: unknown): value is ExampleError {
    return QualmError.hasMarker(value, marker);
  }
}

describe('QualmError', () => {
  it('is recognised by its marker, as a second installed copy of a package would see it', () => {
    const error = new ExampleError({ code: 'BROKEN', kind: ErrorKind.SETUP, message: 'no key' });
    // a plain object with the same marker stands for an error built by another copy of the class
    const fromAnotherCopy = Object.assign(new Error('no key'), {
      [Symbol.for('qualm.error')]: true,
      code: 'BROKEN',
      kind: 'setup',
    });
    expect(QualmError.isInstance(error)).toBe(true);
    expect(QualmError.isInstance(fromAnotherCopy)).toBe(true);
    expect(ExampleError.isInstance(error)).toBe(true);
    expect(ExampleError.isInstance(fromAnotherCopy)).toBe(false);
    expect(QualmError.isInstance(new Error('plain'))).toBe(false);
    expect(QualmError.isInstance(null)).toBe(false);
    expect(QualmError.isInstance('QualmError')).toBe(false);
  });

  it('keeps its code, kind and cause, and names its subclass', () => {
    const cause = new Error('socket hang up');
    const error = new ExampleError({
      code: 'ENDPOINT_UNAVAILABLE',
      kind: ErrorKind.UNAVAILABLE,
      message: 'cannot reach the endpoint',
      cause,
    });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ExampleError');
    expect(error.code).toBe('ENDPOINT_UNAVAILABLE');
    expect(error.kind).toBe('unavailable');
    expect(error.cause).toBe(cause);
    expect(isTransient(error)).toBe(true);
    expect(isTransient(new ExampleError({ code: 'X', kind: 'failed', message: 'x' }))).toBe(false);
    expect(isTransient(new Error('x'))).toBe(false);
  });

  it('escapes control characters in its message so that it prints as one line', () => {
    const error = new QualmError({
      code: 'INVALID_INPUT',
      kind: ErrorKind.INVALID_INPUT,
      message: 'input.jsonl:3 is not valid JSON ("\u0000\u001b[31m\nx")',
    });
    expect(error.message).toBe('input.jsonl:3 is not valid JSON ("\\u0000\\u001b[31m\\nx")');
  });
});

describe('printable', () => {
  it('leaves ordinary text, accents and emoji alone and cuts long text', () => {
    expect(printable('Zürich — 5 °C ☀️')).toBe('Zürich — 5 °C ☀️');
    expect(printable('abcdefghij', 5)).toBe('abcd…');
    expect(printable('a\tb\r\n\u2028')).toBe('a\\tb\\r\\n\\u2028');
  });
});

describe('looksBinary', () => {
  it('tells an executable or an image from text', () => {
    expect(looksBinary(Buffer.from('\u007fELF\u0002\u0001\u0001\u0000\u0000'))).toBe(true);
    expect(looksBinary(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]))).toBe(
      true,
    );
    expect(looksBinary(Buffer.from('{"id": 1, "response": "Fine,\\n thanks"}\r\n\tok\f'))).toBe(
      false,
    );
    expect(looksBinary(Buffer.from('Grüße aus Köln — ½ Liter'))).toBe(false);
    expect(looksBinary(Buffer.alloc(0))).toBe(false);
  });
});
