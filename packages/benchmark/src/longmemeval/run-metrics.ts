import { looksBinary, withoutByteOrderMark } from '@qualm/errors';
import { z } from 'zod';
import { BenchmarkError, BenchmarkErrorCode } from '../errors.js';
import { openDataFile, streamLongMemEvalRecords } from './loader.js';
import { numpyRound, pythonFloatRepr } from './python-format.js';
import {
  computeQaMetrics,
  isExplicitAbstention,
  type JudgedAnswer,
  type QaMetrics,
  QUESTION_TYPES,
} from './qa-metrics.js';
import { formatIssues, longMemEvalQuestionKeySchema } from './schema.js';

/** A line of a hypotheses file: the official `{question_id, hypothesis}`, other fields kept. */
export const hypothesisLineSchema = z.looseObject({
  question_id: z.string().min(1),
  hypothesis: z.string(),
});

/** A line of an eval-results file: a hypothesis with the judge's label, other fields kept. */
export const evalResultLineSchema = z.looseObject({
  question_id: z.string().min(1),
  hypothesis: z.string(),
  autoeval_label: z.object({ model: z.string(), label: z.boolean() }),
  abstained: z.boolean().optional(),
  originalAnswer: z.string().optional(),
});

/** A line of a hypotheses file. */
export type HypothesisLine = z.infer<typeof hypothesisLineSchema>;

/** A line of an eval-results file. */
export type EvalResultLine = z.infer<typeof evalResultLineSchema>;

/**
 * Reads a run file, JSON Lines or one JSON array (as the harness accepts both; plain or gzip),
 * validating each record with the schema. A bad record, or a question id given twice, is an error
 * naming the file and the line (or the record's index in an array).
 */
export async function readRunRecords<Schema extends z.ZodType<{ question_id: string }>>(
  path: string,
  schema: Schema,
): Promise<z.output<Schema>[]> {
  const chunks: Buffer[] = [];
  const input = await openDataFile(path);
  try {
    for await (const chunk of input) chunks.push(chunk as Buffer);
  } catch (error) {
    throw new BenchmarkError(
      BenchmarkErrorCode.INVALID_INPUT,
      `${path}: cannot read the file (${(error as Error).message})`,
      { cause: error },
    );
  }
  const bytes = Buffer.concat(chunks);
  if (looksBinary(bytes.subarray(0, 8192))) {
    throw new BenchmarkError(
      BenchmarkErrorCode.INVALID_INPUT,
      `${path} is binary data, not JSON Lines or a JSON array`,
    );
  }
  const text = withoutByteOrderMark(bytes.toString('utf8'));
  const items: { where: string; value: unknown; problem?: string }[] = [];
  if (text.trimStart().startsWith('[')) {
    let array: unknown;
    try {
      array = JSON.parse(text);
    } catch (error) {
      throw new BenchmarkError(
        BenchmarkErrorCode.INVALID_INPUT,
        `${path}: not valid JSON (${(error as Error).message})`,
      );
    }
    (array as unknown[]).forEach((value, index) => {
      items.push({ where: `${path}: record ${index}`, value });
    });
  } else {
    text.split('\n').forEach((line, index) => {
      if (line.trim() === '') return;
      const where = `${path}:${index + 1}`;
      try {
        items.push({ where, value: JSON.parse(line) });
      } catch (error) {
        items.push({
          where,
          value: undefined,
          problem: `is not valid JSON (${(error as Error).message})`,
        });
      }
    });
  }
  const records: z.output<Schema>[] = [];
  const seen = new Map<string, string>();
  for (const item of items) {
    if (item.problem) {
      throw new BenchmarkError(BenchmarkErrorCode.INVALID_INPUT, `${item.where} ${item.problem}`);
    }
    const result = schema.safeParse(item.value);
    if (!result.success) {
      throw new BenchmarkError(
        BenchmarkErrorCode.INVALID_INPUT,
        `${item.where}: ${formatIssues(result.error.issues)}`,
        { cause: result.error },
      );
    }
    const id = result.data.question_id;
    const earlier = seen.get(id);
    if (earlier !== undefined) {
      throw new BenchmarkError(
        BenchmarkErrorCode.INVALID_INPUT,
        `${item.where}: question_id "${id}" was already given at ${earlier}`,
      );
    }
    seen.set(id, item.where);
    records.push(result.data);
  }
  return records;
}

