import { describe, expect, it } from 'vitest';
import {
  checkGrounding,
  type NliModel,
  type NliPair,
  type NliScores,
  SearchCoreError,
} from '../src/index.js';

const words = (text: string) => text.match(/\S+/g) ?? [];
const normalise = (text: string) =>
  text
    .toLowerCase()
    .replace(/[.!?]+$/, '')
    .trim();

/**
 * A stand-in NLI model whose verdicts are set by the test: a premise entails a hypothesis it
 * contains, contradicts one it contains negated ("is" → "is not"), and is neutral to anything else. It counts one
 * token per word and records every call, so windowing and batching can be checked.
 */
class ScriptedNliModel implements NliModel {
  readonly pairSpecialTokens = 3;
  readonly calls: NliPair[][] = [];

  constructor(
    readonly maxTokens: number,
    private readonly verdicts: {
      entailed?: NliScores;
      contradicted?: NliScores;
      unrelated?: NliScores;
    } = {},
  ) {}

  countTokens(text: string): number {
    return words(text).length;
  }

  async classify(pairs: readonly NliPair[]): Promise<NliScores[]> {
    this.calls.push([...pairs]);
    return pairs.map((pair) => {
      const length = this.countTokens(pair.premise) + this.countTokens(pair.hypothesis) + 3;
      if (length > this.maxTokens) throw new Error(`pair of ${length} tokens would be truncated`);
      const premise = pair.premise.toLowerCase();
      const claim = normalise(pair.hypothesis);
      const negated = claim.replace(/\b(is|has)\b/, '$1 not');
      if (negated !== claim && premise.includes(negated)) {
        return (
          this.verdicts.contradicted ?? { entailment: 0.05, neutral: 0.15, contradiction: 0.8 }
        );
      }
      if (premise.includes(claim)) {
        return this.verdicts.entailed ?? { entailment: 0.9, neutral: 0.08, contradiction: 0.02 };
      }
      return this.verdicts.unrelated ?? { entailment: 0.05, neutral: 0.85, contradiction: 0.1 };
    });
  }
}

function filler(count: number, prefix = 'filler'): string {
  return Array.from({ length: count }, (_, index) => `${prefix}${index}`).join(' ');
}

