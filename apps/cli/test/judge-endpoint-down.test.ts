import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type ChatServer,
  type ChatServerOptions,
  type ChatServerReply,
  type ChatServerRequestBody,
  startChatServer,
} from '@qualm/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { endpointEnvironment, qualmWithEnvironment } from './qualm-process.js';

const examples = fileURLToPath(new URL('../../../examples/judge/', import.meta.url));
const exampleInput = join(examples, 'input.jsonl');
const template = join(examples, 'template.schema.json');
const qualm = qualmWithEnvironment(endpointEnvironment('sk-cli-test-secret-0123456789'));

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

const answer: ChatServerReply = { json: { city: 'Paris', population_millions: 2.1 } };
const serverError: ChatServerReply = { fault: 'server_error', status: 500 };

async function start(options: ChatServerOptions): Promise<ChatServer> {
  server = await startChatServer(options);
  return server;
}

// forty items whose responses carry their number, so the server can tell them apart
function fortyItems(): string {
  const path = join(directory, 'forty.jsonl');
  const lines = Array.from({ length: 40 }, (_, index) =>
    JSON.stringify({
      id: `item-${index}`,
      question: 'What is the capital of France, and how many live there?',
      response: `Answer number ${index}: Paris, 2.1 million.`,
    }),
  );
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

function itemNumber(body: ChatServerRequestBody): number {
  const text = body.messages.map((message) => String(message.content)).join('\n');
  return Number(/Answer number (\d+)/.exec(text)?.[1] ?? -1);
}

function judgeArgs(inputPath: string, baseURL: string, flags: string[]): string[] {
  return ['judge', '--input', inputPath, '--template', template, '--base-url', baseURL, ...flags];
}

function idsIn(path: string): string[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => String((JSON.parse(line) as { id: unknown }).id));
}

