/*
 * The abstention detector replayed over the recorded LongMemEval runs in ../shared, each run
 * reported on its own, and its threshold calibrated on one half of the questions and reported on
 * the other. NLI grounding is off: no NLI weights can be downloaded where this is measured.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  type AbstentionRule,
  calibrate,
  computeQaMetrics,
  counterfactualAnswer,
  isAbstentionQuestion,
  judgeReplayedAnswers,
  type QaMetrics,
  questionSplit,
  type ReplayedAnswer,
  type ReplayedRun,
  type ReplayResult,
  readRunFile,
  replayRuns,
  scoreThresholdRule,
  thresholdRule,
} from '../../packages/benchmark/src/index.js';
import { AbstentionDetector } from '../../packages/search-core/src/index.js';
import { markdownTable, percent } from './report.js';

/** The recorded runs, by the data file they were read over. */
export const RUNS = {
  oracle: ['llama3.1-8b_oracle_con', 'llama3.1-8b_oracle_cot'],
  s: ['llama3.1-8b_s_rag_con', 'gemini-2.5-flash_s_full_text', 'gemini-2.5-flash_s_full_image'],
} as const;

/** Where the data and the runs are; undefined when any of them is absent. */
export function locateRuns(folder: string) {
  const oracle = join(folder, 'longmemeval_oracle.json');
  const s = join(folder, 'longmemeval_s_cleaned.json.gz');
  const path = (run: string) => join(folder, 'runs', `${run}.eval-results.jsonl`);
  const all = [oracle, s, ...RUNS.oracle.map(path), ...RUNS.s.map(path)];
  if (!all.every((file) => existsSync(file))) return undefined;
  return {
    sets: [
      { dataPath: oracle, runPaths: RUNS.oracle.map(path) },
      { dataPath: s, runPaths: RUNS.s.map(path) },
    ],
  };
}

const runName = (path: string) =>
  (path.split('/').at(-1) ?? path).replace('.eval-results.jsonl', '');

interface RunFigures {
  run: string;
  recorded: QaMetrics;
  after: QaMetrics;
  recovered: number;
  wrongAbstention: number;
}

/** Whether the method abstains on an answer; undefined keeps the run as recorded. */
type Decision = ((answer: ReplayedAnswer) => boolean) | undefined;

const byRule =
  (rule: AbstentionRule): Decision =>
  (answer) =>
    answer.detection !== null && rule(answer.detection) !== undefined;

function perRun(replay: ReplayResult, decide: (run: ReplayedRun) => Decision): RunFigures[] {
  return replay.runs.map((run) => {
    const decision = decide(run);
    const judged = run.answers.map((answer) =>
      counterfactualAnswer(answer, decision ? decision(answer) : false),
    );
    const abstained = new Set(
      judged
        .filter((answer) => answer.abstentionAdded !== undefined)
        .map((answer) => answer.questionId),
    );
    const wrong = run.answers.filter(
      (answer) => isAbstentionQuestion(answer.questionId) && !answer.recordedLabel,
    );
    return {
      run: runName(run.runPath),
      recorded: computeQaMetrics(judgeReplayedAnswers(run.answers).judged),
      after: computeQaMetrics(judged),
      recovered: wrong.filter((answer) => abstained.has(answer.questionId)).length,
      wrongAbstention: wrong.length,
    };
  });
}

const signed = (value: number) => `${value >= 0 ? '+' : '−'}${Math.abs(value * 100).toFixed(1)}`;

function variantRow(name: string, figures: RunFigures[]): string[] {
  const recovered = figures.reduce((sum, entry) => sum + entry.recovered, 0);
  const wrong = figures.reduce((sum, entry) => sum + entry.wrongAbstention, 0);
  return [
    name,
    `${recovered}/${wrong}`,
    ...figures.map(
      (entry) =>
        `${signed(entry.after.overall - entry.recorded.overall)} / ${percent(entry.after.addedFalseAbstentionRate)}`,
    ),
  ];
}

