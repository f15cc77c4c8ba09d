import {
  addUsage,
  type ChatClient,
  emptyUsage,
  openResumableOutput,
  type RunProgress,
  runBatch,
  type TokenUsage,
} from '@qualm/judge';
import {
  type AbstentionDetector,
  type AbstentionReason,
  FullTextIndex,
  type RetrievalHit,
  withAbstention,
} from '@qualm/search-core';
import { z } from 'zod';
import { BenchmarkError, BenchmarkErrorCode } from '../errors.js';
import {
  formatHistory,
  type HistoryChunk,
  type HistoryOptions,
  historyFormats,
  historySources,
  selectHistory,
} from './history.js';
import {
  defaultHistoryTokenizer,
  type HistoryTokenizer,
  historyTokenBudget,
  MODEL_CONTEXT_LIMITS,
  modelContextLimit,
} from './history-truncation.js';
import { streamLongMemEval, streamLongMemEvalRecords } from './loader.js';
import { pythonJsonDumps, pythonStrip } from './python-format.js';
import {
  DIRECT_READER_TEMPLATE,
  fillTemplate,
  NO_HISTORY_READER_TEMPLATE,
  NO_HISTORY_STEP_BY_STEP_SUFFIX,
  NOTE_EXTRACTION_TEMPLATE,
  NOTE_MAX_TOKENS,
  type ReadingMethod,
  readerMaxTokens,
  readingMethods,
  STEP_BY_STEP_READER_TEMPLATE,
} from './reader-prompts.js';
import { sessionDocuments } from './replay.js';
import type { ResumableRun } from './resumable-output.js';
import type { RetrievalLevel } from './retrieval-corpus.js';
import { type RetrievalLog, readRetrievalLog } from './retrieval-log.js';
import { type LongMemEvalQuestion, longMemEvalQuestionKeySchema } from './schema.js';

/** Options of the LongMemEval reader. */
export interface ReaderOptions {
  /** The answering model (the harness also writes chain-of-note notes with it). */
  client: ChatClient;
  /** Reading method (`cot`): see {@link ReadingMethod}. */
  method?: ReadingMethod;
  /** Which history the reader sees and how it is written. */
  history: HistoryOptions;
  /**
   * With a detector, each answer passes through the search-core reader wrapper: the evidence is a
   * full-text search of the sessions the reader saw, and an answer the detector does not trust
   * becomes "I don't have enough information to answer this question.".
   */
  detector?: AbstentionDetector;
  /**
   * Reply length of the answer call (800, what the harness sends for every reading method); the
   * history budget leaves room for it.
   */
  maxTokens?: number;
  /**
   * The model's context length in tokens: the history is cut to it less the answer and 1000
   * tokens, as the harness cuts it. Defaults to the harness's table by model name
   * ({@link MODEL_CONTEXT_LIMITS}); a model the table lacks needs it. `none` never cuts.
   */
  contextLimit?: number | 'none';
  /**
   * Counts and cuts the history: `o200k_base` by default for GPT-4 and GPT-3.5 names, else the
   * model's own tokenizer from `modelsDir` when there (see `defaultHistoryTokenizer`).
   */
  tokenizer?: HistoryTokenizer;
  /** Where a model's own tokenizer is looked for, as `<modelsDir>/<model>/tokenizer.json`. */
  modelsDir?: string;
  signal?: AbortSignal;
}

/** The prompt a reader sends for one question, the chunks it was written from, and the notes' cost. */
export interface ReaderPrompt {
  prompt: string;
  /** The chunks shown, before sorting by date (notes in place of the sessions with `con`). */
  chunks: HistoryChunk[];
  /** Sessions the chunks come from, by haystack position. */
  sessionIndexes: number[];
  /** Tokens of the chain-of-note calls (zero for other methods). */
  usage: TokenUsage;
  /** When the history was cut to the context limit: its tokens before, and the budget. */
  truncated?: { tokens: number; budget: number };
}

