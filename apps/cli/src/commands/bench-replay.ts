import {
  type QaMetrics,
  questionTypesOf,
  type ReplaySummary,
  replayRuns,
  summarizeReplay,
  thresholdRule,
} from '@qualm/benchmark';
import { type Command, Option } from 'commander';
import {
  addDetectorOptions,
  createDetector,
  type DetectorFlags,
  detectorFlagRules,
} from '../detector-options.js';
import { formatIdList, formatTable, rejectUselessFlags } from '../io.js';
import { Progress } from '../progress.js';
import { longmemevalCommand } from './longmemeval-group.js';

interface ReplayFlags extends DetectorFlags {
  data: string;
  run: string;
  abstention?: boolean;
  format: 'table' | 'json';
}

const example = `
Scores a recorded run as the official print_qa_metrics.py does and, with --abstention, replays the
abstention detector over it: each question's history sessions are indexed, the question retrieves
its evidence, and the detector judges the recorded answer. An abstention counts as correct on an
_abs question and wrong on any other; every other answer keeps its recorded label.

Examples:
  qualm bench longmemeval replay --data longmemeval_oracle.json --run run.eval-results.jsonl
  qualm bench longmemeval replay --data longmemeval_s_cleaned.json.gz \\
    --run run.eval-results.jsonl --abstention --no-nli --format json`;

/** Registers `qualm bench longmemeval replay`. */
export function registerBenchReplay(program: Command): void {
  const command = longmemevalCommand(program)
    .command('replay')
    .description('Score a recorded LongMemEval run, and replay the abstention detector over it.')
    .requiredOption('--data <file>', 'LongMemEval file (oracle, S or M; plain or .gz)')
    .requiredOption(
      '--run <file>',
      'recorded run with judge labels (official eval-results JSON Lines)',
    )
    .option('--abstention', 'replay the abstention detector');
  addDetectorOptions(command)
    .addOption(
      new Option('--format <format>', 'output format').choices(['table', 'json']).default('table'),
    )
    .addHelpText('after', example)
    .action(async (flags: ReplayFlags, command: Command) => {
      const runs = { runs: flags.abstention === true, because: 'without --abstention' };
      rejectUselessFlags(command, [
        ...detectorFlagRules(flags, runs),
        {
          option: 'modelsDir',
          flag: '--models-dir',
          applies: runs.runs && flags.nli,
          because: 'without --abstention and NLI',
        },
      ]);
      const detector = flags.abstention ? await createDetector(flags) : undefined;
      const progress = new Progress('replay', undefined);
      const replay = await replayRuns({
        sets: [{ dataPath: flags.data, runPaths: [flags.run] }],
        ...(detector ? { detector } : {}),
        onProgress: (_done, total) => {
          progress.setTotal(total);
          progress.tick();
        },
      });
      progress.finish();
      const rule = detector ? thresholdRule(detector.config.abstentionThreshold) : undefined;
      // the replay holds one run per --run path: exactly one here
      for (const run of replay.runs) {
        const summary = summarizeReplay(run, rule);
        process.stdout.write(
          flags.format === 'json'
            ? `${JSON.stringify({
                baseline: summary.baseline,
                ...(summary.detector ? { detector: summary.detector, layers: summary.layers } : {}),
                skipped: summary.skipped,
                skippedIds: run.skippedIds,
                ...(detector ? { timing: replay.timing } : {}),
              })}\n`
            : `${toTable(summary, run.skippedIds, detector ? replay.timing.retrievalMs.p50 : undefined)}\n`,
        );
      }
    });
}

// a figure that cannot be computed (a task average without every type) shows as in metrics
const percent = (value: number | null) => (value === null ? '-' : (value * 100).toFixed(1));

function toTable(
  summary: ReplaySummary,
  skippedIds: readonly string[],
  retrievalP50?: number,
): string {
  const { baseline, detector } = summary;
  const columns = [
    { header: 'metric' },
    { header: 'n', align: 'right' as const },
    { header: 'recorded %', align: 'right' as const },
    ...(detector ? [{ header: 'with detector %', align: 'right' as const }] : []),
  ];
  const row = (label: string, questions: number, pick: (metrics: QaMetrics) => number | null) => [
    label,
    String(questions),
    percent(pick(baseline)),
    ...(detector ? [percent(pick(detector))] : []),
  ];
  const rows = [
    ...questionTypesOf(baseline)
      .filter((type) => baseline.byType[type])
      .map((type) =>
        row(type, baseline.byType[type]?.n ?? 0, (metrics) => metrics.byType[type]?.accuracy ?? 0),
      ),
    row('task-averaged', baseline.n, (metrics) => metrics.taskAveraged),
    row('overall', baseline.n, (metrics) => metrics.overall),
    row('abstention', baseline.abstention.n, (metrics) => metrics.abstention.accuracy),
    row(
      'false abstention',
      baseline.n - baseline.abstention.n,
      (metrics) => metrics.falseAbstentionRate,
    ),
    ...(detector
      ? [
          row(
            '  added by detector',
            baseline.n - baseline.abstention.n,
            (metrics) => metrics.addedFalseAbstentionRate,
          ),
        ]
      : []),
  ];
  const lines = [formatTable(columns, rows)];
  lines.push(
    '',
    `abstention: ${baseline.abstention.correct}/${baseline.abstention.n} recorded${detector ? `, ${detector.abstention.correct}/${detector.abstention.n} with the detector` : ''}`,
  );
  if (summary.layers) {
    const fired = Object.entries(summary.layers).map(
      ([reason, counts]) =>
        `${reason} ${counts.abstentions} (${counts.onAnswerable} on answerable)`,
    );
    lines.push(`abstentions by reason: ${fired.length ? fired.join(', ') : 'none'}`);
  }
  if (retrievalP50 !== undefined)
    lines.push(`retrieval per question: p50 ${retrievalP50.toFixed(1)} ms`);
  if (skippedIds.length)
    lines.push(`skipped ${skippedIds.length} run ids not in the data: ${formatIdList(skippedIds)}`);
  return lines.join('\n');
}
