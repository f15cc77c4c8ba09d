import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ChatServer, startChatServer } from '@qualm/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JudgeError, JudgeErrorCode, runVerificationBatch } from '../src/index.js';
import { capitalTemplate, lastUserText, testClient } from './helpers.js';

let server: ChatServer | undefined;
let directory: string;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'qualm-judge-down-'));
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  rmSync(directory, { recursive: true, force: true });
});

// twenty items, each response naming its own number, so a handler can tell them apart
const items = Array.from({ length: 20 }, (_, index) => ({
  id: `item-${index}`,
  question: 'Capital of France, population?',
  response: `Answer number ${index}: Paris, 2.1 million.`,
}));

const answer = { json: { city: 'Paris', population: 2.1 } };

// the item a parsing request is about, from the response it quotes
function itemNumber(text: string): number {
  return Number(/Answer number (\d+)/.exec(text)?.[1] ?? -1);
}

function idsIn(path: string): string[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => String((JSON.parse(line) as { id: unknown }).id));
}

describe('a run against an endpoint that keeps failing', () => {
  it('stops after five items in a row failed, keeps what was written, and a rerun goes on', async () => {
    // the first three items are judged, then the endpoint answers 500 to everything
    server = await startChatServer({
      handler: (body) =>
        itemNumber(lastUserText(body)) < 3 ? answer : { fault: 'server_error', status: 500 },
    });
    const out = join(directory, 'judged.jsonl');
    const judge = testClient(server.baseURL);
    const first = await runVerificationBatch({
      items,
      judge,
      template: capitalTemplate,
      out,
      concurrency: 1,
    });
    expect(first.written).toBe(3);
    expect(idsIn(out)).toEqual(['item-0', 'item-1', 'item-2']);
    expect(first.endpointStop).toMatchObject({
      inARow: 5,
      last: { id: 'item-7', code: JudgeErrorCode.ENDPOINT_UNAVAILABLE },
    });
    expect(first.failures.map((failure) => failure.id)).toEqual([
      'item-3',
      'item-4',
      'item-5',
      'item-6',
      'item-7',
    ]);
    // every item without a result is named, the ones never sent included
    expect(first.notJudged).toEqual(items.slice(3).map((item) => item.id));
    // 3 answers, then 5 items × 3 attempts; the 12 items after them were never sent
    expect(server.chatRequests()).toHaveLength(3 + 5 * 3);
    expect(first.usage.requests).toBe(3 + 5 * 3);

    server.setHandler(() => answer);
    const second = await runVerificationBatch({ items, judge, template: capitalTemplate, out });
    expect(second).toMatchObject({ alreadyDone: 3, written: 17, notJudged: [] });
    expect(second.endpointStop).toBeUndefined();
    expect(idsIn(out).sort()).toEqual(items.map((item) => item.id).sort());
  });

  it('starts the count over when an item is judged in between', async () => {
    // four failures, one success, four failures, ...: never five in a row
    server = await startChatServer({
      handler: (body) =>
        itemNumber(lastUserText(body)) % 5 === 4 ? answer : { fault: 'server_error', status: 503 },
    });
    const run = await runVerificationBatch({
      items,
      judge: testClient(server.baseURL),
      template: capitalTemplate,
      concurrency: 1,
    });
    expect(run.endpointStop).toBeUndefined();
    expect(run.written).toBe(4);
    expect(run.failures).toHaveLength(16);
  });

  it('stops after the number of items given, and never with 0', async () => {
    server = await startChatServer({ handler: () => ({ fault: 'server_error', status: 500 }) });
    const judge = testClient(server.baseURL, { maxAttempts: 1 });
    const options = { items, judge, template: capitalTemplate, concurrency: 1 };
    const early = await runVerificationBatch({ ...options, stopAfterEndpointFailures: 2 });
    expect(early.endpointStop?.inARow).toBe(2);
    expect(early.notJudged).toHaveLength(20);
    expect(server.chatRequests()).toHaveLength(2);

    server.clearRequests();
    const never = await runVerificationBatch({ ...options, stopAfterEndpointFailures: 0 });
    expect(never.endpointStop).toBeUndefined();
    expect(never.failures).toHaveLength(20);
    expect(server.chatRequests()).toHaveLength(20);
  });

  it('aborts the calls under way when it stops, instead of waiting for their timeouts', async () => {
    // items 0 to 4 fail at once; the others hang until the client gives up
    server = await startChatServer({
      handler: (body) =>
        itemNumber(lastUserText(body)) < 5
          ? { fault: 'server_error', status: 500 }
          : { fault: 'hang' },
    });
    const started = performance.now();
    const run = await runVerificationBatch({
      items,
      judge: testClient(server.baseURL, { timeoutMs: 20_000, maxAttempts: 1 }),
      template: capitalTemplate,
      concurrency: 4,
    });
    expect(run.endpointStop?.inARow).toBe(5);
    expect(run.written).toBe(0);
    expect(run.notJudged).toHaveLength(20);
    // a wait for the hanging calls would have taken twenty seconds
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('reports this run apart from the whole output: a resumed run that made no call says so', async () => {
    server = await startChatServer({ handler: () => answer });
    const out = join(directory, 'judged.jsonl');
    const options = {
      items: items.slice(0, 4),
      judge: testClient(server.baseURL),
      template: capitalTemplate,
      out,
    };
    const first = await runVerificationBatch(options);
    expect(first.runSummary).toMatchObject({ total: 4, llmCalls: 4 });
    const again = await runVerificationBatch(options);
    expect(again.runSummary).toMatchObject({ total: 0, llmCalls: 0 });
    expect(again.usage.requests).toBe(0);
    expect(again.summary).toMatchObject({ total: 4, llmCalls: 4 });
  });
});

describe('the endpoint check before a run', () => {
  it('stops after one wait when GET /models never answers, naming the check', async () => {
    server = await startChatServer({ modelsReply: { fault: 'hang' } });
    const started = performance.now();
    let error: unknown;
    try {
      await runVerificationBatch({
        items,
        judge: testClient(server.baseURL, { timeoutMs: 400, maxAttempts: 3 }),
        template: capitalTemplate,
      });
    } catch (thrown) {
      error = thrown;
    }
    expect(JudgeError.isInstance(error)).toBe(true);
    expect((error as JudgeError).code).toBe(JudgeErrorCode.TIMEOUT);
    expect((error as JudgeError).kind).toBe('unavailable');
    expect((error as JudgeError).message).toContain(`GET ${server.baseURL}/models`);
    // one request, not three: a retry would have waited another 400 ms each
    expect(server.requests.filter((request) => request.path === '/v1/models')).toHaveLength(1);
    expect(server.chatRequests()).toHaveLength(0);
    expect(performance.now() - started).toBeLessThan(1_200);
  });
});