/** One line of a reader output: the official `{question_id, hypothesis}` and what qualm adds. */
export interface ReaderRecord {
  question_id: string;
  hypothesis: string;
  /** With a detector: whether it replaced the answer. */
  abstained?: boolean;
  abstentionReason?: AbstentionReason | null;
  /** With a detector: the reader's own answer, kept whether or not it was replaced. */
  originalAnswer?: string;
  /** Tokens and calls spent on this question. */
  usage: TokenUsage;
  /** When the history was cut to the context limit: its tokens before, and the budget. */
  truncated?: { tokens: number; budget: number };
}

/** Checks reader options before any call, so a bad setting fails once and not per question. */
export function checkReaderOptions(
  options: Pick<ReaderOptions, 'method' | 'history' | 'contextLimit'> & {
    client?: Pick<ChatClient, 'model'>;
  },
): void {
  const method = options.method ?? 'cot';
  if (!readingMethods.includes(method)) {
    throw new BenchmarkError(
      BenchmarkErrorCode.INVALID_CONFIG,
      `unknown reading method "${String(method)}" (expected ${readingMethods.join(', ')})`,
    );
  }
  if (!historySources.includes(options.history.source)) {
    throw new BenchmarkError(
      BenchmarkErrorCode.INVALID_CONFIG,
      `unknown history source "${String(options.history.source)}" (expected ${historySources.join(', ')})`,
    );
  }
  const format = options.history.format ?? 'json';
  if (!historyFormats.includes(format)) {
    throw new BenchmarkError(
      BenchmarkErrorCode.INVALID_CONFIG,
      `unknown history format "${String(format)}" (expected ${historyFormats.join(', ')})`,
    );
  }
  if (method === 'con' && format === 'nl') {
    throw new BenchmarkError(
      BenchmarkErrorCode.INVALID_CONFIG,
      'chain-of-note reading writes its notes as JSON: use the json history format with con',
    );
  }
  if (
    options.history.userOnly &&
    options.history.source === 'retrieval' &&
    options.history.level === 'turn'
  ) {
    throw new BenchmarkError(
      BenchmarkErrorCode.INVALID_CONFIG,
      'user-only history is not defined for retrieved turns (the harness stops with a TypeError there): use session level, or full or oracle history',
    );
  }
  if (options.client) resolveContextLimit(options.client.model, options.contextLimit);
}

/**
 * The context length the history is cut to: the one given, else the harness's table's; `none`
 * gives undefined (never cut). A model the table lacks, with none given, is an error.
 */
export function resolveContextLimit(
  model: string,
  contextLimit: number | 'none' | undefined,
): number | undefined {
  if (contextLimit === 'none') return undefined;
  if (contextLimit !== undefined) {
    if (!Number.isInteger(contextLimit) || contextLimit < 1) {
      throw new BenchmarkError(
        BenchmarkErrorCode.INVALID_CONFIG,
        `the context limit must be a positive number of tokens, got ${contextLimit}`,
      );
    }
    return contextLimit;
  }
  const known = modelContextLimit(model);
  if (known === undefined) {
    throw new BenchmarkError(
      BenchmarkErrorCode.INVALID_CONFIG,
      `no context length is known for model "${model}" (the harness's table lists ${Object.keys(MODEL_CONTEXT_LIMITS).join(', ')}): give its context length in tokens (--context-limit N), or none to never cut the history`,
    );
  }
  return known;
}

// the history's budget and the tokenizer that counts it, resolved once per run
interface Truncation {
  budget: number | undefined;
  tokenizer: HistoryTokenizer | undefined;
}

async function resolveTruncation(
  options: ReaderOptions,
  method: ReadingMethod,
): Promise<Truncation> {
  const contextLimit = resolveContextLimit(options.client.model, options.contextLimit);
  if (contextLimit === undefined) return { budget: undefined, tokenizer: undefined };
  const budget = historyTokenBudget(contextLimit, options.maxTokens ?? readerMaxTokens(method));
  if (budget < 1) {
    throw new BenchmarkError(
      BenchmarkErrorCode.INVALID_CONFIG,
      `a context limit of ${contextLimit} tokens leaves no room for the history once the answer (${options.maxTokens ?? readerMaxTokens(method)}) and 1000 tokens are kept free`,
    );
  }
  const tokenizer =
    options.tokenizer ??
    (await defaultHistoryTokenizer(options.client.model, {
      ...(options.modelsDir ? { modelsDir: options.modelsDir } : {}),
    }));
  return { budget, tokenizer };
}

