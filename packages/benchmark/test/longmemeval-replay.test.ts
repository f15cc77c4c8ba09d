import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AbstentionDetector } from '@qualm/search-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  calibrate,
  calibrationMarkdown,
  computeQaMetrics,
  isExplicitAbstention,
  QUESTION_TYPES,
  type ReplayedAnswer,
  type ReplayResult,
  replayRuns,
  summarizeReplay,
  thresholdRule,
  writeCalibrationReport,
} from '../src/index.js';
import { questionSplit } from '../src/longmemeval/split.js';
import {
  assistant,
  makeQuestion,
  temporaryFolder,
  user,
  writeData,
} from './longmemeval-records.js';

const questions = [
  makeQuestion(
    'q1',
    [['answer_1', [user('I adopted a cat named Luna last spring.', true), assistant('Lovely!')]]],
    {
      question: 'What did I call my cat?',
    },
  ),
  makeQuestion(
    'q2_abs',
    [['answer_2', [user('I adopted a cat named Luna last spring.'), assistant('Lovely!')]]],
    {
      question: 'What did I name my tortoise?',
    },
  ),
  makeQuestion('q3', [['answer_3', [user('My sister gave me a scarf for my birthday.', true)]]], {
    question: 'What did Tom give me for my birthday?',
    question_type: 'multi-session',
  }),
  makeQuestion('q4', [['answer_4', [user('We drove to the coast in my new car.', true)]]], {
    question: 'Where did we drive in my new car?',
    question_type: 'temporal-reasoning',
  }),
  makeQuestion('q5_abs', [['answer_5', [user('My 25-gallon aquarium holds nine guppies.')]]], {
    question: 'How many guppies live in my 40-gallon aquarium?',
    question_type: 'temporal-reasoning',
  }),
];
const run = [
  {
    question_id: 'q1',
    hypothesis: 'Your cat is called Luna.',
    autoeval_label: { model: 'judge', label: true },
  },
  {
    question_id: 'q2_abs',
    hypothesis: 'Your tortoise is called Biscuit.',
    autoeval_label: { model: 'judge', label: false },
  },
  { question_id: 'q3', hypothesis: 'A scarf.', autoeval_label: { model: 'judge', label: true } },
  {
    question_id: 'q4',
    hypothesis: "I don't have enough information to answer.",
    autoeval_label: { model: 'judge', label: false },
  },
  {
    question_id: 'q5_abs',
    hypothesis: 'The information provided is not enough to answer.',
    autoeval_label: { model: 'judge', label: true },
  },
  { question_id: 'not_in_data', hypothesis: 'x', autoeval_label: { model: 'judge', label: true } },
];
const jsonl = (rows: object[]) => `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`;

let folder: { path: string; remove: () => Promise<void> };
beforeEach(async () => {
  folder = await temporaryFolder();
});
afterEach(async () => {
  await folder.remove();
});

describe('QA metrics', () => {
  it('computes per-type, task-averaged, overall and abstention accuracy as the official script does', () => {
    const metrics = computeQaMetrics([
      { questionId: 'a', questionType: 'single-session-user', correct: true, abstained: false },
      {
        questionId: 'b_abs',
        questionType: 'single-session-user',
        correct: false,
        abstained: false,
      },
      { questionId: 'c', questionType: 'multi-session', correct: true, abstained: false },
      { questionId: 'd', questionType: 'temporal-reasoning', correct: false, abstained: true },
      {
        questionId: 'e_abs',
        questionType: 'temporal-reasoning',
        correct: true,
        abstained: true,
        abstentionAdded: true,
      },
    ]);
    expect(metrics.overall).toBe(0.6);
    // three of the six official types have no question: the official script prints nan
    expect(metrics.taskAveraged).toBeNull();
    expect(metrics.abstention).toEqual({ accuracy: 0.5, correct: 1, n: 2 });
    expect(metrics.falseAbstentionRate).toBeCloseTo(1 / 3, 10);
    expect(metrics.addedFalseAbstentionRate).toBe(0);
    expect(Object.keys(metrics.byType)).toEqual([
      'single-session-user',
      'multi-session',
      'temporal-reasoning',
    ]);
    expect(QUESTION_TYPES[0]).toBe('single-session-user');
  });

  it('recognises a reader’s own “I don’t know” in its conclusion', () => {
    expect(
      isExplicitAbstention('Step 1 … Therefore, I don’t have enough information to answer.'),
    ).toBe(true);
    expect(isExplicitAbstention('The answer is 42.')).toBe(false);
    expect(isExplicitAbstention('I looked through the notes. I don’t know.')).toBe(true);
    expect(isExplicitAbstention("I don't know the answer!")).toBe(true);
    expect(isExplicitAbstention("I don't know why, but the shop closed at six.")).toBe(false);
  });
});

