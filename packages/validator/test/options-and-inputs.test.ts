import { describe, expect, it } from 'vitest';
import {
  createValidator,
  ValidatorError,
  ValidatorErrorCode,
  validateResponse,
  validateResponses,
} from '../src/index.js';

describe('options', () => {
  it('treats a trimmed response shorter than minLength as empty', () => {
    expect(validateResponse('Paris.').signals.map((signal) => signal.type)).toEqual([
      'empty_response',
    ]);
    expect(validateResponse('Paris.', { minLength: 1 }).signals).toEqual([]);
    expect(validateResponse('   Paris, the capital city.   ', { minLength: 20 }).signals).toEqual(
      [],
    );
  });

  it('moves the opening with leadLength', () => {
    const text = `${'Background sentence here. '.repeat(10)}I cannot provide the rest.`;
    expect(validateResponse(text).shouldEscalate).toBe(true);
    expect(validateResponse(text, { leadLength: 100 }).shouldEscalate).toBe(false);
  });

  it('rejects bad options with a message naming the option', () => {
    const expectOptionError = (options: unknown, message: RegExp) => {
      try {
        createValidator(options as Parameters<typeof createValidator>[0]);
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(ValidatorError);
        expect((error as ValidatorError).code).toBe(ValidatorErrorCode.INVALID_OPTIONS);
        expect((error as Error).message).toMatch(message);
      }
    };
    expectOptionError({ minLength: -1 }, /minLength must be a number of characters >= 0, got -1/);
    expectOptionError({ minlength: 5 }, /unknown option "minlength"/);
    expectOptionError({ strictMode: 'yes' }, /strictMode must be true or false/);
    expectOptionError({ leadLength: Number.NaN }, /leadLength/);
  });
});

describe('inputs', () => {
  it('rejects a non-string response with a typed error', () => {
    for (const input of [42, null, undefined, { text: 'hi' }, ['hi']]) {
      try {
        validateResponse(input as unknown as string);
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(ValidatorError);
        expect((error as ValidatorError).name).toBe('ValidatorError');
        expect((error as ValidatorError).code).toBe(ValidatorErrorCode.INVALID_INPUT);
        expect((error as Error).message).toMatch(/must be the response text as a string, got/);
      }
    }
  });

  it('names the position of a non-string in a batch', () => {
    expect(() =>
      validateResponses(['fine answer here, complete.', 7 as unknown as string]),
    ).toThrow(/response 1 must be the response text as a string, got number/);
    expect(() => validateResponses('text' as unknown as string[])).toThrow(/must be an array/);
  });
});
