import { abortListeners, type ChatServer, listenerWarnings, startChatServer } from '@qualm/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { linkSignal } from '../src/abort-link.js';
import {
  type ChatClient,
  mapConcurrently,
  runBatch,
  runVerificationBatch,
  type VerificationInputItem,
} from '../src/index.js';
import { capitalTemplate, testClient } from './helpers.js';

let server: ChatServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const items: VerificationInputItem[] = Array.from({ length: 60 }, (_, index) => ({
  id: `q${index}`,
  question: 'What is the capital of France and roughly how many people live there?',
  response: 'The capital of France is Paris, with about 2.1 million inhabitants.',
  expected: { city: 'Paris', population: 2.1 },
}));

async function capitalServer(): Promise<ChatServer> {
  // the latency keeps every slot busy, so the calls in flight overlap
  return startChatServer({
    latencyMs: 15,
    handler: () => ({ json: { city: 'Paris', population: 2.1 } }),
  });
}

describe('abort listeners of a run with many calls in flight', () => {
  it('a batch at concurrency 16 emits no MaxListenersExceededWarning and leaves no listener on the signal', async () => {
    server = await capitalServer();
    const judge = testClient(server.baseURL);
    const controller = new AbortController();
    let most = 0;
    let done = 0;
    const warnings = await listenerWarnings(async () => {
      const run = await runVerificationBatch({
        judge,
        answering: judge,
        template: capitalTemplate,
        items,
        concurrency: 16,
        signal: controller.signal,
        onProgress: () => {
          most = Math.max(most, abortListeners(controller.signal));
          done += 1;
        },
      });
      expect(run.written).toBe(items.length);
    });
    expect(warnings).toEqual([]);
    expect(done).toBe(items.length);
    // one listener links the run to the caller's signal, however many calls are in flight
    expect(most).toBe(1);
    expect(abortListeners(controller.signal)).toBe(0);
    // the calls really overlapped
    expect(server.chatRequests().length).toBeGreaterThanOrEqual(items.length);
  });

  it('the signal a work item gets holds one listener however many calls share it', async () => {
    server = await capitalServer();
    const client = testClient(server.baseURL);
    const counts: number[] = [];
    let shared: AbortSignal | undefined;
    const warnings = await listenerWarnings(async () => {
      const run = await runBatch({
        items: Array.from({ length: 60 }, (_, index) => index),
        total: 60,
        key: String,
        concurrency: 16,
        work: async (item, signal) => {
          shared = signal;
          const reply = client.complete([{ role: 'user', content: `item ${item}` }], { signal });
          // measured while this call and up to 15 others are in flight
          await new Promise((resolve) => setTimeout(resolve, 5));
          counts.push(abortListeners(signal));
          const result = await reply;
          return { record: { id: item, text: result.text }, usage: result.usage };
        },
      });
      expect(run.written).toBe(60);
    });
    expect(warnings).toEqual([]);
    expect(Math.max(...counts)).toBe(1);
    expect(shared && abortListeners(shared)).toBe(0);
  });

  it('batches run side by side on one signal, one per item, add one listener in all', async () => {
    server = await capitalServer();
    const judge: ChatClient = testClient(server.baseURL);
    const controller = new AbortController();
    let most = 0;
    const warnings = await listenerWarnings(async () => {
      for await (const run of mapConcurrently(
        items,
        (item) =>
          runVerificationBatch({
            judge,
            answering: judge,
            template: capitalTemplate,
            items: [item],
            concurrency: 1,
            signal: controller.signal,
            onProgress: () => {
              most = Math.max(most, abortListeners(controller.signal));
            },
          }),
        { concurrency: 16 },
      )) {
        expect(run.written).toBe(1);
      }
    });
    expect(warnings).toEqual([]);
    expect(most).toBe(1);
    expect(abortListeners(controller.signal)).toBe(0);
  });

  it('50 calls of one client in flight on one signal add one listener, removed when they end', async () => {
    server = await capitalServer();
    const client = testClient(server.baseURL);
    const controller = new AbortController();
    let during = 0;
    const warnings = await listenerWarnings(async () => {
      const calls = Array.from({ length: 50 }, (_, index) =>
        client.complete([{ role: 'user', content: `call ${index}` }], {
          signal: controller.signal,
        }),
      );
      during = abortListeners(controller.signal);
      await Promise.all(calls);
    });
    expect(warnings).toEqual([]);
    expect(during).toBe(1);
    expect(abortListeners(controller.signal)).toBe(0);
  });

  it('a linked signal aborts with its parent, and aborting it reaches neither the parent nor its siblings', () => {
    const parent = new AbortController();
    const first = linkSignal(parent.signal);
    const second = linkSignal(parent.signal);
    const third = linkSignal(parent.signal);
    expect(abortListeners(parent.signal)).toBe(1);
    first.abort(new Error('this call alone'));
    expect(parent.signal.aborted).toBe(false);
    expect(second.signal.aborted).toBe(false);
    first.release();
    second.release();
    expect(abortListeners(parent.signal)).toBe(1);
    const reason = new Error('interrupted');
    parent.abort(reason);
    expect(third.signal.reason).toBe(reason);
    // released before the abort: no longer linked
    expect(second.signal.aborted).toBe(false);
    third.release();
    expect(abortListeners(parent.signal)).toBe(0);
    // a link made after the abort starts aborted and adds no listener
    expect(linkSignal(parent.signal).signal.reason).toBe(reason);
    expect(abortListeners(parent.signal)).toBe(0);
  });

  it('an abort still reaches every call in flight and the run ends interrupted', async () => {
    server = await startChatServer({ handler: () => ({ fault: 'hang' }) });
    const judge = testClient(server.baseURL, { timeoutMs: 30_000 });
    const controller = new AbortController();
    const running = runVerificationBatch({
      judge,
      answering: judge,
      template: capitalTemplate,
      items,
      concurrency: 16,
      signal: controller.signal,
    });
    while (server.chatRequests().length < 16)
      await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(new Error('interrupted'));
    const run = await running;
    expect(run.interrupted).toBe(true);
    expect(run.written).toBe(0);
    expect(server.chatRequests().length).toBe(16);
    expect(abortListeners(controller.signal)).toBe(0);
  });
});