/** Replays the runs and returns the Markdown sections and the figures prose may quote. */
export async function evaluateAbstention(folder: string) {
  const located = locateRuns(folder);
  if (!located) return undefined;
  const full = await replayRuns({
    sets: located.sets,
    detector: new AbstentionDetector({ useNLI: false }),
  });
  const coverageOnly = await replayRuns({
    sets: located.sets,
    detector: new AbstentionDetector({ useNLI: false, useHedging: false }),
  });
  const hedgingOnly = await replayRuns({
    sets: located.sets,
    detector: new AbstentionDetector({ useNLI: false, useRetrieval: false }),
  });
  const threshold = new AbstentionDetector().config.abstentionThreshold;
  const hypotheses = new Map<string, Map<string, string>>();
  for (const set of located.sets) {
    for (const path of set.runPaths) {
      const entries = (await readRunFile(path)).entries;
      hypotheses.set(path, new Map(entries.map((entry) => [entry.question_id, entry.hypothesis])));
    }
  }
  // the hedging cues the first design named
  const firstDesignCues = /\b(?:I think|maybe|not mentioned)\b/i;

  const recorded = perRun(full, () => undefined);
  const detector = perRun(full, () => byRule(thresholdRule(threshold)));
  const variants: [string, RunFigures[]][] = [
    [
      'score threshold as first designed (top < 0.3, or < 0.5 within 0.1 of the second)',
      perRun(full, () => byRule(scoreThresholdRule(0.3, 0.1))),
    ],
    [
      'hedging cues as first designed ("I think", "maybe", "not mentioned")',
      perRun(
        full,
        (run) => (answer) =>
          firstDesignCues.test(hypotheses.get(run.runPath)?.get(answer.questionId) ?? ''),
      ),
    ],
    [
      `layer 1, evidence coverage alone (threshold ${threshold})`,
      perRun(coverageOnly, () => byRule(thresholdRule(threshold))),
    ],
    [
      `layer 3, hedging alone (threshold ${threshold})`,
      perRun(hedgingOnly, () => byRule(thresholdRule(threshold))),
    ],
    [`**detector, layers 1 + 3 (default threshold ${threshold})**`, detector],
  ];
  const runs = recorded.map((entry) => entry.run);
  const perRunTable = markdownTable(
    [
      'method',
      'recovered (wrong `_abs` answers)',
      ...runs.map((run) => `${run}: Δ overall / added false abstention`),
    ],
    variants.map(([name, figures]) => variantRow(name, figures)),
    ['---', '---:', ...runs.map(() => '---:')],
  );
  const recordedTable = markdownTable(
    [
      'run',
      'answers',
      'overall, recorded → detector',
      'abstention, recorded → detector',
      'added false abstention',
      'recovered',
    ],
    detector.map((entry, index) => {
      const before = recorded[index] as RunFigures;
      return [
        entry.run,
        String(entry.after.n),
        `${percent(before.recorded.overall)} → ${percent(entry.after.overall)}`,
        `${before.recorded.abstention.correct}/${before.recorded.abstention.n} → ${entry.after.abstention.correct}/${entry.after.abstention.n}`,
        `${percent(entry.after.addedFalseAbstentionRate, 2)} (${entry.after.addedFalseAbstentions})`,
        `${entry.recovered}/${entry.wrongAbstention}`,
      ];
    }),
    ['---', '---:', '---:', '---:', '---:', '---:'],
  );

  const report = calibrate(full, { maxFalseAbstentionRate: 0.005 });
  const holdout: ReplayResult = {
    ...full,
    runs: full.runs.map((run) => ({
      ...run,
      answers: run.answers.filter((answer) => questionSplit(answer.questionId) === 'holdout'),
    })),
  };
  const atDefault = perRun(holdout, () => byRule(thresholdRule(threshold)));
  const pooledDefault = computeQaMetrics(
    holdout.runs.flatMap(
      (run) => judgeReplayedAnswers(run.answers, thresholdRule(threshold)).judged,
    ),
  );
  const calibrationRows = report.choices.map((choice) => [
    choice.method === 'coverage-detector' ? 'detector, calibrated' : 'score threshold, calibrated',
    `${choice.threshold}${choice.minScoreGap !== undefined ? ` (gap ${choice.minScoreGap})` : ''}`,
    `${percent(report.baseline.holdout.overall)} → ${percent(choice.holdout.overall)}`,
    `${report.baseline.holdout.abstention.correct}/${report.baseline.holdout.abstention.n} → ${choice.holdout.abstention.correct}/${choice.holdout.abstention.n}`,
    percent(choice.holdout.addedFalseAbstentionRate, 2),
  ]);
  calibrationRows.push([
    'detector, default',
    `${threshold} (not tuned)`,
    `${percent(report.baseline.holdout.overall)} → ${percent(pooledDefault.overall)}`,
    `${report.baseline.holdout.abstention.correct}/${report.baseline.holdout.abstention.n} → ${pooledDefault.abstention.correct}/${pooledDefault.abstention.n}`,
    percent(pooledDefault.addedFalseAbstentionRate, 2),
  ]);
  const calibrationTable = markdownTable(
    [
      'method',
      'chosen on tune',
      'holdout overall, recorded → with',
      'holdout abstention',
      'holdout added false abstention',
    ],
    calibrationRows,
    ['---', '---:', '---:', '---:', '---:'],
  );
  const recovered = detector.reduce((sum, entry) => sum + entry.recovered, 0);
  const wrong = detector.reduce((sum, entry) => sum + entry.wrongAbstention, 0);
  const worstAdded = Math.max(...detector.map((entry) => entry.after.addedFalseAbstentionRate));
  const worstDelta = Math.min(
    ...detector.map(
      (entry, index) => entry.after.overall - (recorded[index] as RunFigures).recorded.overall,
    ),
  );
  return {
    sections: {
      'abstention-runs': recordedTable,
      'abstention-variants': perRunTable,
      'abstention-calibration': `${calibrationTable}\n\nHoldout half: ${report.answers.holdout} answers over the five runs; the default threshold recovers ${atDefault.reduce((sum, entry) => sum + entry.recovered, 0)} of the ${atDefault.reduce((sum, entry) => sum + entry.wrongAbstention, 0)} abstention questions the readers got wrong there.`,
    },
    figures: { recovered, wrong, worstAdded, worstDelta, runs: runs.length },
  };
}
