import { describe, expect, it } from 'vitest';
import { JudgeErrorCode, VerificationConfig } from '../src/index.js';

describe('verification config', () => {
  it('has both checks off and template_only mode by default', () => {
    const config = new VerificationConfig();
    expect(config.abstentionEnabled).toBe(false);
    expect(config.sufficiencyEnabled).toBe(false);
    expect(config.evaluationMode).toBe('template_only');
    expect(config.promptConfig).toEqual({});
  });

  it('turns checks on from the short override form', () => {
    const both = VerificationConfig.fromOverrides({ abstention: true, sufficiency: true });
    expect([both.abstentionEnabled, both.sufficiencyEnabled]).toEqual([true, true]);
    const one = VerificationConfig.fromOverrides({ sufficiency: true });
    expect([one.abstentionEnabled, one.sufficiencyEnabled]).toEqual([false, true]);
  });

  it('keeps what the overrides leave out from the base config', () => {
    const base = new VerificationConfig({
      abstentionEnabled: true,
      evaluationMode: 'template_and_rubric',
      promptConfig: { abstention: 'A' },
    });
    const next = VerificationConfig.fromOverrides(
      { sufficiency: true, promptConfig: { sufficiency: 'S' } },
      base,
    );
    expect(next.toJSON()).toEqual({
      abstentionEnabled: true,
      sufficiencyEnabled: true,
      evaluationMode: 'template_and_rubric',
      promptConfig: { abstention: 'A', sufficiency: 'S' },
    });
    expect(base.sufficiencyEnabled).toBe(false);
  });

  it('rejects an unknown mode or field with INVALID_CONFIG naming it', () => {
    expect(() => new VerificationConfig({ evaluationMode: 'both' as never })).toThrow(
      expect.objectContaining({
        code: JudgeErrorCode.INVALID_CONFIG,
        message: expect.stringContaining('evaluationMode'),
      }),
    );
    expect(() => new VerificationConfig({ abstention: true } as never)).toThrow(
      /Unrecognized key: "abstention"/,
    );
  });

  it('is immutable', () => {
    const config = new VerificationConfig();
    expect(() => {
      (config as { abstentionEnabled: boolean }).abstentionEnabled = true;
    }).toThrow(TypeError);
  });
});
