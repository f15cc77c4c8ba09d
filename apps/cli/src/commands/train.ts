import { renameSync, writeFileSync } from 'node:fs';
import { type LabelReport, SIGNAL_TYPES, type TrainingExample, trainModel } from '@qualm/validator';
import { type Command, Option } from 'commander';
import { CliError, CliErrorCode } from '../errors.js';
import {
  formatTable,
  inputName,
  noteTerminalInput,
  parseNumberOption,
  prepareOutputFile,
  readJsonLines,
} from '../io.js';
import { Progress } from '../progress.js';

interface TrainFlags {
  input: string;
  textField: string;
  labelField: string;
  groupField?: string;
  out: string;
  testSplit: string;
  epochs?: string;
  learningRate?: string;
  seed?: string;
  threshold?: string;
  window?: string;
  bits?: string;
  format: 'table' | 'json';
}

const LABELS = ['none', ...SIGNAL_TYPES];

const example = `
Each line of the input is a JSON object with the response text and its label, one of
  none (an answer to trust), ${SIGNAL_TYPES.slice(0, 3).join(', ')},
  ${SIGNAL_TYPES.slice(3).join(', ')}.
Rows sharing a --group-field value (a prompt, a question) stay on one side of the split; without
it, identical texts do.

Examples:
  qualm train --input labelled.jsonl --text-field response --label-field label --out support.qlm
  qualm train --input labelled.jsonl --text-field answer --label-field verdict \\
      --group-field question_id --test-split 0.3 --epochs 8 --out support.qlm --format json
  qualm validate answers.jsonl --jsonl --model support.qlm

Training is deterministic: the same rows and settings give the same model bytes. The model is
trained on the training side of the split and written to --out; --test-split 0 trains on every row
(and reports nothing). Each label needs at least 10 rows in the file and 10 on the training side:
a split that leaves fewer is refused, naming the label, its rows on each side and the largest
--test-split that keeps enough. A label with no held-out rows shows "-" for its recall and F1 (and
for precision when nothing was predicted as it): there was nothing to measure.

Exit status: 0, or 2 on bad input (an unknown label, an empty file, a label with fewer than 10
rows in the file or on the training side).`;

/** Reads the labelled rows of a JSON Lines file, naming the line of any problem. */
async function readExamples(path: string, flags: TrainFlags): Promise<TrainingExample[]> {
  const examples: TrainingExample[] = [];
  const source = inputName(path);
  for await (const { lineNumber, value } of readJsonLines(path)) {
    const record = value as Record<string, unknown>;
    const where = `${source}:${lineNumber}`;
    const text = record[flags.textField];
    if (typeof text !== 'string') {
      throw new CliError(
        CliErrorCode.INVALID_INPUT,
        `${where} the field "${flags.textField}" must hold the response text as a string${text === undefined ? ' (it is missing)' : ''}`,
      );
    }
    const label = record[flags.labelField];
    if (typeof label !== 'string' || !LABELS.includes(label)) {
      const problem =
        label === undefined
          ? `the field "${flags.labelField}" is missing`
          : `the label ${JSON.stringify(label)} is not a signal type or none`;
      throw new CliError(
        CliErrorCode.INVALID_INPUT,
        `${where} ${problem} (labels: ${LABELS.join(', ')})`,
      );
    }
    let group: string | undefined;
    if (flags.groupField !== undefined) {
      const value = record[flags.groupField];
      if (typeof value !== 'string' && typeof value !== 'number') {
        throw new CliError(
          CliErrorCode.INVALID_INPUT,
          `${where} the group field "${flags.groupField}" must be a string or a number`,
        );
      }
      group = String(value);
    }
    examples.push({ text, label, ...(group !== undefined ? { group } : {}) });
  }
  if (examples.length === 0) {
    throw new CliError(CliErrorCode.NOTHING_TO_DO, `${source} has no rows to train on`);
  }
  return examples;
}

function integer(name: string, raw: string | undefined, min: number, max: number) {
  return raw === undefined ? undefined : parseNumberOption(name, raw, { min, max, integer: true });
}

/** A share to three decimals, or `-` when no row went into it: 0 of 0 is not 0.000. */
function measured(rows: number, share: number): string {
  return rows === 0 ? '-' : share.toFixed(3);
}

function reportTable(report: LabelReport[]): string {
  return formatTable(
    [
      { header: 'label' },
      { header: 'test rows', align: 'right' },
      { header: 'predicted', align: 'right' },
      { header: 'precision', align: 'right' },
      { header: 'recall', align: 'right' },
      { header: 'F1', align: 'right' },
    ],
    report.map((entry) => [
      entry.label,
      String(entry.support),
      String(entry.predicted),
      measured(entry.predicted, entry.precision),
      measured(entry.support, entry.recall),
      measured(entry.support, entry.f1),
    ]),
  );
}

