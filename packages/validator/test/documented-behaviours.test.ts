import { describe, expect, it } from 'vitest';
import { createValidator, validateResponse, validateResponses } from '../src/index.js';

const types = (text: string) => validateResponse(text).signals.map((signal) => signal.type);

describe('the documented behaviours', () => {
  it('1. a hedged answer is low confidence and escalates', () => {
    const result = validateResponse("I think this might be correct, but I'm not entirely sure.");
    expect(types("I think this might be correct, but I'm not entirely sure.")).toContain(
      'low_confidence',
    );
    expect(result.shouldEscalate).toBe(true);
  });

  it('2. not knowing how something works is confusion and scores below 0.8', () => {
    const result = validateResponse("I'm not sure how this works, but it might be related...");
    expect(result.signals.some((signal) => signal.type === 'confusion')).toBe(true);
    expect(result.score).toBeLessThan(0.8);
  });

  it('3. "I cannot help with that request." is a refusal of weight 0.75 and escalates', () => {
    const result = validateResponse('I cannot help with that request.');
    const refusal = result.signals.find((signal) => signal.type === 'refusal');
    expect(refusal?.weight).toBe(0.75);
    expect(result.shouldEscalate).toBe(true);
  });

  it('4. a best guess that probably works carries several low-confidence signals', () => {
    const result = validateResponse('My best guess is that this probably works.');
    const low = result.signals.filter((signal) => signal.type === 'low_confidence');
    expect(low.length).toBeGreaterThan(1);
    expect(result.score).toBeLessThan(0.75);
  });

  it('5. "OK" is an empty response and escalates', () => {
    const result = validateResponse('OK');
    expect(result.signals.map((signal) => signal.type)).toEqual(['empty_response']);
    expect(result.shouldEscalate).toBe(true);
  });

  it('6. a tool error is a tool failure of weight 0.9 and escalates', () => {
    const result = validateResponse('Tool error: API call failed due to timeout.');
    const failure = result.signals.find((signal) => signal.type === 'tool_failure');
    expect(failure?.weight).toBe(0.9);
    expect(result.shouldEscalate).toBe(true);
  });

  it('7. a list ending in "etc." is incomplete reasoning', () => {
    expect(types('The factors include: cost, time, resources, etc.')).toContain(
      'incomplete_reasoning',
    );
  });

  it('8. answering without real-time data is a hallucination risk of weight 0.85', () => {
    const result = validateResponse(
      "I don't have real-time data, but the stock price is probably around $500.",
    );
    const risk = result.signals.find((signal) => signal.type === 'hallucination_risk');
    expect(risk?.weight).toBe(0.85);
  });

  it('a knowledge cutoff before an answer is a weak hallucination risk that does not escalate alone', () => {
    for (const text of [
      'As of my last update in 2023, the tallest timber building was in Norway.',
      'My training data only goes up to early 2024, and the bridge was still closed then.',
    ]) {
      const result = validateResponse(text);
      const risk = result.signals.find((signal) => signal.type === 'hallucination_risk');
      expect(risk?.weight, text).toBe(0.3);
      expect(result.shouldEscalate, text).toBe(false);
    }
  });

  it('9. an error dump with a 500 status is a tool failure and escalates', () => {
    const result = validateResponse(
      'Error: API request timed out\nStatus: 500 Internal Server Error\nPlease try again later',
    );
    expect(result.signals.some((signal) => signal.type === 'tool_failure')).toBe(true);
    expect(result.shouldEscalate).toBe(true);
  });

  it('10. a heavily hedged answer carries three or more signals and escalates', () => {
    const result = validateResponse(
      "I'm not entirely sure, but I think the answer might be approximately 42. However, this could be wrong and I'm unable to verify with certainty.",
    );
    expect(result.signals.length).toBeGreaterThanOrEqual(3);
    expect(result.shouldEscalate).toBe(true);
  });

  it('11. a plain, supported answer has no signals and does not escalate', () => {
    const result = validateResponse(
      'Based on the analysis of historical data from 2020-2023, the trend shows consistent growth of 15% year-over-year. This is supported by quarterly earnings reports and market research.',
    );
    expect(result.signals).toEqual([]);
    expect(result.shouldEscalate).toBe(false);
    expect(result.score).toBe(1);
  });

  it('12. declining as outside the capabilities puts a refusal first and escalates', () => {
    const result = validateResponse(
      'I cannot process your request as it asks me to do something outside my capabilities.',
    );
    expect(result.signals[0]?.type).toBe('refusal');
    expect(result.shouldEscalate).toBe(true);
  });

  it('13. two weak hedges pass in normal mode and escalate in strict mode', () => {
    expect(validateResponse('I think this is probably right.').shouldEscalate).toBe(false);
    expect(
      validateResponse('I think this is probably right.', { strictMode: true }).shouldEscalate,
    ).toBe(true);
  });

  it('14. a batch escalates exactly the unsure and the refused answers', () => {
    const results = validateResponses([
      'This is a clear and complete response.',
      "I'm not sure about this one.",
      'I cannot help with that.',
    ]);
    expect(results.map((result) => result.shouldEscalate)).toEqual([false, true, true]);
  });
});