describe('replay', () => {
  async function files(name = 'data.json') {
    const dataPath = await writeData(join(folder.path, name), JSON.stringify(questions));
    const runPath = await writeData(join(folder.path, 'run.jsonl'), jsonl(run));
    return { dataPath, runPath };
  }

  it('scores the run as recorded, and counts ids the data lacks as skipped', async () => {
    const { dataPath, runPath } = await files();
    const replay = await replayRuns({ sets: [{ dataPath, runPaths: [runPath] }] });
    const [replayed] = replay.runs;
    expect(replayed?.skippedIds).toEqual(['not_in_data']);
    const summary = summarizeReplay(replayed!);
    expect(summary.skipped).toBe(1);
    expect(summary.baseline.overall).toBe(0.6);
    expect(summary.baseline.abstention).toEqual({ accuracy: 0.5, correct: 1, n: 2 });
    expect(summary.baseline.falseAbstentionRate).toBeCloseTo(1 / 3, 10);
    expect(summary.detector).toBeUndefined();
  });

  it('accounts abstentions counterfactually: right on _abs questions, wrong on any other', async () => {
    const { dataPath, runPath } = await files('data.json.gz');
    const replay = await replayRuns({
      sets: [{ dataPath, runPaths: [runPath] }],
      detector: new AbstentionDetector({ useNLI: false }),
    });
    const summary = summarizeReplay(replay.runs[0]!, thresholdRule(0.9));
    const { detector } = summary;
    expect(detector?.abstention).toEqual({ accuracy: 1, correct: 2, n: 2 });
    expect(detector?.overall).toBe(0.6);
    expect(detector?.byType['multi-session']?.accuracy).toBe(0);
    expect(detector?.addedFalseAbstentions).toBe(1);
    expect(detector?.falseAbstentionRate).toBeCloseTo(2 / 3, 10);
    // q4's answer admits it cannot answer and says nothing else: a non-answer, the reader's own
    expect(summary.layers).toEqual({
      low_coverage: { abstentions: 2, onAnswerable: 1 },
      hedging_detected: { abstentions: 1, onAnswerable: 1 },
    });
    expect(replay.timing.questions).toBe(5);
  });

  it('refuses a run without judge labels, naming the question', async () => {
    const dataPath = await writeData(join(folder.path, 'data.json'), JSON.stringify(questions));
    const runPath = await writeData(
      join(folder.path, 'run.jsonl'),
      jsonl([{ question_id: 'q1', hypothesis: 'Luna' }]),
    );
    await expect(replayRuns({ sets: [{ dataPath, runPaths: [runPath] }] })).rejects.toThrowError(
      /q1 has no autoeval_label/,
    );
  });
  it('refuses a run that gives a question twice, naming the id and both lines', async () => {
    const dataPath = await writeData(join(folder.path, 'data.json'), JSON.stringify(questions));
    const runPath = await writeData(
      join(folder.path, 'run.jsonl'),
      jsonl([run[0]!, run[2]!, { ...run[0]!, autoeval_label: { model: 'judge', label: false } }]),
    );
    await expect(replayRuns({ sets: [{ dataPath, runPaths: [runPath] }] })).rejects.toThrowError(
      `${runPath}:3: question_id "q1" was already given at ${runPath}:1`,
    );
  });

  it('reads a run given as one JSON array, as the harness accepts', async () => {
    const dataPath = await writeData(join(folder.path, 'data.json'), JSON.stringify(questions));
    const runPath = await writeData(join(folder.path, 'run.json'), JSON.stringify(run));
    const replay = await replayRuns({ sets: [{ dataPath, runPaths: [runPath] }] });
    expect(replay.runs[0]?.answers.map((answer) => answer.questionId)).toEqual([
      'q1',
      'q2_abs',
      'q3',
      'q4',
      'q5_abs',
    ]);
  });
});

