// Benchmark of @qualm/judge against the loopback chat-completions server: batch throughput at
// 50 ms simulated latency, the judge's own overhead per call against raw fetch to the same
// server, and fault tolerance when 10% of calls fail once. Run: pnpm bench:judge
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { Bench } from 'tinybench';
// the bench runs from the repository root, outside any workspace package, so it reads the
// packages' public entries by path
import {
  type ChatClient,
  createChatClient,
  templateFromJsonSchema,
  type VerificationItem,
  verify,
  verifyMany,
} from '../../packages/judge/src/index.js';
import {
  type ChatServer,
  type ChatServerReply,
  type ChatServerRequestBody,
  startChatServer,
} from '../../packages/testkit/src/index.js';

const items = 1_000;
const concurrency = 16;
const latencyMs = 50;
const targets = { batchSeconds: 5, overheadMs: 1 };
const rounds = 3;
const overheadRounds = 5;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

const template = templateFromJsonSchema({
  type: 'object',
  title: 'capital',
  properties: {
    city: { type: 'string', description: 'the capital city the response names' },
    population: { type: 'number', description: 'the population the response gives, in millions' },
  },
  required: ['city', 'population'],
  additionalProperties: false,
});

function makeItems(count: number): VerificationItem[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `item-${index}`,
    question: `Item ${index}: what is the capital of France, and how many people live there?`,
    response: `Item ${index}: the capital is Paris, with about 2.1 million inhabitants.`,
    expected: { city: 'Paris', population: 2.1 },
  }));
}

function itemNumber(body: ChatServerRequestBody): number {
  const text = body.messages.map((message) => String(message.content ?? '')).join('\n');
  return Number(/Item (\d+):/.exec(text)?.[1] ?? -1);
}

function reply(body: ChatServerRequestBody): ChatServerReply {
  const system = String(body.messages[0]?.content ?? '');
  if (system.includes('is an abstention')) {
    return { json: { reasoning: 'It names Paris.', abstained: false } };
  }
  if (system.includes('enough information to fill')) {
    return { json: { reasoning: 'Both fields.', missingFields: [], sufficient: true } };
  }
  return { json: { city: 'Paris', population: 2.1 } };
}

function client(server: ChatServer): ChatClient {
  return createChatClient({
    baseURL: server.baseURL,
    apiKey: 'bench-key',
    model: 'bench-model',
    timeoutMs: 10_000,
    backoff: { baseDelayMs: 20, jitter: 0.5 },
  });
}

function hardware(): string {
  const cpu = cpus();
  // the load average says how much other work shared the machine during the run
  const load = loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
  return `${cpu[0]?.model ?? 'unknown cpu'} × ${cpu.length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${platform()} ${release()}, load average ${load}`;
}

async function rawFetchBatch(server: ChatServer, body: string, count: number): Promise<number> {
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < count) {
      next += 1;
      const response = await fetch(`${server.baseURL}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer bench-key' },
        body,
      });
      await response.json();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return (performance.now() - started) / 1000;
}

interface Row {
  measure: string;
  value: string;
  reference: string;
  target: string;
  ok: boolean | undefined;
}

const rows: Row[] = [];

interface Latency {
  mean: number;
  p50: number;
}

// 1. throughput: 1,000 verifications (one parsing call each) at 50 ms latency, concurrency 16
async function throughput(): Promise<string> {
  const server = await startChatServer({ latencyMs, handler: reply, record: true });
  try {
    // warm up the compiler, the connection pool and the server before timing anything
    await verifyMany(makeItems(200), { judge: client(server), template, concurrency });
    const parseBody = JSON.stringify(server.chatRequests()[0]?.body);
    server.clearRequests();
    await rawFetchBatch(server, parseBody, 200);
    // rounds alternate reference and judge so that load from other processes hits both alike
    const references: number[] = [];
    const timings: number[] = [];
    let complete = true;
    for (let round = 0; round < rounds; round += 1) {
      references.push(await rawFetchBatch(server, parseBody, items));
      const started = performance.now();
      const { results, summary } = await verifyMany(makeItems(items), {
        judge: client(server),
        template,
        concurrency,
      });
      timings.push((performance.now() - started) / 1000);
      complete &&= results.length === items && summary.passed === items;
    }
    const seconds = median(timings);
    const reference = median(references);
    const floor = (Math.ceil(items / concurrency) * latencyMs) / 1000;
    rows.push({
      measure: `${items} verifications, 1 call each, ${latencyMs} ms latency, concurrency ${concurrency} (median of ${rounds})`,
      value: `${seconds.toFixed(2)} s (best ${Math.min(...timings).toFixed(2)} s)`,
      reference: `raw fetch ${reference.toFixed(2)} s (floor ${floor.toFixed(2)} s)`,
      target: `≤ ${targets.batchSeconds} s, all pass`,
      ok: seconds <= targets.batchSeconds && complete,
    });

    server.clearRequests();
    const withChecks = performance.now();
    const checked = await verifyMany(makeItems(items), {
      judge: client(server),
      template,
      concurrency,
      config: { abstentionEnabled: true, sufficiencyEnabled: true },
    });
    const checkedSeconds = (performance.now() - withChecks) / 1000;
    rows.push({
      measure: `${items} verifications with both checks (3 calls each), same server`,
      value: `${checkedSeconds.toFixed(2)} s`,
      reference: `floor ${((3 * Math.ceil(items / concurrency) * latencyMs) / 1000).toFixed(2)} s`,
      target: `${checked.summary.llmCalls} calls, all pass`,
      ok: checked.summary.passed === items && checked.summary.llmCalls === 3 * items,
    });
    return parseBody;
  } finally {
    await server.close();
  }
}

// 2. overhead: sequential calls to a zero-latency server, judge against raw fetch of the same body
async function overhead(parseBody: string): Promise<void> {
  const server = await startChatServer({ handler: reply, record: false });
  const judge = client(server);
  const item = makeItems(1)[0]!;
  const referenceTask = 'raw fetch + response.json() (reference)';
  const judgeTask = 'verify(), template only (1 call)';
  const tasks = {
    [referenceTask]: async () => {
      const response = await fetch(`${server.baseURL}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer bench-key' },
        body: parseBody,
      });
      await response.json();
    },
    [judgeTask]: async () => {
      await verify(item, { judge, template });
    },
  };
  const samples = { reference: [] as Latency[], judged: [] as Latency[] };
  try {
    // several short rounds, alternating which task goes first; the median round is reported
    for (let round = 0; round < overheadRounds; round += 1) {
      const order = round % 2 === 0 ? [referenceTask, judgeTask] : [judgeTask, referenceTask];
      const bench = new Bench({ time: 700, warmupTime: 200, iterations: 100 });
      for (const name of order) bench.add(name, tasks[name as keyof typeof tasks]);
      await bench.run();
      for (const task of bench.tasks) {
        const latency = (task.result as unknown as { latency: Latency }).latency;
        (task.name === referenceTask ? samples.reference : samples.judged).push(latency);
      }
    }
    const reference = {
      p50: median(samples.reference.map((latency) => latency.p50)),
      mean: median(samples.reference.map((latency) => latency.mean)),
    };
    const judged = {
      p50: median(samples.judged.map((latency) => latency.p50)),
      mean: median(samples.judged.map((latency) => latency.mean)),
    };
    const medianOverhead = median(
      samples.judged.map((latency, index) => latency.p50 - (samples.reference[index]?.p50 ?? 0)),
    );
    const meanOverhead = median(
      samples.judged.map((latency, index) => latency.mean - (samples.reference[index]?.mean ?? 0)),
    );
    rows.push({
      measure: `one call, zero-latency server: raw fetch (median / mean, median of ${overheadRounds} rounds)`,
      value: `${reference.p50.toFixed(3)} / ${reference.mean.toFixed(3)} ms`,
      reference: '-',
      target: '-',
      ok: undefined,
    });
    rows.push({
      measure: `one call, zero-latency server: verify() (median / mean, median of ${overheadRounds} rounds)`,
      value: `${judged.p50.toFixed(3)} / ${judged.mean.toFixed(3)} ms`,
      reference: '-',
      target: '-',
      ok: undefined,
    });
    rows.push({
      measure: "judge's own overhead per call (verify − raw fetch, median / mean)",
      value: `${medianOverhead.toFixed(3)} / ${meanOverhead.toFixed(3)} ms`,
      reference: 'same body, same server, same run',
      target: `≤ ${targets.overheadMs} ms`,
      ok: medianOverhead <= targets.overheadMs && meanOverhead <= targets.overheadMs,
    });
  } finally {
    await server.close();
  }
}

