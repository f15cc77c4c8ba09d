import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { withoutByteOrderMark } from '@qualm/errors';
import { z } from 'zod';
import { type ChartSpec, renderSvg, shareEncoding } from '../charts.js';
import { BenchmarkError, BenchmarkErrorCode } from '../errors.js';
import {
  type CalibrationReport,
  calibrationTable,
  markdownTable,
  tradeoffChart,
} from './calibration.js';
import type { QaMetrics } from './qa-metrics.js';
import {
  loadQuestionTypes,
  qaMetricsMarkdown,
  qaMetricsRows,
  questionTypesOf,
  readEvalResults,
  scoreEvalResults,
} from './run-metrics.js';
import { formatIssues } from './schema.js';

/** One judged run in a report. */
export interface ReportRun {
  /** A short name, from the file name. */
  name: string;
  path: string;
  metrics: QaMetrics;
  judgeModels: string[];
  /** Ids of the run that the data lacks; left out of the metrics. */
  missingIds: string[];
}

/** A chart of the report, as its Vega-Lite specification and the SVG rendered from it. */
export interface ReportChart {
  /** `accuracy`, `abstention` or `tradeoff`; the SVG file is `<name>.svg`. */
  name: string;
  title: string;
  spec: ChartSpec;
  svg: string;
}

/** Options of {@link writeLongMemEvalReport}. */
export interface LongMemEvalReportOptions {
  /** Judged runs in the official eval-results format, compared side by side. */
  runPaths: readonly string[];
  /** The LongMemEval file the runs answer (for question types). */
  dataPath: string;
  /** Folder to write `index.html`, `report.md` and the SVG charts into. */
  outDirectory: string;
  /** A `qualm bench longmemeval calibrate` output folder (with `calibration.json`). */
  calibrationDirectory?: string;
  title?: string;
}

/** What {@link writeLongMemEvalReport} wrote. */
export interface LongMemEvalReport {
  title: string;
  dataPath: string;
  runs: ReportRun[];
  calibration?: CalibrationReport;
  charts: ReportChart[];
  /** Paths of the files written. */
  files: string[];
}

/**
 * Compares judged LongMemEval runs in one self-contained HTML page (`index.html`: inline SVG and
 * CSS, no script, no external request) and in Markdown (`report.md`), with the charts also written
 * as SVG files: per-type accuracy bars of each run, abstention accuracy against the
 * false-abstention rate, and, given a calibration folder, its trade-off curve. Charts are Vega-Lite
 * specifications rendered headless by {@link renderSvg}.
 */
export async function writeLongMemEvalReport(
  options: LongMemEvalReportOptions,
): Promise<LongMemEvalReport> {
  if (options.runPaths.length === 0) {
    throw new BenchmarkError(BenchmarkErrorCode.INVALID_CONFIG, 'a report needs at least one run');
  }
  // the folder first, so that an output that cannot be written fails before any work
  await mkdir(options.outDirectory, { recursive: true });
  const questionTypes = await loadQuestionTypes(options.dataPath);
  const names = runNames(options.runPaths);
  const runs: ReportRun[] = [];
  for (const [index, path] of options.runPaths.entries()) {
    const entries = await readEvalResults(path);
    if (entries.length === 0) {
      throw new BenchmarkError(
        BenchmarkErrorCode.NOTHING_TO_DO,
        `${path} holds no judged answers: each line should be {"question_id", "hypothesis", "autoeval_label"}`,
      );
    }
    const score = scoreEvalResults(entries, questionTypes);
    if (score.metrics.n === 0) {
      throw new BenchmarkError(
        BenchmarkErrorCode.NOTHING_TO_DO,
        `none of the ${entries.length} question ids of ${path} is in ${options.dataPath} (first: ${entries[0]?.question_id}); is it a run on another data file?`,
      );
    }
    runs.push({
      name: names[index] ?? path,
      path,
      metrics: score.metrics,
      judgeModels: score.judgeModels,
      missingIds: score.missingIds,
    });
  }
  const calibration = options.calibrationDirectory
    ? await readCalibrationReport(options.calibrationDirectory)
    : undefined;
  const specs: Omit<ReportChart, 'svg'>[] = [
    { name: 'accuracy', title: 'Accuracy by question type', spec: accuracyChart(runs) },
    {
      name: 'abstention',
      title: 'Abstention accuracy against false abstention',
      spec: abstentionChart(runs),
    },
  ];
  if (calibration) {
    specs.push({
      name: 'tradeoff',
      title: 'Calibration trade-off (holdout half)',
      spec: tradeoffChart(calibration),
    });
  }
  const charts: ReportChart[] = [];
  for (const chart of specs) charts.push({ ...chart, svg: await renderSvg(chart.spec) });
  const report: LongMemEvalReport = {
    title: options.title ?? 'LongMemEval runs compared',
    dataPath: options.dataPath,
    runs,
    ...(calibration ? { calibration } : {}),
    charts,
    files: [],
  };
  const files: string[] = [];
  const write = async (name: string, text: string) => {
    const path = join(options.outDirectory, name);
    await writeFile(path, text);
    files.push(path);
  };
  await write('index.html', reportHtml(report));
  await write('report.md', reportMarkdown(report));
  for (const chart of charts) await write(`${chart.name}.svg`, chart.svg);
  report.files = files;
  return report;
}

