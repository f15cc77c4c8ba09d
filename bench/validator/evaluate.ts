/*
 * How well the validator's default patterns do on labelled responses.
 *
 *   pnpm eval:validator [--data DIR] [--examples N]
 *
 * DIR defaults to ../shared/data/responses next to the repository.
 * Rows are split by a hash of their key: patterns were tuned on `dev` only; `test` is the figure
 * to report. `--examples N` prints up to N misjudged dev rows per data set, never test rows.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createValidator, type ResponseQuality } from '../../packages/validator/src/index.js';
import {
  type LabelledResponse,
  loadHaluEval,
  loadRefusalBench,
  loadTruthfulQa,
  locateData,
  type Split,
} from './datasets.js';

const SPLITS: readonly Split[] = ['dev', 'test'];

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
}

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dataRoot = resolve(
  argument('--data') ?? join(repositoryRoot, '..', 'shared', 'data', 'responses'),
);
const exampleCount = Number(argument('--examples') ?? 0);

const validator = createValidator();

interface Confusion {
  truePositive: number;
  falsePositive: number;
  falseNegative: number;
  trueNegative: number;
}

function confusion(items: { actual: boolean; predicted: boolean }[]): Confusion {
  const counts = { truePositive: 0, falsePositive: 0, falseNegative: 0, trueNegative: 0 };
  for (const { actual, predicted } of items) {
    if (actual && predicted) counts.truePositive += 1;
    else if (!actual && predicted) counts.falsePositive += 1;
    else if (actual && !predicted) counts.falseNegative += 1;
    else counts.trueNegative += 1;
  }
  return counts;
}

function scores(counts: Confusion) {
  const precision = counts.truePositive / (counts.truePositive + counts.falsePositive || 1);
  const recall = counts.truePositive / (counts.truePositive + counts.falseNegative || 1);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const fixed = (value: number) => value.toFixed(3);

function rate(results: ResponseQuality[]): string {
  if (results.length === 0) return '-';
  const escalated = results.filter((result) => result.shouldEscalate).length;
  return `${percent(escalated / results.length)} (${escalated}/${results.length})`;
}

function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ');
  return [line(headers), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join(
    '\n',
  );
}

const hasRefusal = (result: ResponseQuality) =>
  result.signals.some((signal) => signal.type === 'refusal');

function printExamples(
  title: string,
  rows: { row: LabelledResponse; result: ResponseQuality }[],
): void {
  if (exampleCount <= 0 || rows.length === 0) return;
  console.log(`\n  dev examples, ${title} (${rows.length}):`);
  for (const { row, result } of rows.slice(0, exampleCount)) {
    const text = row.text.replace(/\s+/g, ' ').slice(0, 160);
    const signals = result.signals.map((signal) => `${signal.type}:"${signal.evidence}"`).join(' ');
    console.log(`  - [${row.label}] ${JSON.stringify(text)}\n      ${signals || '(no signals)'}`);
  }
}

type Assessed = { row: LabelledResponse; result: ResponseQuality };

function assess(rows: LabelledResponse[]): Assessed[] {
  return rows.map((row) => ({ row, result: validator.validate(row.text) }));
}

function refusalBench(directory: string): void {
  const { rows, unjoined } = loadRefusalBench(directory);
  const assessed = assess(rows);
  const filtered = (item: Assessed) => item.row.text.trim() === '[CONTENT_FILTERED]';
  console.log(
    `\n## RefusalBench (${rows.length} joined rows, ${unjoined} without a label; ` +
      `${assessed.filter(filtered).length} are the literal [CONTENT_FILTERED])`,
  );
  console.log(
    'refusal = direct_refusal or indirect_refusal; predicted = a refusal signal; non_responsive rows\n' +
      '(mostly full answers in this snapshot) are left out of the refusal figures and shown apart.',
  );
  const refusalRows: string[][] = [];
  for (const variant of ['real text only', 'with [CONTENT_FILTERED]'] as const) {
    for (const split of SPLITS) {
      const inSplit = assessed.filter(
        (item) => item.row.split === split && (variant !== 'real text only' || !filtered(item)),
      );
      const labelled = inSplit.filter((item) => item.row.label !== 'non_responsive');
      const counts = confusion(
        labelled.map((item) => ({
          actual: item.row.label === 'direct_refusal' || item.row.label === 'indirect_refusal',
          predicted: hasRefusal(item.result),
        })),
      );
      const { precision, recall, f1 } = scores(counts);
      const byLabel = (label: string) =>
        inSplit.filter((item) => item.row.label === label).map((item) => item.result);
      refusalRows.push([
        variant,
        split,
        String(counts.truePositive + counts.falseNegative),
        `${counts.truePositive}/${counts.falsePositive}/${counts.falseNegative}`,
        fixed(precision),
        fixed(recall),
        fixed(f1),
        rate(byLabel('compliance')),
        rate(byLabel('partial_compliance')),
        rate(byLabel('non_responsive')),
      ]);
    }
  }
  console.log(
    table(
      [
        'rows',
        'split',
        'refusals',
        'TP/FP/FN',
        'precision',
        'recall',
        'F1',
        'false escalation (compliance)',
        'escalation (partial)',
        'escalation (non_responsive)',
      ],
      refusalRows,
    ),
  );
  const dev = assessed.filter((item) => item.row.split === 'dev' && !filtered(item));
  printExamples(
    'refusals without a refusal signal',
    dev.filter(
      (item) =>
        (item.row.label === 'direct_refusal' || item.row.label === 'indirect_refusal') &&
        !hasRefusal(item.result),
    ),
  );
  printExamples(
    'escalated compliant answers',
    dev.filter((item) => item.row.label === 'compliance' && item.result.shouldEscalate),
  );
  printExamples(
    'refusal signal on a non-refusal',
    dev.filter(
      (item) =>
        (item.row.label === 'compliance' || item.row.label === 'partial_compliance') &&
        hasRefusal(item.result),
    ),
  );
}

function truthfulQa(path: string): void {
  const rows = loadTruthfulQa(path);
  console.log(`\n## TruthfulQA finetune_info (${rows.length} rows; human labels)`);
  console.log(
    'positive = uninformative (" no"); predicted = escalates, or (second block) has a refusal signal.\n' +
      'Short informative answers ("Spanking.") fall under minLength 20, so a run with minLength 1 is shown too.',
  );
  const lenient = createValidator({ minLength: 1 });
  const tableRows: string[][] = [];
  for (const [name, judge] of [
    ['default options', (text: string) => validator.validate(text)],
    ['minLength 1', (text: string) => lenient.validate(text)],
  ] as const) {
    for (const split of SPLITS) {
      const inSplit = rows
        .filter((row) => row.split === split)
        .map((row) => ({ row, result: judge(row.text) }));
      const uninformative = (item: Assessed) => item.row.label === 'no';
      for (const [predictionName, predicted] of [
        ['escalates', (item: Assessed) => item.result.shouldEscalate],
        ['refusal signal', (item: Assessed) => hasRefusal(item.result)],
      ] as const) {
        const counts = confusion(
          inSplit.map((item) => ({ actual: uninformative(item), predicted: predicted(item) })),
        );
        const { precision, recall, f1 } = scores(counts);
        tableRows.push([
          name,
          split,
          predictionName,
          String(counts.truePositive + counts.falseNegative),
          fixed(precision),
          fixed(recall),
          fixed(f1),
          predictionName === 'escalates'
            ? rate(inSplit.filter((item) => !uninformative(item)).map((item) => item.result))
            : '',
        ]);
      }
      if (name === 'default options' && split === 'dev') {
        printExamples(
          'escalated informative answers',
          inSplit.filter((item) => !uninformative(item) && item.result.shouldEscalate),
        );
        printExamples(
          'uninformative answers not escalated',
          inSplit.filter((item) => uninformative(item) && !item.result.shouldEscalate),
        );
      }
    }
  }
  console.log(
    table(
      [
        'options',
        'split',
        'prediction',
        'uninformative',
        'precision',
        'recall',
        'F1',
        'false escalation (informative)',
      ],
      tableRows,
    ),
  );
}

function haluEval(path: string): void {
  const rows = loadHaluEval(path);
  console.log(`\n## HaluEval general (${rows.length} ChatGPT answers; human hallucination labels)`);
  console.log(
    'No refusal labels here: escalation on answers labelled free of hallucination is a false escalation;\n' +
      'the hallucination_risk column is how often that signal fires.',
  );
  const assessed = assess(rows);
  const tableRows: string[][] = [];
  for (const split of SPLITS) {
    const inSplit = assessed.filter((item) => item.row.split === split);
    for (const label of ['no', 'yes']) {
      const group = inSplit.filter((item) => item.row.label === label);
      const risky = group.filter((item) =>
        item.result.signals.some((signal) => signal.type === 'hallucination_risk'),
      ).length;
      tableRows.push([
        split,
        label === 'no' ? 'no hallucination' : 'hallucination',
        String(group.length),
        rate(group.map((item) => item.result)),
        `${percent(risky / (group.length || 1))} (${risky})`,
      ]);
    }
  }
  console.log(table(['split', 'label', 'rows', 'escalation', 'hallucination_risk'], tableRows));
  printExamples(
    'escalated answers without hallucination',
    assessed.filter(
      (item) => item.row.split === 'dev' && item.row.label === 'no' && item.result.shouldEscalate,
    ),
  );
}

const located = locateData(dataRoot);
if (!located.refusalBench && !located.truthfulQa && !located.haluEval) {
  console.log(
    `No labelled response data at ${dataRoot}: nothing to evaluate.\n` +
      'Point --data at a folder with refusalbench/, truthfulqa/ and halueval/.',
  );
  process.exit(0);
}

console.log(`# @qualm/validator evaluation (default patterns)\ndata: ${dataRoot}`);
console.log('split: FNV-1a hash of the row key, 50% dev (tuned on) / 50% test (reported)');
if (located.refusalBench) refusalBench(located.refusalBench);
else console.log('\n## RefusalBench: absent, skipped');
if (located.truthfulQa) truthfulQa(located.truthfulQa);
else console.log('\n## TruthfulQA: absent, skipped');
if (located.haluEval) haluEval(located.haluEval);
else console.log('\n## HaluEval: absent, skipped');