describe('qualm judge against an endpoint that is down', () => {
  it('stops after five items in a row failed, in one line that says what was written and how to go on', async () => {
    // the first three items are judged, then every request gets a 500
    const judge = await start({ handler: (body) => (itemNumber(body) < 3 ? answer : serverError) });
    const input = fortyItems();
    const out = join(directory, 'judged.jsonl');
    const flags = ['--concurrency', '1', '--retry-delay', '1', '--out', out];
    const result = await qualm(judgeArgs(input, judge.baseURL, flags));
    expect(result.code).toBe(1);
    const stderr = result.stderr.trim().split('\n');
    expect(stderr).toHaveLength(1);
    expect(stderr[0]).toMatch(
      /^qualm: stopped early: the endpoint kept failing \(5 items in a row, the last item-7: ENDPOINT_UNAVAILABLE: .*\(500\)/,
    );
    expect(stderr[0]).toContain(
      `3 result(s) appended to ${out}, 37 item(s) not judged; run the same command again to judge them once the endpoint answers`,
    );
    expect(idsIn(out)).toEqual(['item-0', 'item-1', 'item-2']);
    // 3 answered, then 5 items × 3 attempts; going on would have sent 3 + 37 × 3
    expect(judge.chatRequests()).toHaveLength(3 + 5 * 3);
    expect(result.stdout).toMatch(/not judged\s+37\s+-/);
    expect(result.stdout).toContain(
      'not judged: item-3, item-4, item-5, item-6, item-7 and 32 more',
    );

    judge.setHandler(() => answer);
    const rerun = await qualm(judgeArgs(input, judge.baseURL, flags));
    expect(rerun.code).toBe(0);
    expect(idsIn(out)).toHaveLength(40);
  });

  it('counts and names the items it could not judge, in --format json, the table and on stderr', async () => {
    const judge = await start({ handler: () => serverError });
    const flags = ['--retry-delay', '1', '--stop-after-failures', '0'];
    const json = await qualm(
      judgeArgs(exampleInput, judge.baseURL, [...flags, '--format', 'json']),
    );
    expect(json.code).toBe(1);
    const body = JSON.parse(json.stdout) as {
      results: unknown[];
      run: Record<string, unknown>;
    };
    expect(body.results).toEqual([]);
    expect(body.run).toMatchObject({
      items: 5,
      judged: 0,
      notJudged: 5,
      notJudgedIds: ['fr', 'jp', 'it', 'de', 'es'],
      moreNotJudged: 0,
      stoppedEarly: false,
      requests: 15,
    });
    expect(json.stderr).toContain(
      'qualm: 5 item(s) could not be judged because the endpoint failed: fr, jp, it, de, es (first error: ENDPOINT_UNAVAILABLE:',
    );

    const table = await qualm(judgeArgs(exampleInput, judge.baseURL, [...flags, '--progress']));
    expect(table.code).toBe(1);
    expect(table.stdout).toMatch(/^judged\s+0$/m);
    expect(table.stdout).toMatch(/^not judged\s+5$/m);
    expect(table.stdout).toContain('not judged: fr, jp, it, de, es');
    // progress counts the failed items apart, never as judged
    expect(table.stderr).toMatch(/^judge 0\/5 \(0%\) .*; 5 failed$/m);
    expect(table.stderr).not.toMatch(/judge 5\/5/);
  });

  it('prints progress on its timer while calls hang, saying how many items wait and for how long', async () => {
    const judge = await start({ handler: () => ({ fault: 'hang' }) });
    const result = await qualm(
      judgeArgs(exampleInput, judge.baseURL, [
        '--timeout',
        '2500',
        '--max-attempts',
        '1',
        '--concurrency',
        '2',
        '--stop-after-failures',
        '2',
        '--progress',
      ]),
    );
    expect(result.code).toBe(1);
    // before any item finished, a line a second (with --progress) says what is pending
    expect(result.stderr).toMatch(
      /^judge 0\/5 \(0%\) 0\.0\/s, [12]\.\ds; 2 item\(s\) waiting for the endpoint, the longest [12]s$/m,
    );
    expect(result.stderr).toMatch(/qualm: stopped early: the endpoint kept failing \(2 items/);
  });

  it('stops after one wait, with exit 1, when the endpoint check gets no answer', async () => {
    const judge = await start({ modelsReply: { fault: 'hang' } });
    const result = await qualm(
      judgeArgs(exampleInput, judge.baseURL, ['--timeout', '800', '--max-attempts', '3']),
    );
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      `qualm: the endpoint check before the run (GET ${judge.baseURL}/models) failed: no answer from ${judge.baseURL} within 800 ms; nothing was judged: check that the server is up and answering, or allow a longer timeout`,
    ]);
    // one request: three would each have waited the whole timeout
    expect(judge.requests.filter((request) => request.path === '/v1/models')).toHaveLength(1);
    expect(judge.chatRequests()).toHaveLength(0);
  });

  it('says what a resumed run did apart from the whole file: no calls when nothing was left', async () => {
    const judge = await start({ handler: () => answer });
    const out = join(directory, 'judged.jsonl');
    const flags = ['--out', out];
    expect((await qualm(judgeArgs(exampleInput, judge.baseURL, flags))).code).toBe(0);
    const again = await qualm(judgeArgs(exampleInput, judge.baseURL, flags));
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^measure\s+this run\s+in judged\.jsonl$/m);
    expect(again.stdout).toMatch(/^judged\s+0\s+5$/m);
    expect(again.stdout).toMatch(/^LLM calls\s+0 \(0 requests\)\s+5 \(5 requests\)$/m);
    const json = await qualm(
      judgeArgs(exampleInput, judge.baseURL, [...flags, '--format', 'json']),
    );
    const body = JSON.parse(json.stdout) as {
      summary: { llmCalls: number };
      run: { llmCalls: number; requests: number; summary: { llmCalls: number } };
    };
    expect(body.run).toMatchObject({ llmCalls: 0, requests: 0, summary: { llmCalls: 0 } });
    expect(body.summary.llmCalls).toBe(5);
  });
});
