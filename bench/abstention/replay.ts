// Abstention on the recorded LongMemEval runs in ../shared: the detector with its defaults against
// the runs as recorded, its layers one at a time, the first design's score threshold and hedging
// cues, the calibration of the threshold on one half of the questions, and the speed of a replay
// of the 498 S questions (layers 1 and 3).
// Run: pnpm bench:abstention [folder holding longmemeval_oracle.json, longmemeval_s_cleaned.json.gz, runs/]
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, platform, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
// the bench runs from the repository root, outside any workspace package, so it reads the
// packages' public entries by path
import {
  type AbstentionRule,
  calibrate,
  computeQaMetrics,
  counterfactualAnswer,
  isAbstentionQuestion,
  type JudgedAnswer,
  judgeReplayedAnswers,
  type QaMetrics,
  questionSplit,
  type ReplayedRun,
  type ReplayResult,
  type RunSet,
  readRunFile,
  replayRuns,
  scoreThresholdRule,
  thresholdRule,
  writeCalibrationReport,
} from '../../packages/benchmark/src/index.js';
import {
  AbstentionDetector,
  type AbstentionDetectorConfig,
} from '../../packages/search-core/src/index.js';

const defaultFolder = fileURLToPath(new URL('../../../shared/data/longmemeval/', import.meta.url));
const folder = process.argv[2] ?? defaultFolder;
const oracleData = join(folder, 'longmemeval_oracle.json');
const sData = join(folder, 'longmemeval_s_cleaned.json.gz');
const runs = {
  oracle_con: join(folder, 'runs/llama3.1-8b_oracle_con.eval-results.jsonl'),
  oracle_cot: join(folder, 'runs/llama3.1-8b_oracle_cot.eval-results.jsonl'),
  s_rag_con: join(folder, 'runs/llama3.1-8b_s_rag_con.eval-results.jsonl'),
};
const missing = [oracleData, sData, ...Object.values(runs)].filter((path) => !existsSync(path));
if (missing.length > 0) {
  console.log(`The LongMemEval data is absent (${missing.join(', ')}); nothing to measure.`);
  console.log(
    'Pass the folder that holds longmemeval_oracle.json, longmemeval_s_cleaned.json.gz and runs/.',
  );
  process.exit(0);
}
const sets: RunSet[] = [
  { dataPath: oracleData, runPaths: [runs.oracle_con, runs.oracle_cot] },
  { dataPath: sData, runPaths: [runs.s_rag_con] },
];
const runName = (path: string) =>
  path.split('/').at(-1)?.replace('.eval-results.jsonl', '').replace('llama3.1-8b_', '') ?? path;

async function replay(config: AbstentionDetectorConfig): Promise<ReplayResult> {
  return replayRuns({ sets, detector: new AbstentionDetector({ useNLI: false, ...config }) });
}

function judge(
  run: ReplayedRun,
  rule?: AbstentionRule,
  wouldAbstain?: (questionId: string) => boolean,
): JudgedAnswer[] {
  if (!wouldAbstain) return judgeReplayedAnswers(run.answers, rule).judged;
  return run.answers.map((answer) => counterfactualAnswer(answer, wouldAbstain(answer.questionId)));
}

interface Variant {
  name: string;
  perRun: {
    run: string;
    recorded: QaMetrics;
    metrics: QaMetrics;
    recovered: number;
    wrongAbstention: number;
  }[];
  pooled: QaMetrics;
  recovered: number;
  wrongAbstention: number;
}