// a token is at least one byte for the byte-level and SentencePiece tokenizers models use, so a
// history this short cannot be over the budget whatever the tokenizer (a few special tokens aside)
const specialTokenAllowance = 8;

function fitHistory(
  question: LongMemEvalQuestion,
  history: string,
  truncation: Truncation,
  model: string,
): { text: string; truncated?: { tokens: number; budget: number } } {
  const { budget, tokenizer } = truncation;
  if (budget === undefined) return { text: history };
  // spares counting a history that cannot be over the budget
  if (Buffer.byteLength(history) + specialTokenAllowance <= budget) return { text: history };
  if (!tokenizer) {
    throw new BenchmarkError(
      BenchmarkErrorCode.INVALID_CONFIG,
      `question ${question.question_id}: the history may be longer than its budget of ${budget} tokens, and model "${model}" is not a GPT model, whose tokens the harness counts with o200k_base: give the folder of its tokenizer.json (--tokenizer DIR, or under --models-dir), or --tokenizer o200k_base to count with GPT's`,
    );
  }
  const fitted = tokenizer.fit(history, budget);
  return fitted.truncated
    ? { text: fitted.text, truncated: { tokens: fitted.tokens, budget } }
    : { text: history };
}

/**
 * Builds the reader's prompt for a question exactly as the harness's `prepare_prompt` does
 * (github.com/xiaowu0162/LongMemEval, src/generation/run_generation.py): the chosen chunks, with
 * `has_answer` removed; with `con`, each chunk first replaced by a reading note the model writes
 * (`{"session_summary": note}`); then sorted by date and written as `### Session i:` blocks into
 * the direct or step-by-step template with the `Current Date:` line. A history longer than the
 * model's context length less the answer and 1000 tokens is cut to that many tokens and decoded
 * back, as the harness cuts it (see {@link ReaderOptions.contextLimit}).
 */
export async function buildReaderPrompt(
  question: LongMemEvalQuestion,
  options: ReaderOptions & { truncation?: Truncation },
): Promise<ReaderPrompt> {
  const method = options.method ?? 'cot';
  const usage = emptyUsage();
  const truncation = options.truncation ?? (await resolveTruncation(options, method));
  if (options.history.source === 'none') {
    const prompt = fillTemplate(NO_HISTORY_READER_TEMPLATE, [question.question]);
    return {
      prompt: method === 'direct' ? prompt : prompt + NO_HISTORY_STEP_BY_STEP_SUFFIX,
      chunks: [],
      sessionIndexes: [],
      usage,
    };
  }
  let chunks = await selectHistory(question, options.history);
  if (chunks.length === 0) {
    throw new BenchmarkError(
      BenchmarkErrorCode.INVALID_INPUT,
      `question ${question.question_id}: the ${options.history.source} history is empty, so there is nothing to read`,
    );
  }
  const sessionIndexes = [...new Set(chunks.map((chunk) => chunk.sessionIndex))];
  if (method === 'con') {
    const noted: HistoryChunk[] = [];
    for (const chunk of chunks) {
      const reply = await options.client.complete(
        [
          {
            role: 'user',
            content: fillTemplate(NOTE_EXTRACTION_TEMPLATE, [
              chunk.date,
              pythonJsonDumps(chunk.content),
              question.question_date,
              question.question,
            ]),
          },
        ],
        { temperature: 0, maxTokens: NOTE_MAX_TOKENS, signal: options.signal },
      );
      Object.assign(usage, addUsage(usage, reply.usage));
      noted.push({ ...chunk, content: { session_summary: pythonStrip(reply.text) } });
    }
    chunks = noted;
  }
  const history = fitHistory(
    question,
    formatHistory(chunks, { format: options.history.format ?? 'json' }),
    truncation,
    options.client.model,
  );
  const template = method === 'direct' ? DIRECT_READER_TEMPLATE : STEP_BY_STEP_READER_TEMPLATE;
  return {
    prompt: fillTemplate(template, [history.text, question.question_date, question.question]),
    chunks,
    sessionIndexes,
    usage,
    ...(history.truncated ? { truncated: history.truncated } : {}),
  };
}

