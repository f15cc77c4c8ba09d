import { createReadStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { AbstentionDetector } from '@qualm/search-core';
import { writeLongMemEvalFile } from '@qualm/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  readRetrievalLog,
  replayRuns,
  runLongMemEvalRetrieval,
  streamLongMemEval,
} from '../src/index.js';
import { temporaryFolder } from './longmemeval-records.js';

let folder: { path: string; remove: () => Promise<void> };

beforeEach(async () => {
  folder = await temporaryFolder();
});

afterEach(async () => {
  await folder.remove();
});

// the full-size M run (500 questions, 2.7 GB) and its memory are measured by
// bench/retrieval/longmemeval-m.ts; this is the same path on a few short questions
describe('a file shaped as LongMemEval M (500 sessions per question)', () => {
  it('streams through the loader, retrieval with its log, and the replay', async () => {
    const data = await writeLongMemEvalFile(join(folder.path, 'm.json'), {
      questions: 10,
      sessionsPerQuestion: 500,
      turnsPerSession: 2,
      wordsPerTurn: 12,
    });
    let sessions = 0;
    for await (const question of streamLongMemEval(data.path)) {
      sessions += question.haystack_sessions.length;
    }
    expect(sessions).toBe(5000);

    const logPath = join(folder.path, 'm.retrievallog');
    const retrieval = await runLongMemEvalRetrieval({
      path: data.path,
      level: 'session',
      retriever: 'fulltext',
      logPath,
    });
    // the abstention question is ranked and logged, not scored
    expect(retrieval.n).toBe(9);
    expect(retrieval.metrics['recall_any@5']).toBe(1);
    expect(retrieval.log?.lines).toBe(10);
    const log = await readRetrievalLog(logPath);
    expect([...log.rankings.values()].every((ranking) => ranking.length === 500)).toBe(true);
    let lines = 0;
    for await (const line of createInterface({ input: createReadStream(logPath) })) {
      if (line) lines += 1;
    }
    expect(lines).toBe(10);

    const runPath = join(folder.path, 'run.jsonl');
    await writeFile(
      runPath,
      Array.from({ length: 10 }, (_, index) =>
        JSON.stringify({
          question_id: `generated_${index}${index === 9 ? '_abs' : ''}`,
          hypothesis: index === 9 ? 'You mentioned a purple yacht.' : 'The kayak, as you said.',
          autoeval_label: { model: 'gpt-4o-2024-08-06', label: index !== 9 },
        }),
      ).join('\n'),
    );
    const replay = await replayRuns({
      sets: [{ dataPath: data.path, runPaths: [runPath] }],
      detector: new AbstentionDetector({ useNLI: false }),
    });
    expect(replay.runs[0]?.answers).toHaveLength(10);
  });
});
