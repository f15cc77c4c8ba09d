import { type LongMemEvalReport, writeLongMemEvalReport } from '@qualm/benchmark';
import { type Command, Option } from 'commander';
import { formatTable, prepareOutputFolder } from '../io.js';
import { longmemevalCommand } from './longmemeval-group.js';

interface ReportFlags {
  run: string[];
  data: string;
  out: string;
  calibration?: string;
  title?: string;
  format: 'table' | 'json';
}

const example = `
Compares judged runs side by side in one self-contained HTML page (index.html: inline SVG and CSS,
no script, nothing fetched) and in Markdown (report.md), with the charts also written as SVG files:
accuracy per question type of each run, abstention accuracy against the false-abstention rate, and,
with --calibration, the trade-off curve of a calibrate run. The charts are Vega-Lite
specifications rendered to SVG without a browser.

Examples:
  qualm bench longmemeval report --data longmemeval_oracle.json \\
    --run oracle_con.eval-results.jsonl oracle_cot.eval-results.jsonl --out report/
  qualm bench longmemeval report --data longmemeval_oracle.json --run oracle_cot.eval-results.jsonl \\
    --calibration calibration/ --out report/ --title "Llama 3.1 8B on the oracle history"`;

/** Registers `qualm bench longmemeval report`. */
export function registerBenchReport(program: Command): void {
  longmemevalCommand(program)
    .command('report')
    .description(
      'Write an HTML and Markdown report comparing judged LongMemEval runs, with charts.',
    )
    .requiredOption('--data <file>', 'LongMemEval file the runs answer (oracle, S or M)')
    .requiredOption('--run <files...>', 'judged runs (official eval-results JSON Lines)')
    .requiredOption(
      '--out <dir>',
      'folder for index.html, report.md and the SVG charts (created when missing)',
    )
    .option('--calibration <dir>', 'a calibrate output folder (with calibration.json)')
    .option('--title <text>', 'title of the report')
    .addOption(
      new Option('--format <format>', 'format of the summary printed')
        .choices(['table', 'json'])
        .default('table'),
    )
    .addHelpText('after', example)
    .action(async (flags: ReportFlags) => {
      prepareOutputFolder(flags.out);
      const report = await writeLongMemEvalReport({
        runPaths: flags.run,
        dataPath: flags.data,
        outDirectory: flags.out,
        ...(flags.calibration ? { calibrationDirectory: flags.calibration } : {}),
        ...(flags.title ? { title: flags.title } : {}),
      });
      if (flags.format === 'json') {
        process.stdout.write(
          `${JSON.stringify({
            runs: report.runs,
            charts: report.charts.map((chart) => chart.name),
            files: report.files,
          })}\n`,
        );
        return;
      }
      process.stdout.write(`${summary(report)}\n\nwrote ${report.files.join(', ')}\n`);
    });
}

// a figure that cannot be computed (a task average without every type) shows as in metrics
const percent = (value: number | null) => (value === null ? '-' : (value * 100).toFixed(1));

function summary(report: LongMemEvalReport): string {
  return formatTable(
    [
      { header: 'run' },
      { header: 'n', align: 'right' },
      { header: 'overall %', align: 'right' },
      { header: 'task-averaged %', align: 'right' },
      { header: 'abstention', align: 'right' },
      { header: 'false abstention %', align: 'right' },
    ],
    report.runs.map((run) => [
      run.name,
      String(run.metrics.n),
      percent(run.metrics.overall),
      percent(run.metrics.taskAveraged),
      `${run.metrics.abstention.correct}/${run.metrics.abstention.n}`,
      percent(run.metrics.falseAbstentionRate),
    ]),
  );
}