function variant(
  name: string,
  replayed: ReplayResult,
  rule?: AbstentionRule,
  wouldAbstain?: (run: string, questionId: string) => boolean,
): Variant {
  const perRun = replayed.runs.map((run) => {
    const judged = judge(
      run,
      rule,
      wouldAbstain ? (id) => wouldAbstain(run.runPath, id) : undefined,
    );
    const wrong = run.answers.filter(
      (answer) => isAbstentionQuestion(answer.questionId) && !answer.recordedLabel,
    );
    const abstainedIds = new Set(
      judged.filter((answer) => answer.abstained).map((answer) => answer.questionId),
    );
    return {
      run: runName(run.runPath),
      recorded: computeQaMetrics(judge(run)),
      metrics: computeQaMetrics(judged),
      recovered: wrong.filter((answer) => abstainedIds.has(answer.questionId)).length,
      wrongAbstention: wrong.length,
    };
  });
  return {
    name,
    perRun,
    pooled: computeQaMetrics(
      replayed.runs.flatMap((run) =>
        judge(run, rule, wouldAbstain ? (id) => wouldAbstain(run.runPath, id) : undefined),
      ),
    ),
    recovered: perRun.reduce((sum, entry) => sum + entry.recovered, 0),
    wrongAbstention: perRun.reduce((sum, entry) => sum + entry.wrongAbstention, 0),
  };
}

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const signed = (value: number) => `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)}`;

function table(variants: Variant[]): string {
  const lines = [
    '| method | recovered (of wrong `_abs`) | added false abstention, pooled | Δ overall: ' +
      variants[0]!.perRun.map((entry) => entry.run).join(' / ') +
      ' | abstention: ' +
      variants[0]!.perRun.map((entry) => entry.run).join(' / ') +
      ' |',
    '| --- | ---: | ---: | ---: | ---: |',
  ];
  for (const entry of variants) {
    lines.push(
      `| ${entry.name} | ${entry.recovered}/${entry.wrongAbstention} | ${percent(entry.pooled.addedFalseAbstentionRate)} (${entry.pooled.addedFalseAbstentions}) | ${entry.perRun
        .map((run) => signed(run.metrics.overall - run.recorded.overall))
        .join(
          ' / ',
        )} | ${entry.perRun.map((run) => `${run.metrics.abstention.correct}/${run.metrics.abstention.n}`).join(' / ')} |`,
    );
  }
  return lines.join('\n');
}

const started = performance.now();
console.log(`# Abstention on the recorded LongMemEval runs\n`);
console.log(
  `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, ${platform()} ${release()}, Node ${process.version}\n`,
);

// speed first, so that the peak memory is the S replay's own: the S run alone, layers 1 and 3, as
// `qualm bench longmemeval replay --abstention --no-nli` does it
const speedStarted = performance.now();
const speed = await replayRuns({
  sets: [{ dataPath: sData, runPaths: [runs.s_rag_con] }],
  detector: new AbstentionDetector({ useNLI: false }),
});
const wall = (performance.now() - speedStarted) / 1000;
const speedPeakMegabytes = process.resourceUsage().maxRSS / 1024;

const full = await replay({});
const coverageOnly = await replay({ useHedging: false });
const hedgingOnly = await replay({ useRetrieval: false });
const threshold = new AbstentionDetector().config.abstentionThreshold;

// the hedging cues the first design named; they fire on correct step-by-step answers
const firstDesignCues = /\b(?:I think|maybe|not mentioned)\b/i;
const hypotheses = new Map<string, Map<string, string>>();
for (const path of Object.values(runs)) {
  hypotheses.set(
    path,
    new Map(
      (await readRunFile(path)).entries.map((entry) => [entry.question_id, entry.hypothesis]),
    ),
  );
}

const variants = [
  variant('recorded run', full),
  variant(
    'score threshold as first designed (top < 0.3, or < 0.5 within 0.1 of the second)',
    full,
    scoreThresholdRule(0.3, 0.1),
  ),
  variant(
    'hedging cues as first designed ("I think", "maybe", "not mentioned")',
    full,
    undefined,
    (run, id) => firstDesignCues.test(hypotheses.get(run)?.get(id) ?? ''),
  ),
  variant(
    `layer 1 coverage alone (threshold ${threshold})`,
    coverageOnly,
    thresholdRule(threshold),
  ),
  variant(`layer 3 hedging alone (threshold ${threshold})`, hedgingOnly, thresholdRule(threshold)),
  variant(`detector, layers 1 + 3 (threshold ${threshold})`, full, thresholdRule(threshold)),
];
console.log('## Every question of the three runs (the rows the rules were designed on)\n');
console.log(table(variants));

