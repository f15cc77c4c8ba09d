import { describe, expect, it } from 'vitest';
import { createValidator, readLearnedModel, trainModel, ValidatorError } from '../src/index.js';
import { answers, hedges, refusals, refusalTrainingSet } from './learned-fixtures.js';

describe('trainModel', () => {
  it('gives the same model bytes when trained twice on the same rows', () => {
    const rows = refusalTrainingSet();
    const first = trainModel(rows, { epochs: 4, seed: 7 });
    const second = trainModel(rows, { epochs: 4, seed: 7 });
    expect(Buffer.from(second.bytes).equals(Buffer.from(first.bytes))).toBe(true);
    // and the seed matters: another seed shuffles the rows in another order
    const reseeded = trainModel(rows, { epochs: 4, seed: 8 });
    expect(Buffer.from(reseeded.bytes).equals(Buffer.from(first.bytes))).toBe(false);
  });

  it('separates refusals from answers it was not trained on', () => {
    const { model } = trainModel(refusalTrainingSet(), { testSplit: 0 });
    const validator = createValidator({
      learned: { model, threshold: 0.5 },
      defaultPatterns: false,
    });
    const unseenRefusals = refusals(12, 36);
    const unseenAnswers = answers(12, 36);
    for (const text of [...unseenRefusals, ...unseenAnswers]) {
      expect(refusalTrainingSet().some((row) => row.text === text)).toBe(false);
    }
    const flagged = (texts: string[]) =>
      texts.filter((text) =>
        validator.validate(text).signals.some((signal) => signal.source === 'learned'),
      ).length;
    expect(flagged(unseenRefusals)).toBe(12);
    expect(flagged(unseenAnswers)).toBe(0);
  });

  it('reports precision, recall and F1 per label on the groups it held out', () => {
    const result = trainModel(refusalTrainingSet(), { testSplit: 0.25 });
    expect(result.trainRows + result.testRows).toBe(48);
    expect(result.testRows).toBeGreaterThan(0);
    expect(result.report.map((entry) => entry.label)).toEqual(['none', 'refusal']);
    for (const entry of result.report) {
      expect(entry.f1).toBe(1);
      expect(entry.support).toBeGreaterThan(0);
    }
  });

  it('keeps the rows of one group on one side of the split', () => {
    const rows = refusalTrainingSet().map((row) => ({ ...row, group: row.label }));
    // with two groups, one label lands wholly in the test split and cannot be learned
    expect(() => trainModel(rows, { testSplit: 0.5 })).toThrow(
      /^label "(none|refusal)" has 0 rows to train on and 24 held out by the test split of 0\.5; each label needs at least 10 to train on: a test split of at most 0\.\d+ keeps enough, or give more groups$/,
    );
  });

  it('refuses a split that leaves a label too few rows to train on, naming a split that works', () => {
    // 24 rows a label pass the rule on the whole file; a 0.9 split leaves a few to train on
    const rows = refusalTrainingSet().map(({ text, label }) => ({ text, label }));
    let message = '';
    try {
      trainModel(rows, { testSplit: 0.9 });
    } catch (error) {
      expect((error as ValidatorError).code).toBe('INVALID_TRAINING_DATA');
      message = (error as Error).message;
    }
    const found = message.match(
      /^label "(none|refusal)" has (\d+) rows? to train on and (\d+) held out by the test split of 0\.9; each label needs at least 10 to train on: a test split of at most (0\.\d+) keeps enough, or give more rows$/,
    );
    expect(found, message).not.toBeNull();
    const [, , trained, held, suggested] = found as RegExpMatchArray;
    expect(Number(trained)).toBeLessThan(10);
    expect(Number(trained) + Number(held)).toBe(24);
    // the split it names trains: every label keeps at least 10 rows
    const result = trainModel(rows, { testSplit: Number(suggested), epochs: 1 });
    expect(result.model.training.rows.none).toBeGreaterThanOrEqual(10);
    expect(result.model.training.rows.refusal).toBeGreaterThanOrEqual(10);
    // and still holds rows out to measure the model on
    expect(result.testRows).toBeGreaterThan(0);
  });

  it('learns several signal types besides none', () => {
    const rows = [
      ...refusalTrainingSet(),
      ...hedges(24).map((text) => ({ text, label: 'low_confidence' })),
    ];
    const { model } = trainModel(rows, { testSplit: 0 });
    expect(model.labels).toEqual(['none', 'refusal', 'low_confidence']);
    const validator = createValidator({ learned: { model }, defaultPatterns: false });
    const [hedged] = hedges(1, 30);
    const signal = validator.validate(hedged as string).signals[0];
    expect(signal).toMatchObject({ type: 'low_confidence', weight: 0.4, source: 'learned' });
  });

  it('refuses rows it cannot learn from, naming the problem', () => {
    const expectError = (rows: unknown, message: RegExp) => {
      try {
        trainModel(rows as never);
      } catch (error) {
        expect(error).toBeInstanceOf(ValidatorError);
        expect((error as ValidatorError).code).toBe('INVALID_TRAINING_DATA');
        expect((error as Error).message).toMatch(message);
        return;
      }
      throw new Error('no error');
    };
    expectError([], /no training rows/);
    expectError(
      [...refusalTrainingSet(), { text: 'Fine.', label: 'rude' }],
      /row 49: unknown label "rude"; labels are none, confusion, refusal/,
    );
    expectError(
      refusalTrainingSet().filter((row) => row.label === 'refusal'),
      /no row is labelled "none"/,
    );
    expectError(
      [
        ...answers(20).map((text) => ({ text, label: 'none' })),
        ...refusals(3).map((text) => ({ text, label: 'refusal' })),
      ],
      /label "refusal" has 3 rows; each label needs at least 10/,
    );
    expectError([{ text: 42, label: 'none' }], /row 1: the text must be a string/);
  });

  it('checks its options', () => {
    expect(() => trainModel(refusalTrainingSet(), { epochs: 0 })).toThrow(
      /epochs must be a whole number from 1/,
    );
    expect(() => trainModel(refusalTrainingSet(), { testSplit: 1 })).toThrow(
      /testSplit must be a number from 0 to 0.9/,
    );
    expect(() => trainModel(refusalTrainingSet(), { features: { bits: 40 } })).toThrow(
      /features.bits/,
    );
  });

  it('writes a model that reads back the same', () => {
    const { model, bytes } = trainModel(refusalTrainingSet(), { testSplit: 0, threshold: 0.7 });
    const read = readLearnedModel(bytes);
    expect(read.labels).toEqual(model.labels);
    expect(read.threshold).toBe(0.7);
    expect(read.features).toEqual(model.features);
    expect(Array.from(read.weights)).toEqual(Array.from(model.weights));
    expect(read.training.rows).toEqual({ none: 24, refusal: 24 });
  });
});