/**
 * Answers one question: builds the prompt, asks the model at temperature 0 (the reply trimmed, as
 * the harness does) and, with a detector, passes the answer through `withAbstention`.
 */
export async function readQuestion(
  question: LongMemEvalQuestion,
  options: ReaderOptions & { truncation?: Truncation },
): Promise<ReaderRecord> {
  const method = options.method ?? 'cot';
  const built = await buildReaderPrompt(question, options);
  const usage = built.usage;
  const answer = async () => {
    const reply = await options.client.complete([{ role: 'user', content: built.prompt }], {
      temperature: 0,
      maxTokens: options.maxTokens ?? readerMaxTokens(method),
      signal: options.signal,
    });
    Object.assign(usage, addUsage(usage, reply.usage));
    return pythonStrip(reply.text);
  };
  const truncated = built.truncated ? { truncated: built.truncated } : {};
  if (!options.detector) {
    const hypothesis = await answer();
    return { question_id: question.question_id, hypothesis, usage, ...truncated };
  }
  const hits = evidenceHits(question, built.sessionIndexes, options.detector);
  const result = await withAbstention(
    answer,
    options.detector,
  )({
    question: question.question,
    hits,
  });
  return {
    question_id: question.question_id,
    hypothesis: result.answer,
    abstained: result.abstained,
    abstentionReason: result.abstentionReason,
    originalAnswer: result.originalAnswer,
    usage,
    ...truncated,
  };
}

// the detector's evidence: the sessions the reader saw, every turn, searched with the question
function evidenceHits(
  question: LongMemEvalQuestion,
  sessionIndexes: readonly number[],
  detector: AbstentionDetector,
): RetrievalHit[] {
  const seen = new Set(sessionIndexes);
  const documents = sessionDocuments(question).filter((_, index) => seen.has(index));
  return new FullTextIndex(documents).searchSync(question.question, {
    limit: Math.max(10, detector.config.evidenceHits),
  });
}

/** Options of {@link runReader}. */
export interface ReaderRunOptions extends ReaderOptions {
  /** A LongMemEval file (oracle, S or M; plain or .gz). */
  dataPath: string;
  /** JSON Lines output; answers are appended as they finish and a rerun skips those there. */
  outPath: string;
  /** Questions answered at the same time (4). */
  concurrency?: number;
  /** Answer only these questions. */
  questionIds?: readonly string[];
  /** Answer only the first n questions of the data (after `questionIds`). */
  limit?: number;
  /**
   * A retrieval log in the harness's format (`qualm bench longmemeval retrieve --log`, or the
   * official `run_retrieval.py`'s): the `retrieval` history takes each question's ranking from it
   * instead of retrieving. Its level must be the history's.
   */
  retrievalLog?: string;
  onProgress?: (progress: RunProgress) => void;
  /** Stops the run; what was written stays, and a rerun continues it. */
  signal?: AbortSignal;
}

/** The result of {@link runReader}. */
export interface ReaderRun extends ResumableRun {
  /** Ids asked for with `questionIds` that the data lacks. */
  missingIds: string[];
  /** Tokens recorded in the whole output, earlier runs included. */
  outputUsage: TokenUsage;
  /** Questions of this run whose history was cut to the context limit. */
  truncated: number;
}