/** Short names for runs: the file name without `.gz`, `.eval-results…` and `.jsonl`, made unique. */
export function runNames(paths: readonly string[]): string[] {
  const counts = new Map<string, number>();
  return paths.map((path) => {
    const name =
      basename(path)
        .replace(/\.gz$/, '')
        .replace(/\.eval-results.*$/, '')
        .replace(/\.jsonl?$/, '') || path;
    const count = (counts.get(name) ?? 0) + 1;
    counts.set(name, count);
    return count === 1 ? name : `${name} (${count})`;
  });
}

const chartSchema = 'https://vega.github.io/schema/vega-lite/v6.json';

// a colour per run in the runs' order, the legend below the chart with the names in full
function runColor(runs: readonly ReportRun[]) {
  return {
    field: 'run',
    type: 'nominal' as const,
    title: 'run',
    sort: runs.map((run) => run.name),
    legend: { orient: 'bottom' as const, direction: 'vertical' as const, labelLimit: 600 },
  };
}

/** Grouped bars: accuracy per question type, task-averaged and overall, one bar per run. */
export function accuracyChart(runs: readonly ReportRun[]): ChartSpec {
  const categories = [
    ...new Set(
      runs.flatMap((run) =>
        questionTypesOf(run.metrics).filter((type) => run.metrics.byType[type]),
      ),
    ),
  ];
  const order = [...categories, 'task-averaged', 'overall'];
  const values = runs.flatMap((run) => [
    ...categories.flatMap((type) => {
      const counts = run.metrics.byType[type];
      return counts
        ? [{ run: run.name, category: type, accuracy: counts.accuracy, n: counts.n }]
        : [];
    }),
    ...(run.metrics.taskAveraged === null
      ? []
      : [
          {
            run: run.name,
            category: 'task-averaged',
            accuracy: run.metrics.taskAveraged,
            n: run.metrics.n,
          },
        ]),
    { run: run.name, category: 'overall', accuracy: run.metrics.overall, n: run.metrics.n },
  ]);
  return {
    $schema: chartSchema,
    title: 'Accuracy by question type',
    width: Math.max(360, order.length * (runs.length * 14 + 16)),
    height: 260,
    data: { values },
    mark: { type: 'bar', tooltip: true },
    encoding: {
      x: {
        field: 'category',
        type: 'nominal',
        sort: order,
        title: null,
        axis: { labelAngle: -30, labelLimit: 240 },
      },
      xOffset: { field: 'run', type: 'nominal', sort: runs.map((run) => run.name) },
      y: shareEncoding('accuracy', 'accuracy'),
      color: runColor(runs),
      tooltip: [
        { field: 'run' },
        { field: 'category' },
        { field: 'accuracy', format: '.1%' },
        { field: 'n' },
      ],
    },
  };
}