describe('calibration', () => {
  // answerable questions split evenly; every fifth carries a weak signal, abstention questions a strong one
  function syntheticReplay(): ReplayResult {
    const answers: ReplayedAnswer[] = [];
    for (let index = 0; index < 400; index += 1) {
      const abstentionQuestion = index % 10 === 0;
      const questionId = abstentionQuestion ? `q${index}_abs` : `q${index}`;
      const confidence = abstentionQuestion ? 0.95 : index % 5 === 1 ? 0.7 : 0;
      answers.push({
        questionId,
        questionType: 'multi-session',
        recordedLabel: !abstentionQuestion,
        readerAbstained: false,
        detection: {
          signals: confidence ? [{ reason: 'low_coverage', confidence, detail: '' }] : [],
          topScore: abstentionQuestion ? 0.1 : 0.4 + (index % 7) / 20,
          scoreGap: 0.2,
        },
      });
    }
    return {
      runs: [{ runPath: 'run.jsonl', dataPath: 'data.json', answers, skippedIds: [] }],
      timing: {
        questions: 400,
        retrievalMs: { p50: 0, p90: 0, max: 0 },
        detectionMs: { p50: 0, p90: 0, max: 0 },
        totalMs: 0,
      },
    };
  }

  it('chooses on the tune half within the false-abstention bound and reports on the holdout half', () => {
    const report = calibrate(syntheticReplay(), { maxFalseAbstentionRate: 0.01 });
    const detector = report.choices.find((choice) => choice.method === 'coverage-detector');
    expect(detector?.threshold).toBeGreaterThan(0.7);
    expect(detector?.threshold).toBeLessThanOrEqual(0.95);
    expect(detector?.tune.addedFalseAbstentionRate).toBe(0);
    expect(detector?.holdout.abstention.accuracy).toBe(1);
    expect(report.answers.tune + report.answers.holdout).toBe(400);
    const tuneIds = syntheticReplay().runs[0]!.answers.filter(
      (answer) => questionSplit(answer.questionId) === 'tune',
    );
    expect(report.answers.tune).toBe(tuneIds.length);
    const score = report.choices.find((choice) => choice.method === 'score-threshold');
    expect(score?.holdout.abstention.accuracy).toBe(1);
    expect(
      report.curve.some((point) => point.split === 'holdout' && point.method === 'score-threshold'),
    ).toBe(true);
  });

  it('chooses on the tune half only: a threshold the holdout half would prefer is not taken', () => {
    // the halves disagree: on tune, answerable questions carry doubt 0.8, so the threshold must
    // stay above it; on holdout, abstention questions carry only 0.75, which a threshold chosen
    // there would reach
    const answers: ReplayedAnswer[] = [];
    for (let index = 0; index < 600; index += 1) {
      const abstentionQuestion = index % 6 === 0;
      const questionId = abstentionQuestion ? `h${index}_abs` : `h${index}`;
      const tune = questionSplit(questionId) === 'tune';
      const confidence = abstentionQuestion
        ? tune
          ? 0.95
          : 0.75
        : tune && index % 3 === 1
          ? 0.8
          : 0;
      answers.push({
        questionId,
        questionType: 'multi-session',
        recordedLabel: !abstentionQuestion,
        readerAbstained: false,
        detection: {
          signals: confidence ? [{ reason: 'low_coverage', confidence, detail: '' }] : [],
          topScore: 0.5,
          scoreGap: 0.2,
        },
      });
    }
    const replay: ReplayResult = {
      runs: [{ runPath: 'run.jsonl', dataPath: 'data.json', answers, skippedIds: [] }],
      timing: {
        questions: 600,
        retrievalMs: { p50: 0, p90: 0, max: 0 },
        detectionMs: { p50: 0, p90: 0, max: 0 },
        totalMs: 0,
      },
    };
    const report = calibrate(replay, { maxFalseAbstentionRate: 0.01 });
    const detector = report.choices.find((choice) => choice.method === 'coverage-detector');
    expect(detector?.threshold).toBeGreaterThan(0.8);
    expect(detector?.tune.abstention.accuracy).toBe(1);
    // the holdout half pays for the choice made without it
    expect(detector?.holdout.abstention.accuracy).toBe(0);
    const holdoutBest = report.curve.filter(
      (point) =>
        point.method === 'coverage-detector' &&
        point.split === 'holdout' &&
        point.threshold <= 0.75,
    );
    expect(holdoutBest.every((point) => point.abstentionAccuracy === 1)).toBe(true);
  });

  it('leaves the trade-off image out of the Markdown when asked, and only then', () => {
    const report = calibrate(syntheticReplay());
    expect(calibrationMarkdown(report)).toContain('![trade-off](tradeoff.svg)');
    const withoutImage = calibrationMarkdown(report, { image: false });
    expect(withoutImage).not.toContain('tradeoff.svg');
    expect(withoutImage).toContain('| coverage-detector |');
    expect(withoutImage).toContain('on the holdout half, per run');
  });

  it('writes the report as JSON, Markdown and an SVG chart', async () => {
    const files = await writeCalibrationReport(
      calibrate(syntheticReplay()),
      join(folder.path, 'out'),
    );
    expect(files.map((file) => file.split('/').at(-1))).toEqual([
      'calibration.json',
      'calibration.md',
      'tradeoff.svg',
    ]);
    expect(JSON.parse(await readFile(files[0]!, 'utf8')).choices.length).toBe(2);
    expect(await readFile(files[1]!, 'utf8')).toContain('| coverage-detector |');
    const svg = await readFile(files[2]!, 'utf8');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('abstention accuracy');
  });
});
