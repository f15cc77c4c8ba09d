import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { withoutByteOrderMark } from '@qualm/errors';
import { z } from 'zod';
import { BenchmarkError, BenchmarkErrorCode } from '../errors.js';
import { openDataFile } from './loader.js';
import { PythonFloat, pythonJsonDumps } from './python-format.js';
import type { RetrievalLevel } from './retrieval-corpus.js';
import type { RankedQuestion } from './retrieval-evaluation.js';
import { retrievalCutoffs, scoreRanking, scoreTurnRankingBySession } from './retrieval-metrics.js';
import { formatIssues } from './schema.js';

/**
 * One line of the official retrieval log (github.com/xiaowu0162/LongMemEval,
 * src/retrieval/run_retrieval.py): the question's record, then `retrieval_results` with the query,
 * every corpus item ranked best first (`corpus_id`, `text`, `timestamp`) and the question's metrics
 * at k 1, 3, 5, 10, 30 and 50 (`session` at session level; `turn` and, scored by session, `session`
 * at turn level). Written as Python's `json.dumps` writes it, so the line is byte for byte the
 * harness's for the same ranking; `print_retrieval_metrics.py` and `run_generation.py` read it.
 */
export function retrievalLogLine(ranked: RankedQuestion, level: RetrievalLevel): string {
  const { question, corpus, rankings } = ranked;
  const session: Record<string, PythonFloat> = {};
  const turn: Record<string, PythonFloat> = {};
  const scope = { goldIds: corpus.goldIds, corpusIds: corpus.corpusIds };
  for (const k of retrievalCutoffs) {
    const scores = scoreRanking(rankings, { ...scope, k });
    const target = level === 'session' ? session : turn;
    target[`recall_any@${k}`] = new PythonFloat(scores.recallAny);
    target[`recall_all@${k}`] = new PythonFloat(scores.recallAll);
    target[`ndcg_any@${k}`] = new PythonFloat(scores.ndcgAny);
    if (level === 'turn') {
      const bySession = scoreTurnRankingBySession(rankings, { ...scope, k });
      session[`recall_any@${k}`] = new PythonFloat(bySession.recallAny);
      session[`recall_all@${k}`] = new PythonFloat(bySession.recallAll);
      session[`ndcg_any@${k}`] = new PythonFloat(bySession.ndcgAny);
    }
  }
  return pythonJsonDumps({
    question_id: question.question_id,
    question_type: question.question_type,
    question: question.question,
    answer: question.answer,
    question_date: question.question_date,
    haystack_dates: question.haystack_dates,
    haystack_sessions: question.haystack_sessions,
    haystack_session_ids: question.haystack_session_ids,
    answer_session_ids: question.answer_session_ids,
    retrieval_results: {
      query: question.question,
      ranked_items: rankings.map((position) => {
        const document = corpus.documents[position]!;
        return {
          corpus_id: corpus.corpusIds[position],
          text: document.text,
          timestamp: document.metadata.date,
        };
      }),
      metrics: { session, turn },
    },
  });
}

/** A retrieval log being written; lines go to `<path>.partial`, renamed to `path` on close. */
export interface RetrievalLogWriter {
  readonly path: string;
  /** Lines written so far. */
  readonly lines: number;
  write(ranked: RankedQuestion): Promise<void>;
  /** Finishes the file and gives it its name. */
  close(): Promise<void>;
  /** Removes the unfinished file (after a failed run). */
  abort(): Promise<void>;
}

/** Where {@link openRetrievalLog} writes the lines of `path` until the log is closed. */
export function partialRetrievalLogPath(path: string): string {
  return `${path}.partial`;
}

/**
 * Opens a retrieval log for writing, one line per question in the harness's format
 * ({@link retrievalLogLine}). Until `close`, the lines go to `<path>.partial`, so an interrupted
 * run never leaves a log that looks complete. A path that is a folder is an error here, before
 * any work, not at the end when the file is given its name.
 */
