import type { Embedder } from '@qualm/search-core';
import { BenchmarkError, BenchmarkErrorCode } from '../errors.js';
import { pythonJsonDumps, pythonStrip } from './python-format.js';
import { buildRetrievalCorpus, type RetrievalLevel } from './retrieval-corpus.js';
import { completeRanking } from './retrieval-evaluation.js';
import { createLongMemEvalRetriever, type RetrieverKind } from './retrievers.js';
import type { LongMemEvalQuestion, LongMemEvalTurn } from './schema.js';

/**
 * Where the reader's history comes from: every session (`full`, the harness's `orig-*`), the
 * evidence sessions (`oracle`, those listed in `answer_session_ids`), the top-k retrieved sessions
 * or turns (`retrieval`, the harness's `flat-*`), or nothing (`none`, `no-retrieval`).
 */
export type HistorySource = 'full' | 'oracle' | 'retrieval' | 'none';

/** The history sources, for option parsing. */
export const historySources: readonly HistorySource[] = ['full', 'oracle', 'retrieval', 'none'];

/** How each history chunk is written into the prompt: JSON of the turns, or `role: content` lines. */
export type HistoryFormat = 'json' | 'nl';

/** The history formats, for option parsing. */
export const historyFormats: readonly HistoryFormat[] = ['json', 'nl'];

/**
 * A turn as the reader sees it. `has_answer` is removed from sessions and retrieved rounds, as the
 * harness does; a single turn shown alone (turn-level full or oracle history) keeps it, as the
 * harness's cleanup leaves it there, unless `cleanTurns` is set.
 */
export interface HistoryTurn {
  role: 'user' | 'assistant';
  content: string;
  has_answer?: boolean;
}

/**
 * What a chunk holds: a session's turns, a single turn (turn-level full or oracle history), a
 * retrieved turn with the reply after it, or a chain-of-note reading note.
 */
export type HistoryContent = HistoryTurn[] | HistoryTurn | { session_summary: string };

/** One block of the reader's history, with the date of the session it comes from. */
export interface HistoryChunk {
  date: string;
  /** Position of the session in the question's haystack. */
  sessionIndex: number;
  content: HistoryContent;
}

/** Options of {@link selectHistory}. */
export interface HistoryOptions {
  source: HistorySource;
  /** Sessions or turns as the unit of history (`session`). */
  level?: RetrievalLevel;
  /**
   * How many chunks to keep (50, as `run_generation.sh`): the latest k of the full history, the
   * first k oracle sessions, the best k retrieved.
   */
  topK?: number;
  /** How each chunk is written (`json`, the harness's default). */
  format?: HistoryFormat;
  /** Show only the user's turns (the harness's `--useronly true`); not defined for retrieved turns. */
  userOnly?: boolean;
  /**
   * Remove `has_answer` from single-turn chunks too (turn-level full and oracle history), where the
   * harness leaves it in the JSON; off by default, as published numbers were made with it.
   */
  cleanTurns?: boolean;
  /** Retriever of the `retrieval` source (`fulltext`). */
  retriever?: RetrieverKind;
  /** Embedding model of the dense and hybrid retrievers. */
  embedder?: Embedder;
  /** Index the assistant side too, as the retrieval evaluation can. */
  assistantTurns?: boolean;
  /**
   * A recorded ranking for the `retrieval` source (the corpus ids of a retrieval log, best first),
   * used instead of retrieving: the official rankings replay through qualm's reader.
   */
  rankedIds?: readonly string[];
}

/** How many chunks the harness's `run_generation.sh` keeps (`topk_context`). */
export const DEFAULT_HISTORY_TOP_K = 50;