/** Reads an eval-results file (`{question_id, hypothesis, autoeval_label: {model, label}}`). */
export function readEvalResults(path: string): Promise<EvalResultLine[]> {
  return readRunRecords(path, evalResultLineSchema);
}

/**
 * The question type of every question of a LongMemEval file, streamed (memory stays flat). Only
 * `question_id` and `question_type` are read and checked, so the histories cost no validation.
 */
export async function loadQuestionTypes(dataPath: string): Promise<Map<string, string>> {
  const types = new Map<string, string>();
  for await (const question of streamLongMemEvalRecords(dataPath, longMemEvalQuestionKeySchema)) {
    types.set(question.question_id, question.question_type);
  }
  return types;
}

/** The metrics of an eval-results file, and what was left out. */
export interface RunScore {
  metrics: QaMetrics;
  /** Judge models named in the labels, in order of first use. */
  judgeModels: string[];
  /** Ids of the file that the data lacks; they are left out. */
  missingIds: string[];
  answers: JudgedAnswer[];
}

/**
 * Scores judged answers with {@link computeQaMetrics}: the label is the judge's; an answer counts
 * as an abstention when the reader's wrapper recorded `abstained` or when the answer says it cannot
 * answer ({@link isExplicitAbstention}); a recorded abstention whose `originalAnswer` did not say
 * so counts as added by the detector.
 */
export function scoreEvalResults(
  entries: readonly EvalResultLine[],
  questionTypes: ReadonlyMap<string, string>,
): RunScore {
  const answers: JudgedAnswer[] = [];
  const missingIds: string[] = [];
  const judgeModels: string[] = [];
  for (const entry of entries) {
    const questionType = questionTypes.get(entry.question_id);
    if (questionType === undefined) {
      missingIds.push(entry.question_id);
      continue;
    }
    if (!judgeModels.includes(entry.autoeval_label.model)) {
      judgeModels.push(entry.autoeval_label.model);
    }
    const recorded = entry.abstained === true;
    answers.push({
      questionId: entry.question_id,
      questionType,
      correct: entry.autoeval_label.label,
      abstained: recorded || isExplicitAbstention(entry.hypothesis),
      abstentionAdded:
        recorded &&
        !(typeof entry.originalAnswer === 'string' && isExplicitAbstention(entry.originalAnswer)),
    });
  }
  return { metrics: computeQaMetrics(answers), judgeModels, missingIds, answers };
}

/**
 * Reads a judged run and scores it against a data file. A run without lines, or whose ids are
 * all missing from the data, is an error (`NOTHING_TO_DO`) rather than a score of zero.
 */
export async function scoreRunFile(runPath: string, dataPath: string): Promise<RunScore> {
  const entries = await readEvalResults(runPath);
  if (entries.length === 0) {
    throw new BenchmarkError(
      BenchmarkErrorCode.NOTHING_TO_DO,
      `${runPath} holds no judged answers: each line should be {"question_id", "hypothesis", "autoeval_label"}`,
    );
  }
  const score = scoreEvalResults(entries, await loadQuestionTypes(dataPath));
  if (score.metrics.n === 0) {
    throw new BenchmarkError(
      BenchmarkErrorCode.NOTHING_TO_DO,
      `none of the ${entries.length} question ids of ${runPath} is in ${dataPath} (first: ${entries[0]?.question_id}); is it a run on another data file?`,
    );
  }
  return score;
}

// what print(round(np.float64, 4)) writes: numpy's half-to-even rounding, Python's float repr
const round4 = (value: number | null) =>
  value === null ? 'nan' : pythonFloatRepr(numpyRound(value, 4));

/**
 * The metrics in the words of the official `print_qa_metrics.py`: each of the six types in its
 * order with accuracy and count (`nan (0)` for a type with no question, as numpy prints it),
 * task-averaged (`nan` when a type has no question), overall, abstention accuracy with its count,
 * each rounded as `round(np.float64, 4)` rounds (half to even: 5/32 prints 0.1562): exactly the
 * script's lines, nothing more ({@link falseAbstentionLine} has the rate it does not print).
 */
