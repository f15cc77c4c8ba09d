import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_DETECTOR_CONFIG, retrievalScoreSignal } from '@qualm/search-core';
import { type ChartSpec, renderSvg, shareEncoding } from '../charts.js';
import { computeQaMetrics, type QaMetrics } from './qa-metrics.js';
import {
  type AbstentionRule,
  judgeReplayedAnswers,
  type ReplayResult,
  summarizeReplay,
  thresholdRule,
} from './replay.js';
import { type QuestionSplit, questionSplit } from './split.js';

/** The two ways of deciding to abstain that calibration compares. */
export type CalibrationMethod = 'coverage-detector' | 'score-threshold';

/** One setting of a method, scored on one half of the questions, pooled over the runs. */
export interface CalibrationPoint {
  method: CalibrationMethod;
  /** The detector's `abstentionThreshold`, or the score check's `minRetrievalScore`. */
  threshold: number;
  /** The score check's `minScoreGap` (score-threshold method only). */
  minScoreGap?: number;
  split: QuestionSplit;
  overall: number;
  abstentionAccuracy: number;
  /** Share of answerable questions on which the method abstained. */
  addedFalseAbstentionRate: number;
  /** Change in overall accuracy against the runs as recorded. */
  accuracyGain: number;
}

/** What calibration chose for a method and how the choice does on each half. */
export interface CalibrationChoice {
  method: CalibrationMethod;
  threshold: number;
  minScoreGap?: number;
  tune: QaMetrics;
  holdout: QaMetrics;
  /** Per run, on the holdout half: as recorded and with the method. */
  runs: { runPath: string; baseline: QaMetrics; detector: QaMetrics }[];
}

/** The result of {@link calibrate}. */
export interface CalibrationReport {
  objective: string;
  maxFalseAbstentionRate: number;
  /** Questions per half, pooled over the runs. */
  answers: { tune: number; holdout: number };
  baseline: { tune: QaMetrics; holdout: QaMetrics };
  choices: CalibrationChoice[];
  curve: CalibrationPoint[];
}

/** Options of {@link calibrate}. */
export interface CalibrationOptions {
  /** The objective's bound on the false-abstention rate the method adds (0.005, the project's target). */
  maxFalseAbstentionRate?: number;
  /** Detector thresholds to try (0.50 to 1.00 by 0.01). */
  detectorThresholds?: readonly number[];
  /** Score-check thresholds to try (0 to 0.6 by 0.02). */
  scoreThresholds?: readonly number[];
  /** Score-gap bounds to try with each score threshold (0, 0.05 and 0.1; 0 turns the gap check off). */
  scoreGaps?: readonly number[];
}

const steps = (from: number, to: number, step: number) =>
  Array.from({ length: Math.round((to - from) / step) + 1 }, (_, index) =>
    Number((from + index * step).toFixed(4)),
  );

/**
 * Sweeps each method's threshold on the `tune` half of the questions (a stable hash of the id),
 * chooses the one with the best pooled overall accuracy whose added false-abstention rate stays
 * within the bound, and reports it on the `holdout` half.
 */
