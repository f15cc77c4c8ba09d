import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { LongMemEvalQuestion, LongMemEvalTurn } from '../src/index.js';

/** A made-up LongMemEval question; sessions are given as [id, turns]. */
export function makeQuestion(
  id: string,
  sessions: [string, LongMemEvalTurn[]][],
  overrides: Partial<LongMemEvalQuestion> = {},
): LongMemEvalQuestion {
  return {
    question_id: id,
    question_type: 'single-session-user',
    question: `Question ${id}?`,
    answer: 'an answer',
    question_date: '2023/05/30 (Tue) 23:40',
    haystack_dates: sessions.map((_, index) => `2023/05/${10 + index} (Sat) 02:21`),
    haystack_session_ids: sessions.map(([sessionId]) => sessionId),
    haystack_sessions: sessions.map(([, turns]) => turns),
    answer_session_ids: sessions
      .map(([sessionId]) => sessionId)
      .filter((sessionId) => sessionId.includes('answer')),
    ...overrides,
  };
}

export const user = (content: string, hasAnswer?: boolean): LongMemEvalTurn =>
  hasAnswer === undefined
    ? { role: 'user', content }
    : { role: 'user', content, has_answer: hasAnswer };

export const assistant = (content: string): LongMemEvalTurn => ({ role: 'assistant', content });

/** A temporary folder removed by the returned function. */
export async function temporaryFolder(): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), 'qualm-benchmark-'));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** Writes text to a file, gzipped when the name ends in `.gz`. */
export async function writeData(path: string, text: string): Promise<string> {
  await writeFile(path, path.endsWith('.gz') ? gzipSync(Buffer.from(text)) : text);
  return path;
}