/** A point per run: abstention accuracy (on `_abs` questions) against the false-abstention rate. */
export function abstentionChart(runs: readonly ReportRun[]): ChartSpec {
  const values = runs.map((run) => ({
    run: run.name,
    falseAbstentionRate: run.metrics.falseAbstentionRate,
    abstentionAccuracy: run.metrics.abstention.accuracy,
    abstentionN: run.metrics.abstention.n,
  }));
  const largest = Math.max(0, ...values.map((value) => value.falseAbstentionRate));
  return {
    $schema: chartSchema,
    title: 'Abstention accuracy against false abstention',
    width: 360,
    height: 260,
    data: { values },
    encoding: {
      x: {
        field: 'falseAbstentionRate',
        type: 'quantitative',
        title: 'false-abstention rate (answerable questions)',
        axis: { format: '.1%' },
        scale: { domain: [0, Math.max(0.05, largest * 1.25)] },
      },
      y: shareEncoding('abstentionAccuracy', 'abstention accuracy (_abs questions)'),
      color: runColor(runs),
    },
    layer: [
      {
        mark: { type: 'point', filled: true, size: 120, tooltip: true },
        encoding: {
          tooltip: [
            { field: 'run' },
            { field: 'abstentionAccuracy', format: '.1%' },
            { field: 'abstentionN', title: 'n' },
            { field: 'falseAbstentionRate', format: '.2%' },
          ],
        },
      },
      {
        mark: { type: 'text', align: 'left', dx: 8, dy: -6, fontSize: 10 },
        encoding: { text: { field: 'run' } },
      },
    ],
  };
}

const metricsSchema = z.object({
  n: z.number(),
  overall: z.number(),
  taskAveraged: z.number().nullable(),
  abstention: z.object({ accuracy: z.number(), correct: z.number(), n: z.number() }),
  falseAbstentionRate: z.number(),
  addedFalseAbstentionRate: z.number(),
  falseAbstentions: z.number(),
  addedFalseAbstentions: z.number(),
  byType: z.record(z.string(), z.object({ accuracy: z.number(), n: z.number() })),
});

const methodSchema = z.enum(['coverage-detector', 'score-threshold']);

const calibrationSchema = z.object({
  objective: z.string(),
  maxFalseAbstentionRate: z.number(),
  answers: z.object({ tune: z.number(), holdout: z.number() }),
  baseline: z.object({ tune: metricsSchema, holdout: metricsSchema }),
  choices: z.array(
    z.object({
      method: methodSchema,
      threshold: z.number(),
      minScoreGap: z.number().optional(),
      tune: metricsSchema,
      holdout: metricsSchema,
      runs: z.array(
        z.object({ runPath: z.string(), baseline: metricsSchema, detector: metricsSchema }),
      ),
    }),
  ),
  curve: z.array(
    z.object({
      method: methodSchema,
      threshold: z.number(),
      minScoreGap: z.number().optional(),
      split: z.enum(['tune', 'holdout']),
      overall: z.number(),
      abstentionAccuracy: z.number(),
      addedFalseAbstentionRate: z.number(),
      accuracyGain: z.number(),
    }),
  ),
});

/** Reads `calibration.json` from a `qualm bench longmemeval calibrate` output folder, validated. */
export async function readCalibrationReport(directory: string): Promise<CalibrationReport> {
  const path = join(directory, 'calibration.json');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new BenchmarkError(
      BenchmarkErrorCode.FILE_NOT_FOUND,
      `no calibration.json in ${directory} (give the folder written by qualm bench longmemeval calibrate --out)`,
      { cause: error },
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(withoutByteOrderMark(text));
  } catch (error) {
    throw new BenchmarkError(
      BenchmarkErrorCode.INVALID_INPUT,
      `${path} is not valid JSON (${(error as Error).message})`,
    );
  }
  const result = calibrationSchema.safeParse(value);
  if (!result.success) {
    throw new BenchmarkError(
      BenchmarkErrorCode.INVALID_INPUT,
      `${path}: ${formatIssues(result.error.issues)}`,
      { cause: result.error },
    );
  }
  return result.data as CalibrationReport;
}

/** The report as Markdown, with the charts as images beside it (`accuracy.svg`, …). */
export function reportMarkdown(report: LongMemEvalReport): string {
  const lines = [`# ${report.title}`, '', `Data: \`${report.dataPath}\``, '', '## Runs', ''];
  for (const run of report.runs) lines.push(`- **${run.name}**: ${runLine(run)}`);
  lines.push('', '## Accuracy', '', qaMetricsMarkdown(report.runs), '');
  for (const chart of report.charts) {
    if (chart.name === 'tradeoff') continue;
    lines.push(`![${chart.title}](${chart.name}.svg)`, '');
  }
  if (report.calibration) {
    lines.push('## Calibration', '', `Objective: ${report.calibration.objective}.`, '');
    lines.push(...markdownTable(calibrationTable(report.calibration, { tune: false })));
    lines.push('', '![Calibration trade-off](tradeoff.svg)', '');
  }
  return lines.join('\n');
}

function runLine(run: ReportRun): string {
  const parts = [
    `\`${run.path}\``,
    `${run.metrics.n} judged answers`,
    `judge ${run.judgeModels.join(', ') || '–'}`,
  ];
  if (run.missingIds.length) parts.push(`${run.missingIds.length} ids not in the data, left out`);
  return parts.join('; ');
}