export function qaMetricsText(metrics: QaMetrics): string {
  const lines = ['', 'Evaluation results by task:'];
  for (const type of questionTypesOf(metrics)) {
    const counts = metrics.byType[type];
    lines.push(`\t${type}: ${counts ? round4(counts.accuracy) : 'nan'} (${counts?.n ?? 0})`);
  }
  lines.push(
    '',
    `Task-averaged Accuracy: ${round4(metrics.taskAveraged)}`,
    `Overall Accuracy: ${round4(metrics.n ? metrics.overall : null)}`,
    `Abstention Accuracy: ${metrics.abstention.n ? round4(metrics.abstention.accuracy) : 'nan'} (${metrics.abstention.n})`,
  );
  return lines.join('\n');
}

/**
 * The false-abstention rate in the style of {@link qaMetricsText}: the share of answerable
 * questions whose answer says it cannot answer, which the official script does not print.
 */
export function falseAbstentionLine(metrics: QaMetrics): string {
  return `False-abstention Rate: ${round4(metrics.falseAbstentionRate)} (${metrics.falseAbstentions}/${metrics.n - metrics.abstention.n})`;
}

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

/** The metrics of one or more runs as a Markdown table, one column per run. */
export function qaMetricsMarkdown(runs: readonly { name: string; metrics: QaMetrics }[]): string {
  const types = [...new Set(runs.flatMap((run) => questionTypesOf(run.metrics)))];
  const header = `| metric | ${runs.map((run) => escapeCell(run.name)).join(' | ')} |`;
  const rule = `| --- | ${runs.map(() => '---:').join(' | ')} |`;
  return [
    header,
    rule,
    ...qaMetricsRows(runs, types).map(([label, ...cells]) => `| ${label} | ${cells.join(' | ')} |`),
  ].join('\n');
}

/** A figure of a metrics table for one run. */
export interface QaMetricsFigure {
  /** The share, 0 to 1; null where the official script prints nan (no question of the type). */
  share: number | null;
  /** Questions the line counts. */
  n: number;
  /** What a table shows beside the share (`n`, or `part/whole`), when anything. */
  count: string | null;
}

/** A line of a metrics table: its label, and its figure in a run's metrics. */
export interface QaMetricsLine {
  label: string;
  figure: (metrics: QaMetrics) => QaMetricsFigure;
}

/**
 * The lines of every metrics table, in order: the given types, then task-averaged, overall,
 * abstention and false abstention.
 */
export function qaMetricsLines(types: readonly string[]): QaMetricsLine[] {
  return [
    ...types.map((type) => ({
      label: type,
      figure: (metrics: QaMetrics): QaMetricsFigure => {
        const counts = metrics.byType[type];
        return counts
          ? { share: counts.accuracy, n: counts.n, count: String(counts.n) }
          : { share: null, n: 0, count: null };
      },
    })),
    {
      label: 'task-averaged',
      figure: (metrics) => ({ share: metrics.taskAveraged, n: metrics.n, count: null }),
    },
    {
      label: 'overall',
      figure: (metrics) => ({ share: metrics.overall, n: metrics.n, count: String(metrics.n) }),
    },
    {
      label: 'abstention',
      figure: ({ abstention }) => ({
        share: abstention.n ? abstention.accuracy : null,
        n: abstention.n,
        count: `${abstention.correct}/${abstention.n}`,
      }),
    },
    {
      label: 'false abstention',
      figure: (metrics) => {
        const answerable = metrics.n - metrics.abstention.n;
        return {
          share: metrics.falseAbstentionRate,
          n: answerable,
          count: `${metrics.falseAbstentions}/${answerable}`,
        };
      },
    },
  ];
}

/**
 * The rows of the Markdown and HTML metrics tables, each a label and then a cell per run, the
 * share with its count (`66.7% (3)`), or – where there is no question.
 */
export function qaMetricsRows(
  runs: readonly { metrics: QaMetrics }[],
  types: readonly string[],
): string[][] {
  return qaMetricsLines(types).map((line) => [
    line.label,
    ...runs.map((run) => {
      const { share, count } = line.figure(run.metrics);
      if (share === null) return '–';
      return count === null ? percent(share) : `${percent(share)} (${count})`;
    }),
  ]);
}

/** The official six types in their order, then any other type the metrics have. */
export function questionTypesOf(metrics: QaMetrics): string[] {
  return [
    ...QUESTION_TYPES,
    ...Object.keys(metrics.byType).filter(
      (type) => !(QUESTION_TYPES as readonly string[]).includes(type),
    ),
  ];
}

function escapeCell(text: string): string {
  return text.replaceAll('|', '\\|');
}