export function calibrate(
  replay: ReplayResult,
  options: CalibrationOptions = {},
): CalibrationReport {
  const maxFalseAbstentionRate = options.maxFalseAbstentionRate ?? 0.005;
  type Setting = { threshold: number; minScoreGap?: number };
  const gaps = options.scoreGaps ?? [0, 0.05, 0.1];
  const methods: {
    method: CalibrationMethod;
    settings: Setting[];
    rule: (setting: Setting) => AbstentionRule;
  }[] = [
    {
      method: 'coverage-detector',
      settings: (options.detectorThresholds ?? steps(0.5, 1, 0.01)).map((threshold) => ({
        threshold,
      })),
      rule: (setting) => thresholdRule(setting.threshold),
    },
    {
      method: 'score-threshold',
      settings: (options.scoreThresholds ?? steps(0, 0.6, 0.02)).flatMap((threshold) =>
        gaps.map((minScoreGap) => ({ threshold, minScoreGap })),
      ),
      rule: (setting) => scoreThresholdRule(setting.threshold, setting.minScoreGap),
    },
  ];
  const halves = (split: QuestionSplit) =>
    replay.runs.map((run) => ({
      ...run,
      answers: run.answers.filter((answer) => questionSplit(answer.questionId) === split),
    }));
  const tuneRuns = halves('tune');
  const holdoutRuns = halves('holdout');
  const pooled = (runs: typeof tuneRuns, rule?: AbstentionRule) =>
    computeQaMetrics(runs.flatMap((run) => judgeReplayedAnswers(run.answers, rule).judged));
  const baseline = { tune: pooled(tuneRuns), holdout: pooled(holdoutRuns) };

  const curve: CalibrationPoint[] = [];
  const choices: CalibrationChoice[] = [];
  for (const { method, settings, rule } of methods) {
    let best: { setting: Setting; metrics: QaMetrics } | undefined;
    for (const setting of settings) {
      for (const [split, runs] of [
        ['tune', tuneRuns],
        ['holdout', holdoutRuns],
      ] as const) {
        const metrics = pooled(runs, rule(setting));
        curve.push({
          method,
          ...setting,
          split,
          overall: metrics.overall,
          abstentionAccuracy: metrics.abstention.accuracy,
          addedFalseAbstentionRate: metrics.addedFalseAbstentionRate,
          accuracyGain: metrics.overall - baseline[split].overall,
        });
        if (
          split === 'tune' &&
          metrics.addedFalseAbstentionRate <= maxFalseAbstentionRate &&
          (!best || metrics.overall > best.metrics.overall)
        ) {
          best = { setting, metrics };
        }
      }
    }
    if (!best) continue;
    const chosenRule = rule(best.setting);
    choices.push({
      method,
      ...best.setting,
      tune: best.metrics,
      holdout: pooled(holdoutRuns, chosenRule),
      runs: holdoutRuns.map((run) => {
        const summary = summarizeReplay(run, chosenRule);
        return {
          runPath: run.runPath,
          baseline: summary.baseline,
          detector: summary.detector ?? summary.baseline,
        };
      }),
    });
  }
  return {
    objective: `best pooled overall accuracy on the tune half with an added false-abstention rate of at most ${(maxFalseAbstentionRate * 100).toFixed(1)}%`,
    maxFalseAbstentionRate,
    answers: { tune: baseline.tune.n, holdout: baseline.holdout.n },
    baseline,
    choices,
    curve,
  };
}

/** The score checks of layer 1 alone, at a given `minRetrievalScore` and `minScoreGap`. */
export function scoreThresholdRule(
  minRetrievalScore: number,
  minScoreGap: number = DEFAULT_DETECTOR_CONFIG.minScoreGap,
): AbstentionRule {
  return (detection) => retrievalScoreSignal(detection, { minRetrievalScore, minScoreGap });
}

/** The trade-off chart on the holdout half: abstention accuracy against added false abstention. */
export function tradeoffChart(report: CalibrationReport): ChartSpec {
  const points = report.curve
    .filter((point) => point.split === 'holdout')
    .map((point) => ({
      ...point,
      series:
        point.minScoreGap === undefined
          ? point.method
          : `${point.method}, gap ${point.minScoreGap}`,
    }));
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: 'Holdout half: abstention accuracy against false abstention added',
    width: 360,
    height: 260,
    data: { values: points },
    mark: { type: 'line', point: true, interpolate: 'step-after' },
    encoding: {
      x: {
        field: 'addedFalseAbstentionRate',
        type: 'quantitative',
        title: 'false-abstention rate added',
        axis: { format: '.1%' },
      },
      y: shareEncoding('abstentionAccuracy', 'abstention accuracy'),
      color: { field: 'series', type: 'nominal', title: null, legend: { labelLimit: 400 } },
      order: { field: 'addedFalseAbstentionRate' },
      tooltip: [
        { field: 'method' },
        { field: 'split' },
        { field: 'threshold' },
        { field: 'overall', format: '.3f' },
      ],
    },
  };
}

