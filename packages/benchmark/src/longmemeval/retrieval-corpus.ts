import type { RetrievalDocument } from '@qualm/search-core';
import type { LongMemEvalQuestion } from './schema.js';

/** What a retrieval document stands for: a whole session or a single user turn. */
export type RetrievalLevel = 'session' | 'turn';

/** Metadata of a LongMemEval retrieval document. */
export interface LongMemEvalDocumentMetadata {
  /** The id the official harness gives this item (not unique when a haystack repeats a session). */
  corpusId: string;
  /** The haystack session the item comes from. */
  sessionId: string;
  /** The session's timestamp, as in `haystack_dates`. */
  date: string;
  /** Position of the turn in its session, counted from 1 over all turns (turn level only). */
  turn?: number;
  /** The assistant side: every assistant turn of the session, or the reply to the turn. */
  assistantText: string;
}

/** The documents of one question's haystack, their harness ids and the gold ids. */
export interface RetrievalCorpus {
  /** One document per item, ids unique (a repeated corpus id gets a `#2`, `#3`… suffix). */
  documents: (RetrievalDocument & { metadata: LongMemEvalDocumentMetadata })[];
  /** The harness's corpus id of each document, by position. */
  corpusIds: string[];
  /** Distinct corpus ids that count as evidence (those containing "answer"). */
  goldIds: string[];
}

/**
 * Builds a question's retrieval corpus exactly as the official harness does
 * (xiaowu0162/LongMemEval, src/retrieval/run_retrieval.py, `process_item_flat_index` and
 * `batch_get_retrieved_context_and_eval`):
 * - session level: a session's text is its user turns joined by a space; an evidence session
 *   (id containing "answer") none of whose user turns has `has_answer` is renamed "answer" →
 *   "noans", so it is not gold;
 * - turn level: one item per user turn, id `<session>_<i>` with i counted from 1 over all turns;
 *   in an evidence session a turn without `has_answer` is renamed "answer" → "noans";
 * - gold: the distinct ids that still contain "answer".
 */
export function buildRetrievalCorpus(
  question: LongMemEvalQuestion,
  level: RetrievalLevel,
): RetrievalCorpus {
  const documents: RetrievalCorpus['documents'] = [];
  const corpusIds: string[] = [];
  const seen = new Map<string, number>();
  const add = (
    corpusId: string,
    text: string,
    metadata: Omit<LongMemEvalDocumentMetadata, 'corpusId'>,
  ) => {
    const count = (seen.get(corpusId) ?? 0) + 1;
    seen.set(corpusId, count);
    documents.push({
      id: count === 1 ? corpusId : `${corpusId}#${count}`,
      text,
      metadata: { corpusId, ...metadata },
    });
    corpusIds.push(corpusId);
  };
  question.haystack_sessions.forEach((session, sessionIndex) => {
    const sessionId = question.haystack_session_ids[sessionIndex] ?? `${sessionIndex}`;
    const date = question.haystack_dates[sessionIndex] ?? '';
    const isEvidence = sessionId.includes('answer');
    if (level === 'session') {
      const userTurns = session.filter((turn) => turn.role === 'user');
      const text = userTurns.map((turn) => turn.content).join(' ');
      const assistantText = session
        .filter((turn) => turn.role === 'assistant')
        .map((turn) => turn.content)
        .join(' ');
      const hasEvidence = userTurns.some((turn) => turn.has_answer === true);
      const corpusId =
        isEvidence && !hasEvidence ? sessionId.replaceAll('answer', 'noans') : sessionId;
      add(corpusId, text, { sessionId, date, assistantText });
      return;
    }
    session.forEach((turn, turnIndex) => {
      if (turn.role !== 'user') return;
      const id = `${sessionId}_${turnIndex + 1}`;
      const corpusId =
        isEvidence && turn.has_answer !== true ? id.replaceAll('answer', 'noans') : id;
      const reply = session[turnIndex + 1];
      add(corpusId, turn.content, {
        sessionId,
        date,
        turn: turnIndex + 1,
        assistantText: reply?.role === 'assistant' ? reply.content : '',
      });
    });
  });
  const goldIds = [...new Set(corpusIds.filter((id) => id.includes('answer')))];
  return { documents, corpusIds, goldIds };
}
