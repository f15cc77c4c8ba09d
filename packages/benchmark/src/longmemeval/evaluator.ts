import {
  type ChatClient,
  openResumableOutput,
  type RunProgress,
  runBatch,
  type TokenUsage,
} from '@qualm/judge';
import { BenchmarkError, BenchmarkErrorCode } from '../errors.js';
import {
  ABSTENTION_JUDGE_TEMPLATE,
  JUDGE_MAX_TOKENS,
  JUDGE_MODEL_ALIASES,
  JUDGE_TEMPLATES_BY_TYPE,
} from './judge-prompts.js';
import { streamLongMemEval } from './loader.js';
import { fillTemplate } from './reader-prompts.js';
import type { ResumableRun } from './resumable-output.js';
import {
  type EvalResultLine,
  evalResultLineSchema,
  hypothesisLineSchema,
  type RunScore,
  readRunRecords,
  scoreEvalResults,
} from './run-metrics.js';
import { isAbstentionQuestion, type LongMemEvalQuestion } from './schema.js';

/** What the judge needs of a question. */
export type JudgedQuestion = Pick<
  LongMemEvalQuestion,
  'question_id' | 'question_type' | 'question' | 'answer'
>;

/**
 * The judge prompt for an answer, as the harness's `get_anscheck_prompt` writes it
 * (github.com/xiaowu0162/LongMemEval, src/evaluation/evaluate_qa.py): the abstention prompt for
 * ids containing `_abs`, otherwise the prompt of the question's type. An unknown type is an error.
 */
export function judgePrompt(question: JudgedQuestion, hypothesis: string): string {
  const template = isAbstentionQuestion(question.question_id)
    ? ABSTENTION_JUDGE_TEMPLATE
    : JUDGE_TEMPLATES_BY_TYPE[question.question_type];
  if (template === undefined) {
    throw new BenchmarkError(
      BenchmarkErrorCode.INVALID_INPUT,
      `question ${question.question_id}: no judge prompt for question_type "${question.question_type}" (expected ${Object.keys(JUDGE_TEMPLATES_BY_TYPE).join(', ')})`,
    );
  }
  return fillTemplate(template, [question.question, String(question.answer), hypothesis]);
}

/** The harness's label rule: correct when the judge's reply contains "yes", in any case. */
export function judgeLabel(reply: string): boolean {
  return reply.trim().toLowerCase().includes('yes');
}

/** The model a judge name stands for: the harness's short names expand, others are kept. */
export function resolveJudgeModel(name: string): string {
  return JUDGE_MODEL_ALIASES[name] ?? name;
}

/** A judged answer. */
export interface JudgeVerdict {
  label: boolean;
  /** The judge's reply, trimmed. */
  reply: string;
  usage: TokenUsage;
}

/** What {@link judgeHypothesis} asks the judge about. */
export interface JudgeHypothesisOptions {
  question: JudgedQuestion;
  /** The answer to judge. */
  hypothesis: string;
  signal?: AbortSignal;
}

/** Asks the judge about one answer: one user message, temperature 0, a 10-token reply. */
export async function judgeHypothesis(
  client: ChatClient,
  { question, hypothesis, signal }: JudgeHypothesisOptions,
): Promise<JudgeVerdict> {
  const reply = await client.complete(
    [{ role: 'user', content: judgePrompt(question, hypothesis) }],
    { temperature: 0, maxTokens: JUDGE_MAX_TOKENS, signal },
  );
  const text = reply.text.trim();
  return { label: judgeLabel(text), reply: text, usage: reply.usage };
}

/** Options of {@link runEvaluation}. */
export interface EvaluationOptions {
  /** The judge; its model name goes into every label. */
  client: ChatClient;
  /** A LongMemEval file (oracle, S or M; plain or .gz). */
  dataPath: string;
  /** Hypotheses, `{question_id, hypothesis, …}` as JSON Lines (or one JSON array). */
  runPath: string;
  /** Eval-results output; lines are appended as they finish and a rerun skips those there. */
  outPath: string;
  /** Answers judged at the same time (4). */
  concurrency?: number;
  onProgress?: (progress: RunProgress) => void;
  /** Stops the run; what was written stays, and a rerun continues it. */
  signal?: AbortSignal;
}