const escapeHtml = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');

// several SVGs in one page share an id space: give each chart's ids a prefix of its own
function inlineSvg(svg: string, prefix: string): string {
  return svg
    .replace(/^<\?xml[^>]*>\s*/, '')
    .replaceAll(/\bid="([^"]+)"/g, `id="${prefix}-$1"`)
    .replaceAll(/url\(#([^)]+)\)/g, `url(#${prefix}-$1)`)
    .replaceAll(/href="#([^"]+)"/g, `href="#${prefix}-$1"`);
}

function htmlTable({ header, rows }: { header: string[]; rows: string[][] }): string {
  const head = header.map(
    (cell, index) => `<th${index ? ' class="n"' : ''}>${escapeHtml(cell)}</th>`,
  );
  const body = rows.map(
    (row) =>
      `<tr>${row.map((cell, index) => `<td${index ? ' class="n"' : ''}>${escapeHtml(cell)}</td>`).join('')}</tr>`,
  );
  return `<table><thead><tr>${head.join('')}</tr></thead><tbody>${body.join('')}</tbody></table>`;
}

function metricsRows(runs: readonly ReportRun[]): string[][] {
  const types = [...new Set(runs.flatMap((run) => questionTypesOf(run.metrics)))].filter((type) =>
    runs.some((run) => run.metrics.byType[type]),
  );
  return qaMetricsRows(runs, types);
}

const styles = `
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1b1f24;margin:0;background:#fafafa}
main{max-width:1100px;margin:0 auto;padding:24px 32px 48px;background:#fff}
h1{font-size:26px;margin:0 0 4px}h2{font-size:19px;margin:32px 0 8px;border-bottom:1px solid #e3e6ea;padding-bottom:4px}
code{font:13px ui-monospace,Menlo,Consolas,monospace;background:#f2f4f6;padding:1px 4px;border-radius:3px}
table{border-collapse:collapse;margin:12px 0;font-size:14px}
th,td{padding:4px 10px;border-bottom:1px solid #e3e6ea;text-align:left}
th.n,td.n{text-align:right;font-variant-numeric:tabular-nums}
figure{margin:12px 0;overflow-x:auto}figure svg{max-width:none;height:auto}
ul.runs{padding-left:20px}p.note{color:#57606a;font-size:13px}
`;

/** The report as one self-contained HTML page: inline CSS and SVG, no script, no external request. */
export function reportHtml(report: LongMemEvalReport): string {
  const figure = (name: string) => {
    const chart = report.charts.find((candidate) => candidate.name === name);
    if (!chart) return '';
    return `<figure id="${name}-chart" data-chart="${name}">${inlineSvg(chart.svg, name)}</figure>`;
  };
  const runs = report.runs
    .map(
      (run) =>
        `<li><strong>${escapeHtml(run.name)}</strong>: <code>${escapeHtml(run.path)}</code>, ${run.metrics.n} judged answers, judge ${escapeHtml(run.judgeModels.join(', ') || '–')}${run.missingIds.length ? `, ${run.missingIds.length} ids not in the data left out` : ''}</li>`,
    )
    .join('');
  const sections = [
    `<h1>${escapeHtml(report.title)}</h1>`,
    `<p>Data: <code>${escapeHtml(report.dataPath)}</code></p>`,
    `<h2>Runs</h2><ul class="runs">${runs}</ul>`,
    '<h2>Accuracy</h2>',
    figure('accuracy'),
    htmlTable({
      header: ['metric', ...report.runs.map((run) => run.name)],
      rows: metricsRows(report.runs),
    }),
    '<p class="note">Per-type, task-averaged, overall and abstention accuracy as the official print_qa_metrics.py computes them; the false-abstention rate is the share of answerable questions whose answer says it cannot answer.</p>',
    '<h2>Abstention</h2>',
    figure('abstention'),
  ];
  if (report.calibration) {
    sections.push(
      '<h2>Calibration</h2>',
      `<p>Objective: ${escapeHtml(report.calibration.objective)}.</p>`,
      htmlTable(calibrationTable(report.calibration, { tune: false })),
      figure('tradeoff'),
    );
  }
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${escapeHtml(report.title)}</title>
<style>${styles}</style>
</head>
<body>
<main>
${sections.join('\n')}
</main>
</body>
</html>
`;
}