/** Writes `calibration.json`, `calibration.md` and `tradeoff.svg` into a directory. */
export async function writeCalibrationReport(
  report: CalibrationReport,
  directory: string,
): Promise<string[]> {
  await mkdir(directory, { recursive: true });
  const files = [
    join(directory, 'calibration.json'),
    join(directory, 'calibration.md'),
    join(directory, 'tradeoff.svg'),
  ];
  await writeFile(files[0]!, `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(files[1]!, calibrationMarkdown(report));
  await writeFile(files[2]!, await renderSvg(tradeoffChart(report)));
  return files;
}

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

/**
 * The table of what each method chose: method, threshold, then, with `tune`, its overall accuracy
 * and added false-abstention rate on the tune half, then the holdout half's figures.
 */
export function calibrationTable(
  report: CalibrationReport,
  options: { tune: boolean },
): { header: string[]; rows: string[][] } {
  const tuneHeader = options.tune ? ['tune overall', 'tune added FAR'] : [];
  return {
    header: [
      'method',
      'threshold',
      ...tuneHeader,
      'holdout overall (recorded)',
      'holdout overall',
      'holdout abstention',
      'holdout added FAR',
    ],
    rows: report.choices.map((choice) => [
      choice.method,
      `${choice.threshold}${choice.minScoreGap !== undefined ? ` (gap ${choice.minScoreGap})` : ''}`,
      ...(options.tune
        ? [percent(choice.tune.overall), percent(choice.tune.addedFalseAbstentionRate)]
        : []),
      percent(report.baseline.holdout.overall),
      percent(choice.holdout.overall),
      `${choice.holdout.abstention.correct}/${choice.holdout.abstention.n}`,
      percent(choice.holdout.addedFalseAbstentionRate),
    ]),
  };
}

/** A table as Markdown lines, the first column left-aligned and the others right-aligned. */
export function markdownTable(table: { header: string[]; rows: string[][] }): string[] {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [
    line(table.header),
    line(table.header.map((_, index) => (index === 0 ? '---' : '---:'))),
    ...table.rows.map(line),
  ];
}

/**
 * The calibration report as Markdown: objective, choices per method, per-run holdout figures, and
 * the trade-off chart as an image beside it (`tradeoff.svg`) unless `image` is false.
 */
export function calibrationMarkdown(
  report: CalibrationReport,
  options: { image?: boolean } = {},
): string {
  const lines = [
    '# Abstention calibration',
    '',
    `Objective: ${report.objective}. Thresholds are chosen on the tune half (${report.answers.tune} answers pooled over the runs) and reported on the holdout half (${report.answers.holdout}).`,
    '',
    ...markdownTable(calibrationTable(report, { tune: true })),
  ];
  for (const choice of report.choices) {
    lines.push(
      '',
      `## ${choice.method} on the holdout half, per run`,
      '',
      '| run | overall recorded | overall | abstention recorded | abstention | added FAR |',
      '| --- | ---: | ---: | ---: | ---: | ---: |',
    );
    for (const run of choice.runs) {
      lines.push(
        `| ${run.runPath.split('/').at(-1)} | ${percent(run.baseline.overall)} | ${percent(run.detector.overall)} | ${run.baseline.abstention.correct}/${run.baseline.abstention.n} | ${run.detector.abstention.correct}/${run.detector.abstention.n} | ${percent(run.detector.addedFalseAbstentionRate)} |`,
      );
    }
  }
  if (report.choices.length < 2)
    lines.push('', 'A method missing above found no threshold within the bound on the tune half.');
  if (options.image ?? true) lines.push('', '![trade-off](tradeoff.svg)');
  lines.push('');
  return lines.join('\n');
}
