import { describe, expect, it } from 'vitest';
import { AiSdkError, qualmMiddleware } from '../src/index.js';

function optionsError(create: () => unknown): AiSdkError {
  try {
    create();
  } catch (error) {
    expect(AiSdkError.isInstance(error)).toBe(true);
    expect((error as AiSdkError).code).toBe('INVALID_OPTIONS');
    return error as AiSdkError;
  }
  throw new Error('expected qualmMiddleware to refuse the options');
}

describe('qualmMiddleware options', () => {
  it('refuses an unknown policy, naming the ones it knows', () => {
    expect(optionsError(() => qualmMiddleware({ policy: 'block' as never })).message).toBe(
      'qualmMiddleware: policy must be one of annotate, throw, retry, fallback, got "block"',
    );
  });

  it('needs a fallback with the fallback policy, and only there', () => {
    expect(optionsError(() => qualmMiddleware({ policy: 'fallback' })).message).toContain(
      'needs `fallback`',
    );
    expect(optionsError(() => qualmMiddleware({ fallback: 'Sorry.' })).message).toContain(
      'only with policy "fallback", not "annotate"',
    );
    expect(
      optionsError(() => qualmMiddleware({ policy: 'fallback', fallback: {} as never })).message,
    ).toContain('a text or a language model');
    expect(
      optionsError(() => qualmMiddleware({ policy: 'fallback', fallback: '  ' })).message,
    ).toContain('empty');
  });

  it('takes a retry instruction only with the retry policy', () => {
    expect(
      optionsError(() => qualmMiddleware({ policy: 'throw', retryInstruction: 'Again.' })).message,
    ).toContain('only with policy "retry"');
  });

  it('passes on the validator refusing a pattern that can backtrack catastrophically', () => {
    const error = optionsError(() =>
      qualmMiddleware({ validator: { customPatterns: { refusal: ['(a+)+$'] } } }),
    );
    expect(error.message).toMatch(/^qualmMiddleware: validator: /);
    expect((error.cause as { code?: string }).code).toBe('UNSAFE_PATTERN');
  });

  it('refuses an abstention option that is not a detector', () => {
    expect(
      optionsError(() => qualmMiddleware({ abstention: { check: () => true } as never })).message,
    ).toContain('detect()');
  });

  it('refuses an option it does not know, so a misspelt one never leaves a default in force', () => {
    expect(optionsError(() => qualmMiddleware({ polcy: 'throw' } as never)).message).toBe(
      'qualmMiddleware: unknown option "polcy" (it takes policy, validator, retryInstruction, fallback, abstention)',
    );
  });
});