describe('checkGrounding', () => {
  it('grounds an answer whose every sentence the evidence entails', async () => {
    const model = new ScriptedNliModel(64);
    const result = await checkGrounding(model, {
      evidence: 'Anna moved to Paris in 2019. Anna works as a teacher.',
      answer: 'Anna moved to Paris in 2019. Anna works as a teacher.',
    });
    expect(result.grounded).toBe(true);
    expect(result.label).toBe('entailment');
    expect(result.sentences.map((sentence) => sentence.grounded)).toEqual([true, true]);
    expect(result.windows).toBe(1);
  });

  it('does not ground an answer with one contradicted sentence, and names it', async () => {
    const model = new ScriptedNliModel(64);
    const result = await checkGrounding(model, {
      evidence: 'Anna moved to Paris. She is not a doctor.',
      answer: 'Anna moved to Paris. She is a doctor.',
    });
    expect(result.grounded).toBe(false);
    expect(result.label).toBe('contradiction');
    expect(result.scores.contradiction).toBeCloseTo(0.8);
    expect(result.sentences.map((sentence) => [sentence.text, sentence.grounded])).toEqual([
      ['Anna moved to Paris.', true],
      ['She is a doctor.', false],
    ]);
  });

  it('does not ground a sentence the evidence is neutral to above the threshold', async () => {
    const model = new ScriptedNliModel(64);
    const input = { evidence: 'Anna moved to Paris.', answer: 'Anna owns a red car.' };
    const strict = await checkGrounding(model, input, { nliThreshold: 0.7 });
    expect(strict.grounded).toBe(false);
    expect(strict.label).toBe('neutral');
    // neutral 0.85 is not above 0.85: the rule is "above", not "at or above"
    const lenient = await checkGrounding(model, input, { nliThreshold: 0.85 });
    expect(lenient.grounded).toBe(true);
  });

  it('uses 0.7 as the default neutral threshold', async () => {
    const input = { evidence: 'Anna moved to Paris.', answer: 'Anna owns a red car.' };
    const justBelow = new ScriptedNliModel(64, {
      unrelated: { entailment: 0.2, neutral: 0.7, contradiction: 0.1 },
    });
    expect((await checkGrounding(justBelow, input)).grounded).toBe(true);
    const justAbove = new ScriptedNliModel(64, {
      unrelated: { entailment: 0.2, neutral: 0.71, contradiction: 0.09 },
    });
    expect((await checkGrounding(justAbove, input)).grounded).toBe(false);
  });

  it('finds support in the last window of long evidence and reports that window', async () => {
    const model = new ScriptedNliModel(40);
    const evidence = `${filler(200)} Anna moved to Paris in 2019. ${filler(30, 'tail')}`;
    const result = await checkGrounding(model, {
      evidence,
      answer: 'Anna moved to Paris in 2019.',
    });
    expect(result.windows).toBeGreaterThan(5);
    expect(result.grounded).toBe(true);
    const [sentence] = result.sentences;
    expect(sentence?.window.text).toContain('Anna moved to Paris in 2019');
    expect(evidence.slice(sentence!.window.start, sentence!.window.end)).toBe(
      sentence?.window.text,
    );
  });

  it('judges every sentence against every window in one batched call that never overflows', async () => {
    const model = new ScriptedNliModel(32);
    const result = await checkGrounding(model, {
      evidence: filler(150),
      answer: 'Anna moved to Paris. She works as a teacher. She has a dog.',
    });
    expect(model.calls).toHaveLength(1);
    expect(result.pairs).toBe(3 * result.windows);
    expect(model.calls[0]).toHaveLength(result.pairs);
    // every evidence word reaches the model in some premise: nothing is truncated
    const premises = new Set(model.calls[0]!.flatMap((pair) => words(pair.premise)));
    for (const word of words(filler(150))) expect(premises).toContain(word);
  });

  it('lets the best-supported window decide when windows disagree', async () => {
    const model = new ScriptedNliModel(40);
    const evidence = `Anna is not a doctor. ${filler(60)} Anna is a doctor now.`;
    const result = await checkGrounding(model, { evidence, answer: 'Anna is a doctor.' });
    expect(result.windows).toBeGreaterThan(1);
    expect(result.grounded).toBe(true);
    expect(result.sentences[0]?.window.text).toContain('Anna is a doctor now');
  });

  it('splits a sentence longer than half the window into parts judged on their own', async () => {
    const model = new ScriptedNliModel(24);
    const answer = `Anna moved to Paris and ${filler(30, 'then')} she stayed.`;
    const result = await checkGrounding(model, { evidence: 'Anna moved to Paris.', answer });
    expect(result.sentences.length).toBeGreaterThan(2);
    for (const part of result.sentences) {
      expect(model.countTokens(part.text)).toBeLessThanOrEqual(Math.floor((24 - 3) / 2));
      expect(answer.slice(part.start, part.end)).toBe(part.text);
    }
    expect(result.grounded).toBe(false);
  });

  it('reports which of several evidence texts supports each sentence', async () => {
    const model = new ScriptedNliModel(64);
    const result = await checkGrounding(model, {
      evidence: ['Bob has a cat.', '', 'Anna moved to Paris.'],
      answer: 'Anna moved to Paris. Bob has a cat.',
    });
    expect(result.grounded).toBe(true);
    expect(result.windows).toBe(2);
    expect(result.sentences.map((sentence) => sentence.window.evidenceIndex)).toEqual([2, 0]);
  });

  it('reports the weakest sentence when the answer is grounded', async () => {
    const model = new ScriptedNliModel(64, {
      unrelated: { entailment: 0.3, neutral: 0.6, contradiction: 0.1 },
    });
    const result = await checkGrounding(model, {
      evidence: 'Anna moved to Paris.',
      answer: 'Anna moved to Paris. Anna owns a boat.',
    });
    expect(result.grounded).toBe(true);
    expect(result.scores.entailment).toBeCloseTo(0.3);
    expect(result.label).toBe('neutral');
  });

  it('rejects an empty answer, empty evidence and a threshold outside 0..1', async () => {
    const model = new ScriptedNliModel(64);
    await expect(checkGrounding(model, { evidence: 'text', answer: '  ' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('answer is empty'),
    });
    await expect(
      checkGrounding(model, { evidence: [' ', ''], answer: 'Yes.' }),
    ).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('evidence is empty'),
    });
    const error = await checkGrounding(
      model,
      { evidence: 'text', answer: 'Yes.' },
      { nliThreshold: 1.5 },
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SearchCoreError);
    expect((error as SearchCoreError).code).toBe('INVALID_CONFIG');
    expect((error as SearchCoreError).message).toMatch(/nliThreshold: .*1/);
  });
});