/**
 * Answers the questions of a LongMemEval file into a JSON Lines file of `{question_id,
 * hypothesis}` (plus `abstained`, `abstentionReason`, `originalAnswer` with a detector, and
 * `usage`), with a concurrency limit. Each answer is appended as soon as it finishes, so the order
 * on disk is the order of completion, not of the data; a rerun with the same output does only the
 * questions not there yet. A question whose call fails is not written and is listed in `failures`;
 * a rejected API key stops the run.
 */
export async function runReader(options: ReaderRunOptions): Promise<ReaderRun> {
  checkReaderOptions(options);
  if (options.retrievalLog !== undefined && options.history.source !== 'retrieval') {
    throw new BenchmarkError(
      BenchmarkErrorCode.INVALID_CONFIG,
      `a retrieval log gives the retrieval history; the ${options.history.source} history does not use it`,
    );
  }
  const log = options.retrievalLog ? await readRetrievalLog(options.retrievalLog) : undefined;
  const level = options.history.level ?? 'session';
  if (log?.level !== undefined && log.level !== level) {
    throw new BenchmarkError(
      BenchmarkErrorCode.INVALID_CONFIG,
      `${log.path} ranks ${log.level}s, but the history is of ${level} level: use the ${log.level} level with it`,
    );
  }
  const method = options.method ?? 'cot';
  const truncation = await resolveTruncation(options, method);
  const output = openResumableOutput(options.outPath);
  const plan = await planRun({
    dataPath: options.dataPath,
    doneIds: output.doneIds,
    ...(options.questionIds ? { questionIds: options.questionIds } : {}),
    ...(options.limit !== undefined ? { limit: options.limit } : {}),
    keepHaystacks: log !== undefined,
  });
  if (log) checkLogFitsData(log, plan, { dataPath: options.dataPath, level });
  let truncated = 0;
  // the one full pass: it stops once the last question to do has been read
  const pendingQuestions = async function* () {
    let left = plan.pending.size;
    if (left === 0) return;
    for await (const question of streamLongMemEval(options.dataPath)) {
      if (!plan.pending.has(question.question_id)) continue;
      yield question;
      left -= 1;
      if (left === 0) return;
    }
  };
  if (plan.pending.size > 0) await options.client.checkEndpoint({ signal: options.signal });
  const { written, failures, usage, interrupted } = await runBatch({
    output,
    items: pendingQuestions(),
    total: plan.pending.size,
    concurrency: options.concurrency,
    signal: options.signal,
    key: (question) => question.question_id,
    work: async (question, signal) => {
      const rankedIds = log?.rankings.get(question.question_id);
      const record = await readQuestion(question, {
        ...options,
        ...(rankedIds ? { history: { ...options.history, rankedIds } } : {}),
        truncation,
        signal,
      });
      if (record.truncated) truncated += 1;
      return { record: { ...record }, usage: record.usage };
    },
    onProgress: options.onProgress,
  });
  return {
    outPath: options.outPath,
    total: plan.pending.size,
    alreadyDone: plan.alreadyDone,
    written,
    failures,
    missingIds: plan.missingIds,
    usage,
    interrupted,
    outputUsage: addUsage(...output.records.map(recordedUsage)),
    truncated,
  };
}

/**
 * Checks, before any request, that a retrieval log ranks the questions of the data file: every
 * question to answer has a ranking, and every session it names is in that question's haystack
 * (a log made from another file, such as the S file's log with the oracle file, does not fit).
 */
function checkLogFitsData(
  log: RetrievalLog,
  plan: RunPlan,
  options: { dataPath: string; level: RetrievalLevel },
): void {
  const unfit: { id: string; session: string }[] = [];
  const unranked: string[] = [];
  for (const id of plan.pending) {
    const ranking = log.rankings.get(id);
    if (ranking === undefined) {
      unranked.push(id);
      continue;
    }
    const haystack = new Set(plan.haystacks.get(id) ?? []);
    for (const rankedId of ranking) {
      const session = rankedSession(rankedId, options.level);
      if (!haystack.has(session)) {
        unfit.push({ id, session: rankedId });
        break;
      }
    }
  }
  const both = `${log.path} and ${options.dataPath}`;
  if (unfit.length > 0) {
    const first = unfit[0]!;
    throw new BenchmarkError(
      BenchmarkErrorCode.INVALID_INPUT,
      `${both} do not fit: the log ranks sessions that are not in the data's haystacks for ${unfit.length} of ${plan.pending.size} questions (first ${first.id}: "${first.session}"); give --data the file the log was made from`,
    );
  }
  if (unranked.length > 0) {
    throw new BenchmarkError(
      BenchmarkErrorCode.INVALID_INPUT,
      `${both} do not fit: the log has no ranking for ${unranked.length} of the questions to answer (${unranked.slice(0, 5).join(', ')}${unranked.length > 5 ? ', …' : ''})`,
    );
  }
}

