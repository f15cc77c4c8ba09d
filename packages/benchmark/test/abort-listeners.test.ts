import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createChatClient } from '@qualm/judge';
import {
  abortListeners,
  type ChatServer,
  type ChatServerRequestBody,
  listenerWarnings,
  startChatServer,
} from '@qualm/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runEvaluation, runReader } from '../src/index.js';
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

const questions = Array.from({ length: 60 }, (_, index) =>
  makeQuestion(`q${index}`, [
    [`answer_${index}`, [user(`Fact ${index} is true.`, true), assistant('Noted.')]],
  ]),
);

const promptOf = (body: ChatServerRequestBody) => String(body.messages.at(-1)?.content ?? '');

/**
 * Answers after a short delay, so that 16 calls are in flight at once; the first request of every
 * third question fails with a 500, so that retries (and their waits) run on the shared signal too.
 */
async function busyServer(answer: string): Promise<ChatServer> {
  const failedOnce = new Set<string>();
  return startChatServer({
    latencyMs: 15,
    handler: (body) => {
      const id = /Question (q\d+)\?/.exec(promptOf(body))?.[1] ?? '';
      if (Number(id.slice(1)) % 3 === 0 && !failedOnce.has(id)) {
        failedOnce.add(id);
        return { fault: 'server_error' };
      }
      return { content: answer };
    },
  });
}

function client(baseURL: string) {
  return createChatClient({
    model: 'gpt-4o-2024-08-06',
    baseURL,
    apiKey: 'test-key',
    backoff: { baseDelayMs: 5, maxDelayMs: 20, jitter: 0 },
  });
}

describe('abort listeners of a benchmark run with many calls in flight', () => {
  it('generation at concurrency 16 emits no MaxListenersExceededWarning and leaves no listener on the signal', async () => {
    server = await busyServer('An answer.');
    const dataPath = await writeData(join(folder.path, 'data.json'), JSON.stringify(questions));
    const controller = new AbortController();
    let most = 0;
    const warnings = await listenerWarnings(async () => {
      const run = await runReader({
        client: client(server!.baseURL),
        dataPath,
        outPath: join(folder.path, 'hypotheses.jsonl'),
        method: 'direct',
        history: { source: 'oracle' },
        concurrency: 16,
        signal: controller.signal,
        onProgress: () => {
          most = Math.max(most, abortListeners(controller.signal));
        },
      });
      expect(run).toMatchObject({ total: 60, written: 60, failures: [] });
    });
    expect(warnings).toEqual([]);
    // one listener links the run to the caller's signal, however many calls are in flight
    expect(most).toBe(1);
    expect(abortListeners(controller.signal)).toBe(0);
    // 20 questions were retried once
    expect(server.chatRequests()).toHaveLength(80);
  });

  it('evaluation at concurrency 16 emits no MaxListenersExceededWarning and leaves no listener on the signal', async () => {
    server = await busyServer('yes');
    const dataPath = await writeData(join(folder.path, 'data.json'), JSON.stringify(questions));
    const runPath = join(folder.path, 'hypotheses.jsonl');
    await writeFile(
      runPath,
      questions
        .map((entry) => JSON.stringify({ question_id: entry.question_id, hypothesis: 'an answer' }))
        .join('\n'),
    );
    const controller = new AbortController();
    let most = 0;
    const warnings = await listenerWarnings(async () => {
      const run = await runEvaluation({
        client: client(server!.baseURL),
        dataPath,
        runPath,
        outPath: join(folder.path, 'eval-results.jsonl'),
        concurrency: 16,
        signal: controller.signal,
        onProgress: () => {
          most = Math.max(most, abortListeners(controller.signal));
        },
      });
      expect(run).toMatchObject({ total: 60, written: 60, failures: [] });
    });
    expect(warnings).toEqual([]);
    expect(most).toBe(1);
    expect(abortListeners(controller.signal)).toBe(0);
  });
});
