import type { Embedder } from '@qualm/search-core';
import { BenchmarkError, BenchmarkErrorCode } from '../errors.js';
import { buildRetrievalCorpus, type RetrievalLevel } from './retrieval-corpus.js';
import { createLongMemEvalRetriever, type RetrieverKind } from './retrievers.js';
import type { LongMemEvalQuestion } from './schema.js';

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

/** A turn as the reader sees it: `has_answer` is never shown. */
export interface HistoryTurn {
  role: 'user' | 'assistant';
  content: string;
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
   * How many chunks to keep: the latest k of the full history, the first k oracle sessions, the
   * best k retrieved. Full and oracle history keep everything unless given; retrieval keeps 10.
   */
  topK?: number;
  /** How each chunk is written (`json`, the harness's default). */
  format?: HistoryFormat;
  /** Retriever of the `retrieval` source (`fulltext`). */
  retriever?: RetrieverKind;
  /** Embedding model of the dense and hybrid retrievers. */
  embedder?: Embedder;
  /** Index the assistant side too, as the retrieval evaluation can. */
  assistantTurns?: boolean;
}

const defaultRetrievalTopK = 10;

/**
 * Picks the history chunks a reader sees for a question, in the harness's order before sorting
 * (github.com/xiaowu0162/LongMemEval, src/generation/run_generation.py, `prepare_prompt`): the
 * haystack order for full and oracle history, the ranking for retrieval. A retrieved turn comes
 * with the turn after it (the harness expands a turn into its round). Retrieval indexes the
 * question's sessions or user turns as the retrieval evaluation does and queries with the question.
 */
export async function selectHistory(
  question: LongMemEvalQuestion,
  options: HistoryOptions,
): Promise<HistoryChunk[]> {
  const level = options.level ?? 'session';
  const topK = options.topK;
  if (topK !== undefined && (!Number.isInteger(topK) || topK < 1)) {
    throw new BenchmarkError(
      BenchmarkErrorCode.INVALID_CONFIG,
      `history topK must be a positive integer, got ${topK}`,
    );
  }
  const sessionChunks = (keep: (sessionId: string) => boolean): HistoryChunk[] => {
    const chunks: HistoryChunk[] = [];
    question.haystack_sessions.forEach((session, sessionIndex) => {
      if (!keep(question.haystack_session_ids[sessionIndex] ?? '')) return;
      const date = question.haystack_dates[sessionIndex] ?? '';
      if (level === 'session') chunks.push({ date, sessionIndex, content: session.map(shown) });
      else for (const turn of session) chunks.push({ date, sessionIndex, content: shown(turn) });
    });
    return chunks;
  };
  switch (options.source) {
    case 'none':
      return [];
    case 'full': {
      const chunks = sessionChunks(() => true);
      // the harness keeps the latest k of the full history
      return topK === undefined ? chunks : chunks.slice(-topK);
    }
    case 'oracle': {
      const evidence = new Set(question.answer_session_ids);
      const chunks = sessionChunks((sessionId) => evidence.has(sessionId));
      return topK === undefined ? chunks : chunks.slice(0, topK);
    }
    case 'retrieval':
      return retrievedChunks(question, { ...options, level, topK: topK ?? defaultRetrievalTopK });
    default:
      throw new BenchmarkError(
        BenchmarkErrorCode.INVALID_CONFIG,
        `unknown history source "${String(options.source)}" (expected ${historySources.join(', ')})`,
      );
  }
}

async function retrievedChunks(
  question: LongMemEvalQuestion,
  options: HistoryOptions & { level: RetrievalLevel; topK: number },
): Promise<HistoryChunk[]> {
  const corpus = buildRetrievalCorpus(question, options.level);
  if (corpus.documents.length === 0) return [];
  // positions of the corpus documents, in the order buildRetrievalCorpus emits them
  const positions: { sessionIndex: number; turnIndex: number }[] = [];
  question.haystack_sessions.forEach((session, sessionIndex) => {
    if (options.level === 'session') positions.push({ sessionIndex, turnIndex: -1 });
    else
      session.forEach((turn, turnIndex) => {
        if (turn.role === 'user') positions.push({ sessionIndex, turnIndex });
      });
  });
  const byId = new Map(corpus.documents.map((document, index) => [document.id, index]));
  const retriever = await createLongMemEvalRetriever(options.retriever ?? 'fulltext', corpus, {
    ...(options.assistantTurns ? { assistantTurns: true } : {}),
    ...(options.embedder ? { embedder: options.embedder } : {}),
  });
  const hits = await retriever.search(question.question, { limit: options.topK });
  const chunks: HistoryChunk[] = [];
  for (const hit of hits) {
    const position = positions[byId.get(hit.id) ?? -1];
    if (!position) continue;
    const session = question.haystack_sessions[position.sessionIndex] ?? [];
    const date = question.haystack_dates[position.sessionIndex] ?? '';
    const content =
      position.turnIndex < 0
        ? session.map(shown)
        : session.slice(position.turnIndex, position.turnIndex + 2).map(shown);
    chunks.push({ date, sessionIndex: position.sessionIndex, content });
  }
  return chunks.slice(0, options.topK);
}

function shown(turn: { role: 'user' | 'assistant'; content: string }): HistoryTurn {
  return { role: turn.role, content: turn.content };
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
    return content.map((turn) => `\n\n${turn.role}: ${turn.content.trim()}`).join('');
  }
  if ('role' in content) return `${content.role}: ${content.content.trim()}`;
  throw new BenchmarkError(
    BenchmarkErrorCode.INVALID_CONFIG,
    'reading notes cannot be written in the nl history format (use json)',
  );
}

/**
 * JSON text exactly as Python's `json.dumps` writes it by default: `", "` and `": "` separators and
 * every character outside printable ASCII escaped as `\uXXXX` (`ensure_ascii`), so prompts match
 * the harness's byte for byte.
 */
export function pythonJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') {
    return JSON.stringify(value).replace(
      /[\u007f-\uffff]/g,
      (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  }
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'NaN';
    if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
    return JSON.stringify(value);
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(
      ([, entry]) => entry !== undefined,
    );
    return `{${entries.map(([key, entry]) => `${pythonJsonDumps(key)}: ${pythonJsonDumps(entry)}`).join(', ')}}`;
  }
  throw new BenchmarkError(
    BenchmarkErrorCode.INVALID_INPUT,
    `cannot write a ${typeof value} as JSON`,
  );
}