// the session a ranked corpus id belongs to: the id itself, or <session>_<turn> less the turn
function rankedSession(rankedId: string, level: RetrievalLevel): string {
  const id = rankedId.replaceAll('noans_', 'answer_');
  if (level === 'session') return id;
  const cut = id.lastIndexOf('_');
  return cut === -1 ? id : id.slice(0, cut);
}

/** What a resumable run has to do. */
interface RunPlan {
  pending: Set<string>;
  alreadyDone: number;
  missingIds: string[];
  /** With `keepHaystacks`: the haystack session ids of each selected question. */
  haystacks: Map<string, string[]>;
}

const questionHaystackSchema = longMemEvalQuestionKeySchema.extend({
  haystack_session_ids: z.array(z.string()),
});

/**
 * Which questions of a data file a resumable run still has to do, from the ids and types alone
 * (the records are not validated in full here; the pass that answers them does that).
 */
async function planRun(options: {
  dataPath: string;
  doneIds: ReadonlySet<string>;
  questionIds?: readonly string[];
  limit?: number;
  keepHaystacks?: boolean;
}): Promise<RunPlan> {
  if (options.limit !== undefined && (!Number.isInteger(options.limit) || options.limit < 1)) {
    throw new BenchmarkError(
      BenchmarkErrorCode.INVALID_CONFIG,
      `limit must be a positive integer, got ${options.limit}`,
    );
  }
  const wanted = options.questionIds ? new Set(options.questionIds) : undefined;
  const found = new Set<string>();
  const selected: string[] = [];
  const haystacks = new Map<string, string[]>();
  for await (const question of streamLongMemEvalRecords(
    options.dataPath,
    options.keepHaystacks ? questionHaystackSchema : longMemEvalQuestionKeySchema,
  )) {
    const id = question.question_id;
    if (wanted && !wanted.has(id)) continue;
    found.add(id);
    if (options.limit === undefined || selected.length < options.limit) {
      selected.push(id);
      if ('haystack_session_ids' in question)
        haystacks.set(id, question.haystack_session_ids as string[]);
    }
  }
  if (selected.length === 0) {
    throw new BenchmarkError(
      BenchmarkErrorCode.NOTHING_TO_DO,
      wanted
        ? `none of the ${wanted.size} question ids asked for is in ${options.dataPath}: ${[...wanted].slice(0, 5).join(', ')}${wanted.size > 5 ? ', …' : ''}`
        : `${options.dataPath} holds no questions`,
    );
  }
  const pending = new Set(selected.filter((id) => !options.doneIds.has(id)));
  return {
    pending,
    alreadyDone: selected.length - pending.size,
    missingIds: wanted ? [...wanted].filter((id) => !found.has(id)) : [],
    haystacks,
  };
}

/** The usage a line of an output records, when it records one. */
function recordedUsage(record: Record<string, unknown>): TokenUsage | undefined {
  const usage = record.usage as Partial<TokenUsage> | undefined;
  if (typeof usage !== 'object' || usage === null) return undefined;
  const count = (value: unknown) =>
    typeof value === 'number' && Number.isFinite(value) ? value : 0;
  return {
    calls: count(usage.calls),
    requests: count(usage.requests),
    promptTokens: count(usage.promptTokens),
    completionTokens: count(usage.completionTokens),
    totalTokens: count(usage.totalTokens),
  };
}