/**
 * Picks the history chunks a reader sees for a question, in the harness's order before sorting
 * (github.com/xiaowu0162/LongMemEval, src/generation/run_generation.py, `prepare_prompt`): the
 * haystack order for full and oracle history, the ranking for retrieval. Retrieval ranks every
 * item of the question's corpus (items the retriever did not match follow in corpus order), so the
 * reader sees k items whenever the haystack has them; a retrieved turn comes with the turn after it
 * (the harness expands a turn into its round). Ranked items are found by their corpus id, as the
 * harness does (`noans_` read back as `answer_`; of two sessions with one id, the later).
 */
export async function selectHistory(
  question: LongMemEvalQuestion,
  options: HistoryOptions,
): Promise<HistoryChunk[]> {
  const level = options.level ?? 'session';
  const topK = options.topK ?? DEFAULT_HISTORY_TOP_K;
  if (!Number.isInteger(topK) || topK < 1) {
    throw new BenchmarkError(
      BenchmarkErrorCode.INVALID_CONFIG,
      `history topK must be a positive integer, got ${topK}`,
    );
  }
  if (options.userOnly && options.source === 'retrieval' && level === 'turn') {
    throw new BenchmarkError(
      BenchmarkErrorCode.INVALID_CONFIG,
      'user-only history is not defined for retrieved turns (the harness stops with a TypeError there): use session level, or full or oracle history',
    );
  }
  const userOnly = options.userOnly === true;
  const sessionTurns = (session: readonly LongMemEvalTurn[]): HistoryTurn[] =>
    (userOnly ? session.filter((turn) => turn.role === 'user') : session).map(cleaned);
  const singleTurn = options.cleanTurns ? cleaned : kept;
  const sessionChunks = (keep: (sessionId: string) => boolean): HistoryChunk[] => {
    const chunks: HistoryChunk[] = [];
    question.haystack_sessions.forEach((session, sessionIndex) => {
      if (!keep(question.haystack_session_ids[sessionIndex] ?? '')) return;
      const date = question.haystack_dates[sessionIndex] ?? '';
      if (level === 'session') {
        chunks.push({ date, sessionIndex, content: sessionTurns(session) });
        return;
      }
      for (const turn of session) {
        if (userOnly && turn.role !== 'user') continue;
        chunks.push({ date, sessionIndex, content: singleTurn(turn) });
      }
    });
    return chunks;
  };
  switch (options.source) {
    case 'none':
      return [];
    case 'full':
      // the harness keeps the latest k of the full history
      return sessionChunks(() => true).slice(-topK);
    case 'oracle': {
      const evidence = new Set(question.answer_session_ids);
      return sessionChunks((sessionId) => evidence.has(sessionId)).slice(0, topK);
    }
    case 'retrieval': {
      const rankedIds = options.rankedIds ?? (await rankCorpusIds(question, { ...options, level }));
      return rankedChunks(question, rankedIds, { level, userOnly }).slice(0, topK);
    }
    default:
      throw new BenchmarkError(
        BenchmarkErrorCode.INVALID_CONFIG,
        `unknown history source "${String(options.source)}" (expected ${historySources.join(', ')})`,
      );
  }
}

/**
 * The corpus ids of a question's retrieval corpus ranked for the question, best first; every item
 * is there, those the retriever did not match after the others in corpus order.
 */
export async function rankCorpusIds(
  question: LongMemEvalQuestion,
  options: Pick<HistoryOptions, 'retriever' | 'embedder' | 'assistantTurns'> & {
    level: RetrievalLevel;
  },
): Promise<string[]> {
  const corpus = buildRetrievalCorpus(question, options.level);
  if (corpus.documents.length === 0) return [];
  const retriever = await createLongMemEvalRetriever(options.retriever ?? 'fulltext', corpus, {
    ...(options.assistantTurns ? { assistantTurns: true } : {}),
    ...(options.embedder ? { embedder: options.embedder } : {}),
  });
  const hits = await retriever.search(question.question, { limit: Number.POSITIVE_INFINITY });
  return completeRanking(
    corpus,
    hits.map((hit) => hit.id),
  ).map((position) => corpus.corpusIds[position]!);
}

