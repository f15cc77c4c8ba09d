import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createChatClient } from '@qualm/judge';
import { type ChatServer, startChatServer } from '@qualm/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { replayRuns, runEvaluation, runReader, scoreRunFile } from '../src/index.js';
import {
  assistant,
  makeQuestion,
  temporaryFolder,
  user,
  writeData,
} from './longmemeval-records.js';

let folder: { path: string; remove: () => Promise<void> };
let server: ChatServer | undefined;

beforeEach(async () => {
  folder = await temporaryFolder();
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  await folder.remove();
});

// a model of the harness's table, so that the reader knows the context length it cuts to
const client = () =>
  createChatClient({
    model: 'gpt-4o-mini-2024-07-18',
    baseURL: server!.baseURL,
    apiKey: 'test-key',
    backoff: { baseDelayMs: 1, maxDelayMs: 2 },
  });

// each question asks for the shelf a book stands on; one session says it
const questions = Array.from({ length: 6 }, (_, index) =>
  makeQuestion(
    `shelf${index}`,
    [['answer_books', [user(`Book ${index} is on shelf ${index + 2}.`, true), assistant('OK.')]]],
    { question: `Which shelf holds book ${index}?`, answer: `shelf ${index + 2}` },
  ),
);

async function data(): Promise<string> {
  return writeData(join(folder.path, 'books.json'), JSON.stringify(questions));
}

async function lines(path: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(path, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('resumable reader and evaluator runs', () => {
  it('the reader never writes an answer whose reply was not a chat completion', async () => {
    server = await startChatServer({
      handler: (body) =>
        String(body.messages.at(-1)?.content).includes('book 3')
          ? { fault: 'malformed_json' }
          : { content: 'Shelf.' },
    });
    const outPath = join(folder.path, 'hypotheses.jsonl');
    const run = await runReader({
      client: client(),
      dataPath: await data(),
      outPath,
      history: { source: 'full' },
    });
    expect(run.written).toBe(5);
    expect(run.failures).toEqual([
      expect.objectContaining({ id: 'shelf3', code: 'MALFORMED_REPLY', kind: 'unavailable' }),
    ]);
    expect((await lines(outPath)).map((line) => line.question_id)).not.toContain('shelf3');
  });

  it('the reader stops on its signal with whole lines, and says it was interrupted', async () => {
    server = await startChatServer({ latencyMs: 30, handler: () => ({ content: 'Shelf.' }) });
    const controller = new AbortController();
    const outPath = join(folder.path, 'hypotheses.jsonl');
    const run = await runReader({
      client: client(),
      dataPath: await data(),
      outPath,
      history: { source: 'full' },
      concurrency: 1,
      signal: controller.signal,
      onProgress: ({ done }) => {
        if (done === 2) controller.abort();
      },
    });
    expect(run.interrupted).toBe(true);
    expect(run.written).toBe(2);
    expect(await lines(outPath)).toHaveLength(2);
  });

  it('the reader refuses question ids that are all missing from the data', async () => {
    server = await startChatServer();
    const run = runReader({
      client: client(),
      dataPath: await data(),
      outPath: join(folder.path, 'h.jsonl'),
      history: { source: 'full' },
      questionIds: ['shelf99', 'atlas'],
    });
    await expect(run).rejects.toMatchObject({ code: 'NOTHING_TO_DO', kind: 'invalid_input' });
    expect(server.requests).toHaveLength(0);
  });

  it('the evaluator refuses an empty run and a run on another data file', async () => {
    server = await startChatServer();
    const empty = join(folder.path, 'empty.jsonl');
    await writeFile(empty, '');
    const options = { client: client(), dataPath: await data(), outPath: join(folder.path, 'o') };
    await expect(runEvaluation({ ...options, runPath: empty })).rejects.toThrow(
      'holds no hypotheses',
    );
    const other = join(folder.path, 'other.jsonl');
    await writeFile(other, '{"question_id": "kettle1", "hypothesis": "x"}\n');
    await expect(runEvaluation({ ...options, runPath: other })).rejects.toThrow(
      /none of the 1 question ids of .*other\.jsonl is in/,
    );
    expect(server.requests).toHaveLength(0);
  });
});

describe('scoring and replaying runs with nothing to score', () => {
  it('refuses a run file that is binary data, naming it', async () => {
    const binary = join(folder.path, 'run.bin');
    await writeFile(binary, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0]));
    await expect(scoreRunFile(binary, await data())).rejects.toThrow(
      `${binary} is binary data, not JSON text`,
    );
  });

  it('scoreRunFile and replayRuns refuse an empty run and one whose ids are unknown', async () => {
    const dataPath = await data();
    const empty = join(folder.path, 'empty.jsonl');
    await writeFile(empty, '');
    const other = join(folder.path, 'other.jsonl');
    await writeFile(
      other,
      '{"question_id": "kettle1", "hypothesis": "x", "autoeval_label": {"model": "m", "label": true}}\n',
    );
    await expect(scoreRunFile(empty, dataPath)).rejects.toMatchObject({ code: 'NOTHING_TO_DO' });
    await expect(scoreRunFile(other, dataPath)).rejects.toThrow('none of the 1 question ids');
    await expect(replayRuns({ sets: [{ dataPath, runPaths: [empty] }] })).rejects.toThrow(
      'holds no judged answers',
    );
    await expect(replayRuns({ sets: [{ dataPath, runPaths: [other] }] })).rejects.toThrow(
      'none of the 1 question ids',
    );
  });
});
