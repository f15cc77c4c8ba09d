import { describe, expect, it } from 'vitest';
import { gradeAnswer, isNotAbstention, notEscalated } from '../src/index.js';

const REFUSAL = "I'm sorry, but I can't help with resetting another person's account.";
const HEDGED = 'I think the warranty probably covers the hinge, but check the receipt date first.';
const RECYCLING = "The building's recycling is collected every Tuesday morning.";

describe('notEscalated', () => {
  it('passes an answer that does not escalate and fails one that does, listing the signals', () => {
    expect(notEscalated('Open Settings, then Heating, then Schedule, and set the times.')).toEqual({
      pass: true,
      score: 1,
      reason: 'passed: score 1.00; no signals',
    });
    expect(notEscalated(REFUSAL)).toEqual({
      pass: false,
      score: 0.25,
      reason: 'failed (the answer escalates): score 0.25; refusal "I can\'t help" at 15',
    });
  });

  it('fails only on the signal types in failOn, whatever else escalates', () => {
    expect(notEscalated(HEDGED, { config: { failOn: ['refusal'] } }).pass).toBe(true);
    expect(notEscalated(REFUSAL, { config: { failOn: ['tool_failure'] } }).pass).toBe(true);
    expect(notEscalated(HEDGED, { config: { failOn: ['low_confidence'] } })).toMatchObject({
      pass: false,
      reason: expect.stringMatching(/^failed \(low_confidence in failOn\)/),
    });
  });

  it('fails below the threshold, and reports both failures when both options are set', () => {
    const hedged = notEscalated(HEDGED, { config: { threshold: 0.9 } });
    expect(hedged.pass).toBe(false);
    expect(hedged.score).toBeLessThan(0.9);
    expect(notEscalated(HEDGED, { config: { threshold: 0.5 } }).pass).toBe(true);
    expect(
      notEscalated(REFUSAL, { config: { threshold: 0.5, failOn: ['refusal'] } }).reason,
    ).toMatch(/^failed \(refusal in failOn; score below 0\.5\)/);
  });

  it('passes validator options through: minimum length, custom patterns', () => {
    expect(notEscalated('Tuesday.').pass).toBe(false);
    expect(notEscalated('Tuesday.', { config: { minLength: 1 } }).pass).toBe(true);
    const custom = notEscalated('Ballpark: forty dollars for the whole repair, parts included.', {
      config: { customPatterns: { low_confidence: [{ pattern: 'ballpark', weight: 0.5 }] } },
    });
    expect(custom).toMatchObject({ pass: false, score: 0.5 });
  });

  it('reads an output promptfoo parsed as JSON as its JSON text', () => {
    expect(gradeAnswer({ answer: 'Tool error: the lookup service returned 503.' }).pass).toBe(
      false,
    );
  });

  it('refuses a config it does not understand, naming the field', () => {
    expect(() => notEscalated(HEDGED, { config: { failOn: ['refusals'] } })).toThrow(
      /^notEscalated: invalid config: failOn\.0: Invalid option/,
    );
    expect(() => notEscalated(HEDGED, { config: { treshold: 0.9 } })).toThrow(
      /^notEscalated: invalid config: config: Unrecognized key: "treshold"/,
    );
    expect(() =>
      notEscalated(HEDGED, { config: { customPatterns: { refusal: ['(a+)+$'] } } }),
    ).toThrow(/^notEscalated: invalid config: .*backtrack/);
  });
});

describe('isNotAbstention', () => {
  it('passes when the evidence in the context variable supports the answer', async () => {
    const result = await isNotAbstention('Recycling goes out on Tuesday mornings.', {
      vars: { question: 'Which day is the recycling collected?', context: RECYCLING },
    });
    expect(result).toMatchObject({ pass: true, score: 1 });
  });

  it('fails when the evidence never mentions what the question names, saying so', async () => {
    const result = await isNotAbstention('Every Friday afternoon.', {
      vars: { query: 'When is the compost collected at Greenfield Court?', evidence: [RECYCLING] },
    });
    expect(result.pass).toBe(false);
    expect(result.reason).toMatch(/^abstain: the evidence never mentions .*"greenfield"/);
    expect(result.score).toBeLessThan(0.1);
  });

  it('takes the question from the prompt, and the variables from config', async () => {
    const result = await isNotAbstention('Every Friday afternoon.', {
      prompt: 'When is the compost collected at Greenfield Court?',
      vars: { notes: RECYCLING },
      config: { evidenceVar: 'notes', abstentionThreshold: 0.99 },
    });
    // a missing name is 0.95 sure, under the raised threshold
    expect(result.pass).toBe(true);
    expect(result.reason).toMatch(/^answer: the evidence never mentions/);
  });

  it('says where it looked when there is no evidence', async () => {
    await expect(isNotAbstention('Friday.', { vars: { question: 'When?' } })).rejects.toThrow(
      'isNotAbstention: no evidence: set the test variable "context" or "evidence", or config.evidence',
    );
  });
});