// 3. faults: 10% of items fail their first call (500, 429, dropped socket, broken body)
async function faults(): Promise<void> {
  const failing = new Set<number>();
  for (let index = 0; index < items; index += 1) if (index % 10 === 3) failing.add(index);
  const failedOnce = new Set<number>();
  const sent = new Map<string, number>();
  const kinds: ChatServerReply[] = [
    { fault: 'server_error', status: 500 },
    { fault: 'rate_limit', retryAfterMs: 20 },
    { fault: 'close' },
    { fault: 'malformed_json' },
  ];
  const server = await startChatServer({
    latencyMs,
    handler: (body) => {
      const number = itemNumber(body);
      if (failing.has(number) && !failedOnce.has(number)) {
        failedOnce.add(number);
        const kind = kinds[Math.floor(number / 10) % kinds.length]!;
        const name = 'fault' in kind ? kind.fault : 'answer';
        sent.set(name, (sent.get(name) ?? 0) + 1);
        return kind;
      }
      return reply(body);
    },
  });
  try {
    const started = performance.now();
    const { results, summary } = await verifyMany(makeItems(items), {
      judge: client(server),
      template,
      concurrency,
    });
    const seconds = (performance.now() - started) / 1000;
    const ids = new Set(results.map((result) => result.id));
    const lost = items - results.filter((result) => result.verifyResult === true).length;
    rows.push({
      measure: `${items} verifications, ${failing.size} fail their first call once (${[...sent].map(([name, count]) => `${count} ${name}`).join(', ')})`,
      value: `${lost} lost, ${summary.usage.requests} requests, ${seconds.toFixed(2)} s`,
      reference: `${items + failing.size} requests expected`,
      target: 'nothing lost',
      ok:
        lost === 0 &&
        ids.size === items &&
        summary.errors === 0 &&
        summary.usage.requests === items + failing.size,
    });
  } finally {
    await server.close();
  }
}

const parseBody = await throughput();
await overhead(parseBody);
await faults();

console.log(`@qualm/judge benchmark — ${hardware()}`);
const headers = ['measure', 'value', 'reference', 'target', 'ok'];
const table = rows.map((row) => [
  row.measure,
  row.value,
  row.reference,
  row.target,
  row.ok === undefined ? '' : row.ok ? 'yes' : 'NO',
]);
const widths = headers.map((header, index) =>
  Math.max(header.length, ...table.map((row) => (row[index] ?? '').length)),
);
const line = (cells: string[]) =>
  `| ${cells.map((cell, index) => cell.padEnd(widths[index] ?? 0)).join(' | ')} |`;
console.log(line(headers));
console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
for (const row of table) console.log(line(row));
if (rows.some((row) => row.ok === false)) {
  console.error('bench:judge: a target was missed');
  process.exitCode = 1;
}
