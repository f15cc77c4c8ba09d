import { type ChatServer, startChatServer } from '@qualm/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type BatchProgress,
  resultPassed,
  type SummarizableResult,
  summarizeResults,
  type VerificationItem,
  verifyMany,
  verifyStream,
} from '../src/index.js';
import { callKind, capitalTemplate, lastUserText, testClient } from './helpers.js';

let server: ChatServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

function items(count: number): VerificationItem[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `item-${index}`,
    question: `Question number ${index}?`,
    response: `Answer number ${index}: Paris, ${index} million.`,
    expected: { city: 'Paris', population: index },
  }));
}

// the item number is in the response under judgement, inside the user message
function itemNumber(text: string): number {
  return Number(/Answer number (\d+)/.exec(text)?.[1] ?? -1);
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

describe('batch verification', () => {
  it('returns results in input order when later items finish first', async () => {
    server = await startChatServer({
      handler: async (body) => {
        const number = itemNumber(lastUserText(body));
        await sleep((10 - number) * 8);
        return { json: { city: 'Paris', population: number } };
      },
    });
    const { results } = await verifyMany(items(10), {
      judge: testClient(server.baseURL),
      template: capitalTemplate,
      concurrency: 10,
    });
    expect(results.map((result) => result.id)).toEqual(items(10).map((item) => item.id));
    expect(results.every((result) => result.verifyResult === true)).toBe(true);
  });

  it('never has more calls in flight than the concurrency limit', async () => {
    let inFlight = 0;
    let peak = 0;
    server = await startChatServer({
      handler: async (body) => {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        await sleep(15);
        inFlight -= 1;
        return { json: { city: 'Paris', population: itemNumber(lastUserText(body)) } };
      },
    });
    await verifyMany(items(24), {
      judge: testClient(server.baseURL),
      template: capitalTemplate,
      concurrency: 3,
    });
    expect(peak).toBe(3);
  });

  it('reports progress once per item, in order', async () => {
    server = await startChatServer({
      handler: (body) => ({ json: { city: 'Paris', population: itemNumber(lastUserText(body)) } }),
    });
    const seen: BatchProgress[] = [];
    await verifyMany(items(5), {
      judge: testClient(server.baseURL),
      template: capitalTemplate,
      concurrency: 2,
      onProgress: (progress) => seen.push(progress),
    });
    expect(seen.map((progress) => [progress.done, progress.index, progress.total])).toEqual([
      [1, 0, 5],
      [2, 1, 5],
      [3, 2, 5],
      [4, 3, 5],
      [5, 4, 5],
    ]);
    expect(seen.map((progress) => progress.result.id)).toEqual([
      'item-0',
      'item-1',
      'item-2',
      'item-3',
      'item-4',
    ]);
  });

  it("keeps every other item's result when one item fails", async () => {
    server = await startChatServer({
      handler: (body) => {
        const number = itemNumber(lastUserText(body));
        if (number === 2) return { fault: 'server_error', status: 500 };
        return { json: { city: 'Paris', population: number } };
      },
    });
    const batch = [...items(5)];
    batch[3] = { ...batch[3]!, template: { schema: 'not a schema' as never } };
    const { results, summary } = await verifyMany(batch, {
      judge: testClient(server.baseURL),
      template: capitalTemplate,
      concurrency: 4,
    });
    expect(results).toHaveLength(5);
    expect(results.map((result) => result.failedStage)).toEqual([
      null,
      null,
      'parse_template',
      'validate_template',
      null,
    ]);
    expect(results[2]?.error?.code).toBe('ENDPOINT_UNAVAILABLE');
    expect(summary).toMatchObject({ total: 5, passed: 3, failed: 2, errors: 2 });
  });

  it('takes an async iterable and yields as items finish', async () => {
    server = await startChatServer({
      handler: (body) => ({ json: { city: 'Paris', population: itemNumber(lastUserText(body)) } }),
    });
    async function* source() {
      for (const item of items(4)) {
        await sleep(1);
        yield item;
      }
    }
    const ids: (string | null)[] = [];
    for await (const result of verifyStream(source(), {
      judge: testClient(server.baseURL),
      template: capitalTemplate,
    })) {
      ids.push(result.id);
    }
    expect(ids).toEqual(['item-0', 'item-1', 'item-2', 'item-3']);
  });

  it('starts no item after the consumer stops, and closes the item source', async () => {
    server = await startChatServer({
      handler: async (body) => {
        await sleep(5);
        return { json: { city: 'Paris', population: itemNumber(lastUserText(body)) } };
      },
    });
    let pulled = 0;
    let closed = false;
    function* source() {
      try {
        for (const item of items(200)) {
          pulled += 1;
          yield item;
        }
      } finally {
        closed = true;
      }
    }
    for await (const result of verifyStream(source(), {
      judge: testClient(server.baseURL),
      template: capitalTemplate,
      concurrency: 2,
    })) {
      expect(result.id).toBe('item-0');
      break;
    }
    const pulledAtStop = pulled;
    await sleep(300);
    expect(closed).toBe(true);
    expect(pulled).toBe(pulledAtStop);
    expect(pulledAtStop).toBeLessThanOrEqual(3);
    expect(server.chatRequests().length).toBeLessThanOrEqual(pulledAtStop);
  });

  it('starts no item after the consumer throws', async () => {
    server = await startChatServer({
      handler: async (body) => {
        await sleep(5);
        return { json: { city: 'Paris', population: itemNumber(lastUserText(body)) } };
      },
    });
    const stop = async () => {
      for await (const _ of verifyStream(items(200), {
        judge: testClient(server!.baseURL),
        template: capitalTemplate,
        concurrency: 2,
      })) {
        throw new Error('consumer gave up');
      }
    };
    await expect(stop()).rejects.toThrow('consumer gave up');
    await sleep(300);
    // the first item, the one running beside it and the one started when the first finished
    expect(server.chatRequests().length).toBeLessThanOrEqual(3);
  });

  it('rejects a concurrency below 1', async () => {
    server = await startChatServer();
    await expect(
      verifyMany(items(1), {
        judge: testClient(server.baseURL),
        template: capitalTemplate,
        concurrency: 0,
      }),
    ).rejects.toThrow('concurrency must be an integer >= 1, got 0');
  });

  it('summarises abstention, insufficiency and pass rates with calls and tokens', async () => {
    server = await startChatServer({
      handler: (body) => {
        const number = itemNumber(lastUserText(body));
        const usage = { prompt_tokens: 10, completion_tokens: 2 };
        switch (callKind(body)) {
          case 'abstention':
            // item 0 abstains; item 1's abstention judge is down
            if (number === 1) return { fault: 'server_error' };
            return { json: { reasoning: 'r', abstained: number === 0 }, usage };
          case 'sufficiency':
            return {
              json: { reasoning: 'r', missingFields: [], sufficient: number !== 2 },
              usage,
            };
          default:
            // item 3 answers wrong; items 1 and 4 right
            return { json: { city: number === 3 ? 'Lyon' : 'Paris', population: number }, usage };
        }
      },
    });
    const { summary } = await verifyMany(items(5), {
      judge: testClient(server.baseURL),
      template: capitalTemplate,
      config: { abstentionEnabled: true, sufficiencyEnabled: true },
    });
    expect(summary).toEqual({
      total: 5,
      verified: 5,
      passed: 2,
      failed: 3,
      passRate: 0.4,
      abstentionChecked: 4,
      abstentionDetected: 1,
      abstentionRate: 0.25,
      sufficiencyChecked: 4,
      insufficient: 1,
      insufficiencyRate: 0.25,
      checkErrors: 1,
      errors: 0,
      rubricJudged: 0,
      rubricPassed: 0,
      failedStages: { abstention_check: 1, sufficiency_check: 1, verify_template: 1 },
      // calls: item 0: 1, item 1: 0 + 1 + 1, item 2: 2, items 3 and 4: 3 each; item 1 adds 2 retries
      llmCalls: 11,
      usage: {
        calls: 11,
        requests: 14,
        promptTokens: 110,
        completionTokens: 22,
        totalTokens: 132,
      },
    });
  });

  it('counts the rubric verdict in the pass rate where an item has no template result', async () => {
    // items 0-3 carry expected values (a template result); items 4-7 do not, so their rubric's
    // yes/no trait decides: it holds for even item numbers
    const mixed = items(8).map((item, index) =>
      index < 4 ? item : { ...item, expected: undefined },
    );
    server = await startChatServer({
      handler: (body) => {
        const number = itemNumber(lastUserText(body));
        if (callKind(body) === 'rubric') {
          return { json: { reasoning: 'r', scores: { direct: number % 2 === 0, clarity: 3 } } };
        }
        // items 2 and 3 parse to the wrong city
        return {
          json: { city: number === 2 || number === 3 ? 'Lyon' : 'Paris', population: number },
        };
      },
    });
    const rubric = {
      traits: [
        { name: 'direct', description: 'answers at once', kind: 'boolean' as const },
        { name: 'clarity', description: 'how clear', kind: 'score' as const },
      ],
    };
    const { results, summary } = await verifyMany(mixed, {
      judge: testClient(server.baseURL),
      template: capitalTemplate,
      rubric,
      config: { evaluationMode: 'template_and_rubric' },
    });
    expect(results.map(resultPassed)).toEqual([true, true, false, false, true, false, true, false]);
    expect(summary).toMatchObject({
      total: 8,
      verified: 4,
      passed: 2,
      failed: 2,
      rubricJudged: 4,
      rubricPassed: 2,
      passRate: 0.5,
    });
    // the template result comes first: item 1 passes with its rubric's "no", item 2 fails with a "yes"
    expect(results[1]?.rubricScores).toEqual({ direct: false, clarity: 3 });
    expect(results[2]?.rubricScores).toEqual({ direct: true, clarity: 3 });
  });

  it('counts a rubric verdict only from yes/no traits, and only where there is no template result', () => {
    const base = {
      failedStage: null,
      abstentionCheckPerformed: false,
      abstentionDetected: null,
      sufficiencyCheckPerformed: false,
      sufficiencyDetected: null,
      llmCalls: 1,
    };
    const records: SummarizableResult[] = [
      // the template result decides, whatever the rubric says
      { ...base, verifyResult: false, rubricScores: { direct: true } },
      // every yes/no trait yes: passes; the 1-5 score is not judged
      { ...base, verifyResult: null, rubricScores: { direct: true, concise: true, clarity: 1 } },
      // one yes/no trait no: fails
      { ...base, verifyResult: null, rubricScores: { direct: true, concise: false, clarity: 5 } },
      // scores only: shown, not judged
      { ...base, verifyResult: null, rubricScores: { clarity: 4 } },
      // not graded (the rubric errored), or template_only mode
      { ...base, verifyResult: null, rubricScores: null },
      { ...base, verifyResult: null },
    ];
    expect(records.map(resultPassed)).toEqual([false, true, false, null, null, null]);
    expect(summarizeResults(records)).toMatchObject({
      total: 6,
      verified: 1,
      passed: 0,
      failed: 1,
      rubricJudged: 2,
      rubricPassed: 1,
      passRate: 1 / 3,
    });
    // without rubric grades the pass rate is the template one, as before
    expect(summarizeResults(records.slice(4))).toMatchObject({ rubricJudged: 0, passRate: null });
  });

  it('summarises results read back from JSON lines', () => {
    const summary = summarizeResults([
      {
        verifyResult: true,
        failedStage: null,
        abstentionCheckPerformed: true,
        abstentionDetected: false,
        sufficiencyCheckPerformed: false,
        sufficiencyDetected: null,
        llmCalls: 2,
        usage: { calls: 2, totalTokens: 40 },
      },
      {
        verifyResult: null,
        failedStage: null,
        abstentionCheckPerformed: false,
        abstentionDetected: null,
        sufficiencyCheckPerformed: false,
        sufficiencyDetected: null,
        llmCalls: 1,
      },
    ]);
    expect(summary).toMatchObject({
      total: 2,
      verified: 1,
      passRate: 1,
      abstentionRate: 0,
      insufficiencyRate: null,
      llmCalls: 3,
    });
    expect(summary.usage.totalTokens).toBe(40);
  });
});