export async function openRetrievalLog(
  path: string,
  level: RetrievalLevel,
): Promise<RetrievalLogWriter> {
  const partial = partialRetrievalLogPath(path);
  const existing = await stat(path).catch(() => undefined);
  if (existing?.isDirectory()) {
    throw new BenchmarkError(
      BenchmarkErrorCode.INVALID_INPUT,
      `the retrieval log ${path} is a folder; give the path of a file`,
    );
  }
  await mkdir(dirname(path), { recursive: true });
  const stream: WriteStream = createWriteStream(partial);
  let failure: Error | undefined;
  stream.on('error', (error) => {
    failure = error;
  });
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', (error) =>
      reject(
        new BenchmarkError(
          BenchmarkErrorCode.INVALID_INPUT,
          `cannot write the retrieval log ${path}: ${error.message}`,
          { cause: error },
        ),
      ),
    );
  });
  let lines = 0;
  const check = () => {
    if (failure) {
      throw new BenchmarkError(
        BenchmarkErrorCode.INVALID_INPUT,
        `cannot write the retrieval log ${path}: ${failure.message}`,
        { cause: failure },
      );
    }
  };
  return {
    path,
    get lines() {
      return lines;
    },
    async write(ranked) {
      check();
      lines += 1;
      if (!stream.write(`${retrievalLogLine(ranked, level)}\n`)) {
        await new Promise<void>((resolve) => stream.once('drain', resolve));
      }
      check();
    },
    async close() {
      await new Promise<void>((resolve, reject) =>
        stream.end((error?: Error | null) => (error ? reject(error) : resolve())),
      );
      check();
      await rename(partial, path);
    },
    async abort() {
      stream.destroy();
      await rm(partial, { force: true });
    },
  };
}

const retrievalLogLineSchema = z.looseObject({
  question_id: z.string().min(1),
  retrieval_results: z.looseObject({
    ranked_items: z.array(z.looseObject({ corpus_id: z.string() })),
    metrics: z
      .looseObject({
        session: z.record(z.string(), z.unknown()).optional(),
        turn: z.record(z.string(), z.unknown()).optional(),
      })
      .optional(),
  }),
});

/** The rankings of a retrieval log, by question id. */
export interface RetrievalLog {
  path: string;
  /**
   * The level the log was made at, read from its metrics (a turn-level log has `turn` metrics);
   * undefined when no line has metrics.
   */
  level: RetrievalLevel | undefined;
  /** Each question's ranked corpus ids, best first. */
  rankings: Map<string, string[]>;
}

/**
 * Reads the rankings of a retrieval log in the official format (JSON Lines, plain or gzip), as
 * `qualm bench longmemeval retrieve --log` and the harness's `run_retrieval.py` write it. Only the
 * question ids and the ranked corpus ids are kept, so a log of the M set (gigabytes of history)
 * is read in little memory. A bad line is an error naming the file, the line and the field.
 */
export async function readRetrievalLog(path: string): Promise<RetrievalLog> {
  const input = await openDataFile(path);
  const rankings = new Map<string, string[]>();
  const lineOf = new Map<string, number>();
  let level: RetrievalLevel | undefined;
  let lineNumber = 0;
  try {
    const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
    for await (const line of lines) {
      lineNumber += 1;
      if (line.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(lineNumber === 1 ? withoutByteOrderMark(line) : line);
      } catch (error) {
        throw new BenchmarkError(
          BenchmarkErrorCode.INVALID_INPUT,
          `${path}:${lineNumber} is not valid JSON (${(error as Error).message})${line.trimStart().startsWith('[') ? '; a retrieval log has one JSON object per line' : ''}`,
        );
      }
      const parsed = retrievalLogLineSchema.safeParse(value);
      if (!parsed.success) {
        throw new BenchmarkError(
          BenchmarkErrorCode.INVALID_INPUT,
          `${path}:${lineNumber}: ${formatIssues(parsed.error.issues)}`,
          { cause: parsed.error },
        );
      }
      const id = parsed.data.question_id;
      const earlier = lineOf.get(id);
      if (earlier !== undefined) {
        throw new BenchmarkError(
          BenchmarkErrorCode.INVALID_INPUT,
          `${path}:${lineNumber}: question_id "${id}" was already ranked on line ${earlier}`,
        );
      }
      lineOf.set(id, lineNumber);
      const results = parsed.data.retrieval_results;
      rankings.set(
        id,
        results.ranked_items.map((item) => item.corpus_id),
      );
      const metrics = results.metrics;
      if (metrics?.turn && Object.keys(metrics.turn).length > 0) level = 'turn';
      else if (level === undefined && metrics?.session && Object.keys(metrics.session).length > 0) {
        level = 'session';
      }
    }
  } catch (error) {
    if (error instanceof BenchmarkError) throw error;
    throw new BenchmarkError(
      BenchmarkErrorCode.INVALID_INPUT,
      `${path}: cannot read the file after line ${lineNumber} (${(error as Error).message})`,
      { cause: error },
    );
  } finally {
    input.destroy();
  }
  return { path, level, rankings };
}