/** The result of {@link runEvaluation}. */
export interface EvaluationRun extends ResumableRun {
  /** Ids of the hypotheses that the data lacks; they are skipped, as the harness does. */
  missingIds: string[];
  /** The metrics of everything in the output. */
  score: RunScore;
}

/**
 * Judges a hypotheses file as the harness's `evaluate_qa.py` does, into the official eval-results
 * format: each input line with `autoeval_label: {model, label}` added (its other fields kept),
 * appended as soon as it is judged, so the order on disk is the order of completion. A rerun with
 * the same output judges only what is not there yet. A failed call is not written and is listed
 * in `failures`; a rejected API key stops the run.
 */
export async function runEvaluation(options: EvaluationOptions): Promise<EvaluationRun> {
  const hypotheses = await readRunRecords(options.runPath, hypothesisLineSchema);
  if (hypotheses.length === 0) {
    throw new BenchmarkError(
      BenchmarkErrorCode.NOTHING_TO_DO,
      `${options.runPath} holds no hypotheses: each line should be {"question_id", "hypothesis"}`,
    );
  }
  const output = openResumableOutput(options.outPath);
  // checked before any call, so a wrong output (another run's hypotheses) gets nothing appended
  const earlier = output.records.map((record, index) =>
    evalResultOf(record, index, options.outPath),
  );
  const wanted = new Set(hypotheses.map((entry) => entry.question_id));
  const questions = new Map<string, JudgedQuestion>();
  const questionTypes = new Map<string, string>();
  for await (const question of streamLongMemEval(options.dataPath)) {
    questionTypes.set(question.question_id, question.question_type);
    if (!wanted.has(question.question_id)) continue;
    const { question_id, question_type, question: text, answer } = question;
    questions.set(question_id, { question_id, question_type, question: text, answer });
  }
  const missingIds = hypotheses
    .map((entry) => entry.question_id)
    .filter((id) => !questions.has(id));
  const known = hypotheses.filter((entry) => questions.has(entry.question_id));
  if (known.length === 0) {
    throw new BenchmarkError(
      BenchmarkErrorCode.NOTHING_TO_DO,
      `none of the ${hypotheses.length} question ids of ${options.runPath} is in ${options.dataPath} (first: ${missingIds[0]}); is it the data file the hypotheses answer?`,
    );
  }
  const pending = known.filter((entry) => !output.doneIds.has(entry.question_id));
  if (pending.length > 0) await options.client.checkEndpoint({ signal: options.signal });
  const { written, failures, usage, interrupted } = await runBatch({
    output,
    items: pending,
    total: pending.length,
    concurrency: options.concurrency,
    signal: options.signal,
    key: (entry) => entry.question_id,
    work: async (entry, signal) => {
      const question = questions.get(entry.question_id)!;
      const verdict = await judgeHypothesis(options.client, {
        question,
        hypothesis: entry.hypothesis,
        signal,
      });
      return {
        record: { ...entry, autoeval_label: { model: options.client.model, label: verdict.label } },
        usage: verdict.usage,
      };
    },
    onProgress: options.onProgress,
  });
  const added = output.records
    .slice(earlier.length)
    .map((record, index) => evalResultOf(record, earlier.length + index, options.outPath));
  return {
    outPath: options.outPath,
    total: pending.length,
    alreadyDone: known.length - pending.length,
    written,
    failures,
    missingIds,
    usage,
    interrupted,
    score: scoreEvalResults([...earlier, ...added], questionTypes),
  };
}

function evalResultOf(
  record: Record<string, unknown>,
  index: number,
  outPath: string,
): EvalResultLine {
  const parsed = evalResultLineSchema.safeParse(record);
  if (!parsed.success) {
    throw new BenchmarkError(
      BenchmarkErrorCode.INVALID_INPUT,
      `${outPath}: result ${index + 1} (question_id "${String(record.question_id)}") has no valid autoeval_label; remove it or choose another output file`,
    );
  }
  return parsed.data;
}