const detector = variants.at(-1)!;
console.log(
  `\nWith the detector: per run, overall recorded → detected: ${detector.perRun.map((run) => `${run.run} ${percent(run.recorded.overall)} → ${percent(run.metrics.overall)}`).join(', ')}.`,
);

const report = calibrate(full, { maxFalseAbstentionRate: 0.01 });
const out = fileURLToPath(new URL('../results/abstention/', import.meta.url));
await mkdir(out, { recursive: true });
await writeCalibrationReport(report, out);
console.log(
  `\n## Calibration: chosen on the tune half, reported on the holdout half (${report.answers.holdout} answers)\n`,
);
console.log(
  '| method | chosen | holdout overall recorded → with | holdout abstention recorded → with | holdout added false abstention |',
);
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const choice of report.choices) {
  const recordedAbstention = report.baseline.holdout.abstention;
  console.log(
    `| ${choice.method} | ${choice.threshold}${choice.minScoreGap !== undefined ? ` (gap ${choice.minScoreGap})` : ''} | ${percent(report.baseline.holdout.overall)} → ${percent(choice.holdout.overall)} | ${recordedAbstention.correct}/${recordedAbstention.n} → ${choice.holdout.abstention.correct}/${choice.holdout.abstention.n} | ${percent(choice.holdout.addedFalseAbstentionRate)} |`,
  );
}
const holdout: ReplayResult = {
  ...full,
  runs: full.runs.map((run) => ({
    ...run,
    answers: run.answers.filter((answer) => questionSplit(answer.questionId) === 'holdout'),
  })),
};
const atDefault = variant(
  `detector at its default threshold ${threshold}`,
  holdout,
  thresholdRule(threshold),
);
console.log(
  `| detector, default | ${threshold} | ${percent(report.baseline.holdout.overall)} → ${percent(atDefault.pooled.overall)} | ${report.baseline.holdout.abstention.correct}/${report.baseline.holdout.abstention.n} → ${atDefault.pooled.abstention.correct}/${atDefault.pooled.abstention.n} | ${percent(atDefault.pooled.addedFalseAbstentionRate)} |`,
);
console.log(
  `\nOn the holdout half the reader got ${atDefault.wrongAbstention} abstention questions wrong; the default threshold recovers ${atDefault.recovered}, per run Δ overall ${atDefault.perRun.map((run) => `${run.run} ${signed(run.metrics.overall - run.recorded.overall)}`).join(', ')}.`,
);
console.log(`\nCalibration report: ${out}calibration.md, trade-off chart ${out}tradeoff.svg`);

console.log(
  '\n## Speed: replay of the S run (498 questions, index build and query per question, layers 1 and 3)\n',
);
console.log(
  '| wall | questions | retrieval p50 / p90 per question | detector p50 / p90 per answer | peak RSS of the process |',
);
console.log('| ---: | ---: | ---: | ---: | ---: |');
console.log(
  `| ${wall.toFixed(1)} s | ${speed.timing.questions} | ${speed.timing.retrievalMs.p50.toFixed(1)} / ${speed.timing.retrievalMs.p90.toFixed(1)} ms | ${speed.timing.detectionMs.p50.toFixed(1)} / ${speed.timing.detectionMs.p90.toFixed(1)} ms | ${speedPeakMegabytes.toFixed(0)} MB |`,
);
await writeFile(
  join(out, 'replay.json'),
  `${JSON.stringify({ variants, timing: speed.timing, wallSeconds: wall }, null, 2)}\n`,
);
console.log(`\n(total ${((performance.now() - started) / 1000).toFixed(0)} s)`);