describe('the scoring model', () => {
  it('multiplies the trust each signal leaves: score = product of (1 - weight)', () => {
    const result = validateResponse('My best guess is that this probably works.');
    const expected = result.signals.reduce((trust, signal) => trust * (1 - signal.weight), 1);
    expect(result.score).toBeCloseTo(expected, 4);
  });

  it('escalates on more than three signals even when the score would pass', () => {
    const validator = createValidator({
      defaultPatterns: false,
      customPatterns: {
        low_confidence: [
          { pattern: /\balpha\b/, weight: 0.01 },
          { pattern: /\bbeta\b/, weight: 0.01 },
          { pattern: /\bgamma\b/, weight: 0.01 },
          { pattern: /\bdelta\b/, weight: 0.01 },
        ],
      },
    });
    const three = validator.validate('alpha beta gamma are three of the four letters here.');
    const four = validator.validate('alpha beta gamma delta are the four letters used here.');
    expect(three.shouldEscalate).toBe(false);
    expect(four.shouldEscalate).toBe(true);
    expect(four.score).toBeGreaterThan(0.95);
    expect(four.reason).toContain('more than 3');
  });

  it('gives assessment confidence 0.9, 0.85, 0.8, 0.75, 0.65 for 0, 1, 2, 3, 4+ signals', () => {
    const validator = createValidator({
      defaultPatterns: false,
      customPatterns: {
        low_confidence: [/\bone\b/, /\btwo\b/, /\bthree\b/, /\bfour\b/, /\bfive\b/],
      },
    });
    const texts = [
      'nothing to see in this sentence at all',
      'one thing to see in this sentence',
      'one and two things in this sentence',
      'one two three things in this sentence',
      'one two three four things in this sentence',
      'one two three four five things in this sentence',
    ];
    expect(texts.map((text) => validator.validate(text).assessmentConfidence)).toEqual([
      0.9, 0.85, 0.8, 0.75, 0.65, 0.65,
    ]);
  });

  it('escalates any refusal or tool failure whatever its weight', () => {
    const validator = createValidator({
      defaultPatterns: false,
      customPatterns: { tool_failure: [{ pattern: /\bflaky\b/, weight: 0.05 }] },
    });
    const result = validator.validate('The flaky backend answered, and here is what it said.');
    expect(result.score).toBeGreaterThan(0.9);
    expect(result.shouldEscalate).toBe(true);
    const faint = createValidator({
      defaultPatterns: false,
      customPatterns: { refusal: [{ pattern: /\brather not\b/, weight: 0.01 }] },
    }).validate("I'd rather not, though here is a summary of the first chapter.");
    expect(faint.score).toBeGreaterThan(0.98);
    expect(faint.shouldEscalate).toBe(true);
    expect(faint.reason).toContain('refusal');
  });

  it('escalates strictly below the threshold: a score of exactly 0.7 (0.75 strict) stands', () => {
    const withWeight = (weight: number, strictMode = false) =>
      createValidator({
        defaultPatterns: false,
        strictMode,
        customPatterns: { low_confidence: [{ pattern: /\broughly\b/, weight }] },
      }).validate('The hall seats roughly four hundred people on two floors.');
    expect(withWeight(0.3).score).toBe(0.7);
    expect(withWeight(0.3).shouldEscalate).toBe(false);
    expect(withWeight(0.3001).shouldEscalate).toBe(true);
    expect(withWeight(0.25, true).score).toBe(0.75);
    expect(withWeight(0.25, true).shouldEscalate).toBe(false);
    expect(withWeight(0.2501, true).shouldEscalate).toBe(true);
  });

  it('says why it escalates and what to do', () => {
    const result = validateResponse('I cannot help with that request.');
    expect(result.reason).toMatch(/refusal/);
    expect(result.feedback).toMatch(/declined/);
    const clean = validateResponse('Paris is the capital of France and its largest city.');
    expect(clean.reason).toBe('no signals found');
  });
});
