import { writeFileSync } from 'node:fs';
import {
  DEFAULT_JUDGE_MODEL,
  falseAbstentionLine,
  type QaMetrics,
  qaMetricsLines,
  qaMetricsMarkdown,
  qaMetricsText,
  questionTypesOf,
  type RunScore,
  scoreRunFile,
} from '@qualm/benchmark';
import { type Command, Option } from 'commander';
import { formatIdList, formatTable, prepareOutputFile } from '../io.js';
import { longmemevalCommand } from './longmemeval-group.js';

/** Output formats of the metrics. */
export const metricsFormats = ['table', 'json', 'markdown', 'official'] as const;

/** An output format of the metrics. */
export type MetricsFormat = (typeof metricsFormats)[number];

interface MetricsFlags {
  run: string;
  data: string;
  format: MetricsFormat;
  out?: string;
}

const example = `
Prints what the official print_qa_metrics.py prints for a judged run (accuracy per question type in
its order, task-averaged, overall, abstention accuracy with its count) and the false-abstention
rate: the share of answerable questions whose answer says it cannot answer (or that a detector
replaced, when the run recorded "abstained"). --format official prints on stdout exactly the lines
the script prints, and nothing else: the false-abstention rate and every note go to stderr.

Examples:
  qualm bench longmemeval metrics --data longmemeval_oracle.json --run run.eval-results.jsonl
  qualm bench longmemeval metrics --data longmemeval_s_cleaned.json.gz \\
    --run run.eval-results.jsonl --format markdown --out metrics.md`;

/** Registers `qualm bench longmemeval metrics`. */
export function registerBenchMetrics(program: Command): void {
  longmemevalCommand(program)
    .command('metrics')
    .description('Print the official QA metrics of a judged LongMemEval run.')
    .requiredOption('--data <file>', 'LongMemEval file (oracle, S or M; plain or .gz)')
    .requiredOption('--run <file>', 'judged run (official eval-results JSON Lines)')
    .addOption(
      new Option('--format <format>', 'output format')
        .choices([...metricsFormats])
        .default('table'),
    )
    .option('--out <file>', 'write the metrics to a file instead of stdout (its folder is created)')
    .addHelpText('after', example)
    .action(async (flags: MetricsFlags) => {
      if (flags.out !== undefined) prepareOutputFile(flags.out);
      const score = await scoreRunFile(flags.run, flags.data);
      const text = formatScore(score, flags.format);
      if (flags.out) {
        writeFileSync(flags.out, text);
        process.stdout.write(`wrote ${flags.out}\n`);
      } else {
        process.stdout.write(text);
      }
      for (const note of scoreNotes(score, flags.format)) process.stderr.write(`${note}\n`);
    });
}

const percent = (value: number) => (value * 100).toFixed(1);

/** The metrics of a run in one of the output formats, ending with a newline. */
export function formatScore(score: RunScore, format: MetricsFormat): string {
  const { metrics } = score;
  if (format === 'json') {
    return `${JSON.stringify({ ...metrics, judgeModels: score.judgeModels, missingIds: score.missingIds }, null, 2)}\n`;
  }
  if (format === 'official') return `${qaMetricsText(metrics)}\n`;
  if (format === 'markdown') return `${qaMetricsMarkdown([{ name: 'run', metrics }])}\n`;
  return `${metricsTable(metrics)}\n`;
}

/** The metrics as a plain-text table, the official types first and in their order. */
function metricsTable(metrics: QaMetrics): string {
  const rows = qaMetricsLines(questionTypesOf(metrics)).map((line) => {
    const { share, n } = line.figure(metrics);
    return [line.label, String(n), share === null ? '-' : percent(share)];
  });
  return [
    formatTable(
      [
        { header: 'metric' },
        { header: 'n', align: 'right' },
        { header: 'accuracy %', align: 'right' },
      ],
      rows,
    ),
    '',
    `abstention: ${metrics.abstention.correct}/${metrics.abstention.n} correct; false abstention: ${metrics.falseAbstentions} of ${metrics.n - metrics.abstention.n} answerable${metrics.addedFalseAbstentions ? ` (${metrics.addedFalseAbstentions} added by the detector)` : ''}`,
  ].join('\n');
}

/**
 * Lines for stderr about what the figures rest on: the judge, and ids left out; with the official
 * format, also the false-abstention rate that the official lines leave out.
 */
export function scoreNotes(score: RunScore, format: MetricsFormat): string[] {
  const notes: string[] = [];
  if (format === 'official') notes.push(falseAbstentionLine(score.metrics));
  const others = score.judgeModels.filter((model) => model !== DEFAULT_JUDGE_MODEL);
  if (others.length) {
    notes.push(
      `note: labels from ${score.judgeModels.join(', ')}; the official figures use ${DEFAULT_JUDGE_MODEL}`,
    );
  }
  if (score.missingIds.length) {
    notes.push(
      `note: left out ${score.missingIds.length} ids not in the data: ${formatIdList(score.missingIds)}`,
    );
  }
  return notes;
}