// the harness's prepare_prompt for flat-session and flat-turn, from the ranked corpus ids
function rankedChunks(
  question: LongMemEvalQuestion,
  rankedIds: readonly string[],
  options: { level: RetrievalLevel; userOnly: boolean },
): HistoryChunk[] {
  // corpusid2entry: a later session with the same id replaces an earlier one
  const sessionIndexOf = new Map(
    question.haystack_session_ids.map((sessionId, index) => [sessionId, index] as const),
  );
  const chunks: HistoryChunk[] = [];
  for (const rankedId of rankedIds) {
    const id = rankedId.replaceAll('noans_', 'answer_');
    if (options.level === 'session') {
      const sessionIndex = sessionIndexOf.get(id);
      if (sessionIndex === undefined) {
        throw new BenchmarkError(
          BenchmarkErrorCode.INVALID_INPUT,
          `question ${question.question_id}: the ranking names session "${rankedId}", which is not in its haystack`,
        );
      }
      const session = question.haystack_sessions[sessionIndex] ?? [];
      const turns = options.userOnly ? session.filter((turn) => turn.role === 'user') : session;
      chunks.push({
        date: question.haystack_dates[sessionIndex] ?? '',
        sessionIndex,
        content: turns.map(cleaned),
      });
      continue;
    }
    const parts = id.split('_');
    const turnNumber = Number(parts.pop());
    const sessionIndex = sessionIndexOf.get(parts.join('_'));
    if (!Number.isInteger(turnNumber)) {
      throw new BenchmarkError(
        BenchmarkErrorCode.INVALID_INPUT,
        `question ${question.question_id}: "${rankedId}" is not a turn id (<session>_<turn number>); is the ranking of turn level?`,
      );
    }
    // the harness skips a turn it cannot find
    if (sessionIndex === undefined) continue;
    const session = question.haystack_sessions[sessionIndex] ?? [];
    const turnIndex = turnNumber - 1;
    if (turnIndex < 0 || turnIndex >= session.length) continue;
    chunks.push({
      date: question.haystack_dates[sessionIndex] ?? '',
      sessionIndex,
      content: session.slice(turnIndex, turnIndex + 2).map(cleaned),
    });
  }
  return chunks;
}

function cleaned(turn: LongMemEvalTurn): HistoryTurn {
  return { role: turn.role, content: turn.content };
}

function kept(turn: LongMemEvalTurn): HistoryTurn {
  return turn.has_answer === undefined
    ? { role: turn.role, content: turn.content }
    : { role: turn.role, content: turn.content, has_answer: turn.has_answer };
}

/**
 * Writes the history block of the reader's prompt as the harness does: chunks sorted by date
 * (stable, so equal dates keep their order), each as `### Session i:` with its date and content,
 * the content being the JSON of the turns (`json`) or `role: content` lines (`nl`).
 */
export function formatHistory(
  chunks: readonly HistoryChunk[],
  options: { format?: HistoryFormat } = {},
): string {
  const format = options.format ?? 'json';
  const sorted = [...chunks].sort((left, right) =>
    left.date < right.date ? -1 : left.date > right.date ? 1 : 0,
  );
  let history = '';
  sorted.forEach((chunk, index) => {
    const content =
      format === 'json' ? `\n${pythonJsonDumps(chunk.content)}` : naturalLanguage(chunk.content);
    history += `\n### Session ${index + 1}:\nSession Date: ${chunk.date}\nSession Content:\n${content}\n`;
  });
  return history;
}

function naturalLanguage(content: HistoryContent): string {
  if (Array.isArray(content)) {
    return content.map((turn) => `\n\n${turn.role}: ${pythonStrip(turn.content)}`).join('');
  }
  if ('role' in content) return `${content.role}: ${pythonStrip(content.content)}`;
  throw new BenchmarkError(
    BenchmarkErrorCode.INVALID_CONFIG,
    'reading notes cannot be written in the nl history format (use json)',
  );
}