/** Registers `qualm train`. */
export function registerTrain(program: Command): void {
  program
    .command('train')
    .description(
      "Train a learned model on a team's own labelled responses, for qualm validate --model.",
    )
    .requiredOption('--input <file>', 'JSON Lines of labelled responses; - for stdin')
    .requiredOption('--text-field <name>', 'the field holding the response text')
    .requiredOption('--label-field <name>', 'the field holding the label: a signal type or none')
    .requiredOption('--out <file>', 'where to write the model')
    .option('--group-field <name>', 'rows sharing this field stay on one side of the split')
    .option(
      '--test-split <share>',
      'share of groups held out to measure the model, 0 to 0.9',
      '0.2',
    )
    .addOption(new Option('--epochs <n>', 'passes over the training rows').default(undefined, '5'))
    .addOption(new Option('--learning-rate <rate>', 'AdaGrad base step').default(undefined, '0.2'))
    .addOption(new Option('--seed <n>', 'seed of the row order').default(undefined, '1'))
    .addOption(
      new Option('--threshold <p>', 'probability at which a label becomes a signal').default(
        undefined,
        '0.5',
      ),
    )
    .addOption(
      new Option('--window <n>', 'characters of each response read, from its start').default(
        undefined,
        '600',
      ),
    )
    .addOption(
      new Option(
        '--bits <n>',
        'hash buckets per label, as a power of two; 18 is 256 KB a label',
      ).default(undefined, '18'),
    )
    .addOption(
      new Option('--format <format>', 'output format').choices(['table', 'json']).default('table'),
    )
    .addHelpText('after', example)
    .action(async (flags: TrainFlags) => {
      const testSplit = parseNumberOption('--test-split', flags.testSplit, { min: 0, max: 0.9 });
      const epochs = integer('--epochs', flags.epochs, 1, 1000);
      const seed = integer('--seed', flags.seed, 0, 2 ** 32 - 1);
      const window = integer('--window', flags.window, 1, 100_000);
      const bits = integer('--bits', flags.bits, 4, 24);
      const learningRate =
        flags.learningRate === undefined
          ? undefined
          : parseNumberOption('--learning-rate', flags.learningRate, { min: 1e-6, max: 100 });
      const threshold =
        flags.threshold === undefined
          ? undefined
          : parseNumberOption('--threshold', flags.threshold, { min: 0.01, max: 1 });
      prepareOutputFile(flags.out);
      noteTerminalInput(flags.input, 'labelled responses');
      const examples = await readExamples(flags.input, flags);
      const started = performance.now();
      const progress = new Progress('training, epoch', epochs ?? 5);
      const result = trainModel(examples, {
        testSplit,
        ...(epochs !== undefined ? { epochs } : {}),
        ...(seed !== undefined ? { seed } : {}),
        ...(learningRate !== undefined ? { learningRate } : {}),
        ...(threshold !== undefined ? { threshold } : {}),
        features: {
          ...(window !== undefined ? { window } : {}),
          ...(bits !== undefined ? { bits } : {}),
        },
        onEpoch: () => progress.tick(),
      });
      progress.finish();
      if (testSplit > 0 && result.testRows === 0) {
        process.stderr.write(
          `qualm: no ${flags.groupField !== undefined ? 'group' : 'row'} fell in the test split, so nothing was measured: give more ${flags.groupField !== undefined ? 'groups' : 'rows'} or a larger --test-split\n`,
        );
      }
      const seconds = (performance.now() - started) / 1000;
      // written beside the target and renamed, so an interrupted run never leaves half a model
      const partial = `${flags.out}.partial`;
      try {
        writeFileSync(partial, result.bytes);
        renameSync(partial, flags.out);
      } catch (error) {
        throw new CliError(
          CliErrorCode.INVALID_ARGUMENT,
          `cannot write the model to ${flags.out} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
          { cause: error },
        );
      }
      if (flags.format === 'json') {
        const document = {
          model: flags.out,
          bytes: result.bytes.length,
          labels: result.model.labels,
          threshold: result.model.threshold,
          trainRows: result.trainRows,
          testRows: result.testRows,
          seconds: Number(seconds.toFixed(3)),
          report: result.report,
        };
        process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
        return;
      }
      const lines = [
        `trained on ${result.trainRows} rows, measured on ${result.testRows} held-out rows (${seconds.toFixed(1)} s)`,
      ];
      if (result.report.length > 0) lines.push('', reportTable(result.report));
      lines.push(
        '',
        `wrote ${flags.out} (${(result.bytes.length / 1024).toFixed(0)} KB; labels ${result.model.labels.join(', ')}; threshold ${result.model.threshold})`,
      );
      process.stdout.write(`${lines.join('\n')}\n`);
    });
}
