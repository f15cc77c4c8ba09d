import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createValidator,
  type LearnedModel,
  readLearnedModel,
  trainModel,
  ValidatorError,
} from '../src/index.js';
import { LearnedLayer, openingRegion } from '../src/learned/layer.js';
import { answers, refusals, refusalTrainingSet } from './learned-fixtures.js';

const trained = trainModel(refusalTrainingSet(), { testSplit: 0 });
const model: LearnedModel = trained.model;

/** The refusal probability the layer weighs for a text. */
function probability(text: string): number {
  const layer = new LearnedLayer({ model });
  return layer.probabilities(openingRegion(text, layer.reach).region)[1] as number;
}

function errorOf(run: () => unknown): ValidatorError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidatorError);
    return error as ValidatorError;
  }
  throw new Error('no error');
}

describe('the learned layer', () => {
  it('adds a refusal the patterns miss, with its probability and the sentence that weighed most', () => {
    // a refusal no built-in pattern reads: it declines by calling the request a road it keeps away from
    const text =
      'Here is the thing. Taking the neighbour’s apples without asking is a road I keep well away from. Ask them first; they will probably share.';
    expect(createValidator().validate(text).shouldEscalate).toBe(false);
    const own = trainModel(
      [
        ...refusalTrainingSet(),
        ...refusals(12, 60).map((refusal) => ({
          text: refusal.replace(/^[^.;:]*[.;:]/, 'That is a road I keep well away from.'),
          label: 'refusal',
        })),
      ],
      { testSplit: 0 },
    ).model;
    const result = createValidator({ learned: { model: own, threshold: 0.5 } }).validate(text);
    expect(result.shouldEscalate).toBe(true);
    const [signal] = result.signals;
    expect(signal).toMatchObject({ type: 'refusal', source: 'learned', weight: 0.75 });
    expect(signal?.probability).toBeGreaterThanOrEqual(0.5);
    expect(signal?.evidence).toBe(
      'Taking the neighbour’s apples without asking is a road I keep well away from.',
    );
    expect(signal?.position).toBe(text.indexOf('Taking'));
    expect(result.reason).toMatch(/^escalate: refusal \("Taking the neighbour/);
  });

  it('lets a pattern hit stand: no learned signal of a type the patterns found', () => {
    const text = refusals(1)[0] as string;
    expect(probability(text)).toBeGreaterThan(0.9);
    const patternsOnly = createValidator().validate(text);
    const combined = createValidator({ learned: { model } }).validate(text);
    expect(patternsOnly.signals.some((signal) => signal.type === 'refusal')).toBe(true);
    expect(combined).toEqual(patternsOnly);
    expect(combined.signals.every((signal) => signal.source === 'pattern')).toBe(true);
  });

  it('adds a learned-only signal exactly when its probability reaches the threshold', () => {
    const text = answers(1, 50)[0] as string;
    const p = probability(text);
    const at = (threshold: number) =>
      createValidator({ learned: { model, threshold }, defaultPatterns: false })
        .validate(text)
        .signals.filter((signal) => signal.source === 'learned').length;
    expect(at(p)).toBe(1);
    expect(at(Math.min(1, p + 1e-9))).toBe(0);
    // the model's own threshold applies when none is given
    const own = { ...model, threshold: p };
    expect(
      createValidator({ learned: { model: own }, defaultPatterns: false }).validate(text).signals,
    ).toHaveLength(1);
  });

  it('reads an answer in voices voice by voice: a refusal only when every voice refuses', () => {
    const refusing = refusals(2, 5);
    const complying = answers(1, 7)[0] as string;
    const bothRefuse = `[Tutor]: ${refusing[0]}\n\n[Buddy]: ${refusing[1]}`;
    const oneComplies = `[Tutor]: ${refusing[0]}\n\n[Buddy]: ${complying}`;
    const validator = createValidator({
      learned: { model, threshold: 0.5 },
      defaultPatterns: false,
    });
    const learned = (text: string) =>
      validator.validate(text).signals.filter((signal) => signal.source === 'learned');
    // the opening alone reads as a refusal in both
    expect(probability(refusing[0] as string)).toBeGreaterThan(0.5);
    expect(learned(bothRefuse)).toHaveLength(1);
    expect(learned(oneComplies)).toHaveLength(0);
  });

  it('gives the same result on a stream as on the whole text, however it is cut', () => {
    // the second validator finds a learned signal in every text, so its evidence and position
    // are compared too
    const validators = [
      createValidator({ learned: { model, threshold: 0.5 } }),
      createValidator({ learned: { model, threshold: 1e-6 }, defaultPatterns: false }),
    ];
    const texts = [
      `  \n ${answers(1, 3)[0]} 🙂 ${'More detail follows. '.repeat(400)}`,
      `[Tutor]: ${refusals(1, 9)[0]}\n\n[Buddy]: ${answers(1, 2)[0]}`,
      `\n\n${refusals(1, 4)[0]}`,
      `${'é'.repeat(299)}😀 ${answers(1, 8)[0]}`,
      '   ',
    ];
    for (const [validator, text] of validators.flatMap((validator) =>
      texts.map((text) => [validator, text] as const),
    )) {
      const whole = validator.validate(text);
      if (validator === validators[1] && text.trim() !== '') {
        expect(whole.signals.some((signal) => signal.source === 'learned')).toBe(true);
      }
      for (const size of [1, 3, 7, 64, 4096]) {
        const bytes = new TextEncoder().encode(text);
        const byBytes = validator.stream();
        for (let start = 0; start < bytes.length; start += size) {
          byBytes.push(bytes.subarray(start, start + size));
        }
        expect(byBytes.end()).toEqual(whole);
        const byText = validator.stream();
        for (let start = 0; start < text.length; start += size) {
          byText.push(text.slice(start, start + size));
        }
        expect(byText.end()).toEqual(whole);
      }
    }
  });

  it('reads the model once, at the first response, and only when asked to', () => {
    const missing = join(mkdtempSync(join(tmpdir(), 'qualm-model-')), 'absent.qlm');
    // creating the validator reads nothing
    const validator = createValidator({ learned: { model: missing } });
    const error = errorOf(() => validator.validate('A fine answer about tulips.'));
    expect(error.code).toBe('MODEL_NOT_FOUND');
    expect(error.message).toBe(`model file not found: ${missing}`);
    // without the option no model is read and no learned signal appears
    const plain = createValidator({ learned: false }).validate(refusals(1)[0] as string);
    expect(plain.signals.every((signal) => signal.source === 'pattern')).toBe(true);
  });

  it('takes a model as bytes, an ArrayBuffer, a path, or a model already read', () => {
    const directory = mkdtempSync(join(tmpdir(), 'qualm-model-'));
    const path = join(directory, 'own.qlm');
    writeFileSync(path, trained.bytes);
    const text = answers(1, 50)[0] as string;
    const threshold = probability(text);
    const signalsWith = (input: unknown) =>
      createValidator({
        learned: { model: input as Uint8Array, threshold },
        defaultPatterns: false,
      }).validate(text).signals;
    const expected = signalsWith(model);
    expect(expected).toHaveLength(1);
    expect(signalsWith(trained.bytes)).toEqual(expected);
    expect(signalsWith(trained.bytes.slice().buffer)).toEqual(expected);
    expect(signalsWith(path)).toEqual(expected);
    expect(signalsWith(readLearnedModel(path))).toEqual(expected);
  });

  it('ships a refusal model that `learned: true` uses', () => {
    const shipped = readLearnedModel();
    expect(shipped.labels).toEqual(['none', 'refusal']);
    expect(shipped.threshold).toBeGreaterThanOrEqual(0.5);
    const onDisk = readFileSync(new URL('../model/refusal.qlm', import.meta.url));
    expect(onDisk.length).toBeLessThanOrEqual(2 * 1024 * 1024);
    const validator = createValidator({ learned: true });
    const result = validator.validate(answers(1)[0] as string);
    expect(result.shouldEscalate).toBe(false);
    expect(validator.options.learned).toEqual({});
  });

  it('checks the learned option', () => {
    expect(errorOf(() => createValidator({ learned: 'yes' as never })).message).toBe(
      'learned must be true, false or { model, threshold }, got string',
    );
    expect(errorOf(() => createValidator({ learned: { threshold: 0 } })).message).toMatch(
      /learned.threshold must be a probability above 0/,
    );
    expect(errorOf(() => createValidator({ learned: { path: 'x' } as never })).message).toBe(
      'unknown learned option "path"; expected model or threshold',
    );
    const validator = createValidator({ learned: { model: 42 as never } });
    expect(errorOf(() => validator.validate('An answer.')).code).toBe('INVALID_OPTIONS');
  });
});

describe('a model file', () => {
  const directory = mkdtempSync(join(tmpdir(), 'qualm-model-'));
  const write = (name: string, bytes: Uint8Array) => {
    const path = join(directory, name);
    writeFileSync(path, bytes);
    return path;
  };

  it('that was altered is refused with a clear error', () => {
    const altered = trained.bytes.slice();
    altered[altered.length - 100] = (altered[altered.length - 100] as number) ^ 0x10;
    const path = write('altered.qlm', altered);
    const error = errorOf(() => readLearnedModel(path));
    expect(error.code).toBe('INVALID_MODEL');
    expect(error.message).toBe(
      `${path}: the model file is corrupt (checksum mismatch): truncated or altered`,
    );
  });

  it('that was truncated, or is not a model at all, is refused with a clear error', () => {
    const truncated = write('truncated.qlm', trained.bytes.subarray(0, 5000));
    expect(errorOf(() => readLearnedModel(truncated)).message).toMatch(
      /corrupt \(checksum mismatch\)/,
    );
    const text = write('notes.qlm', new TextEncoder().encode('just some notes, not a model'));
    expect(errorOf(() => readLearnedModel(text)).message).toBe(
      `${text}: not a qualm learned model (it does not start with "qlm1")`,
    );
    expect(errorOf(() => readLearnedModel(new Uint8Array(0))).message).toBe(
      'model bytes: the model file is empty',
    );
    expect(errorOf(() => readLearnedModel(trained.bytes.subarray(0, 8))).message).toBe(
      'model bytes: the model is truncated (8 bytes, no header)',
    );
  });

  it('given as an empty path is refused as empty, not as a missing file', () => {
    for (const path of ['', '  ']) {
      const error = errorOf(() => readLearnedModel(path));
      expect(error.code).toBe('INVALID_OPTIONS');
      expect(error.message).toBe(
        'the model path is empty: give the path of a model file qualm train wrote',
      );
    }
  });

  it('from a newer format is refused, naming both formats', () => {
    const newer = trained.bytes.slice();
    new DataView(newer.buffer).setUint32(4, 2, true);
    expect(errorOf(() => readLearnedModel(newer)).message).toBe(
      'model bytes: model format 2; this version of @qualm/validator reads format 1',
    );
  });

  it('is refused at the first response of a validator, with the same error', () => {
    const altered = trained.bytes.slice();
    altered[20] = (altered[20] as number) ^ 1;
    const validator = createValidator({ learned: { model: altered } });
    expect(errorOf(() => validator.validate('An answer.')).code).toBe('INVALID_MODEL');
  });
});
