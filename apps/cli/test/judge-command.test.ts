import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type ChatServer,
  type ChatServerReply,
  type ChatServerRequestBody,
  startChatServer,
  unusedPort,
} from '@qualm/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { qualmInterrupted } from './fixtures.js';
import { endpointEnvironment, qualmWithEnvironment, startQualm } from './qualm-process.js';

const examples = fileURLToPath(new URL('../../../examples/judge/', import.meta.url));
const bin = fileURLToPath(new URL('../bin/qualm.js', import.meta.url));
const apiKey = 'sk-cli-test-secret-0123456789';

let server: ChatServer | undefined;
let directory: string;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'qualm-judge-'));
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  rmSync(directory, { recursive: true, force: true });
});

const environment = endpointEnvironment(apiKey);
const qualm = qualmWithEnvironment(environment);

function responseOf(body: ChatServerRequestBody): string {
  const user = String(body.messages.at(-1)?.content ?? '');
  return /<response>\n([\s\S]*?)\n<\/response>/.exec(user)?.[1] ?? '';
}

function systemOf(body: ChatServerRequestBody): string {
  return String(body.messages[0]?.content ?? '');
}

// a scripted judge: refusals abstain, answers without a number are insufficient, parsing reads
// the city and the number back from the response
async function scriptedJudge(latencyMs = 0) {
  server = await startChatServer({ latencyMs, handler: scriptedReply });
  return server;
}

function scriptedReply(body: ChatServerRequestBody): ChatServerReply {
  const system = systemOf(body);
  const response = responseOf(body);
  if (system.includes('is an abstention')) {
    return { json: { reasoning: 'scripted', abstained: /not able/.test(response) } };
  }
  if (system.includes('enough information to fill')) {
    const sufficient = /\d/.test(response);
    return {
      json: {
        reasoning: 'scripted',
        missingFields: sufficient ? [] : ['population_millions'],
        sufficient,
      },
    };
  }
  const city = /(Paris|Tokyo|Rome|Berlin|Madrid)/.exec(response)?.[1] ?? 'unknown';
  const population = Number(/(\d+(?:\.\d+)?) million/.exec(response)?.[1] ?? 0);
  return { json: { city, population_millions: population } };
}

const input = join(examples, 'input.jsonl');
const template = join(examples, 'template.schema.json');

// the arguments of qualm judge on an input (the example one by default) with the example template
function judgeArgs(flags: string[], inputPath = input): string[] {
  return ['judge', '--input', inputPath, '--template', template, ...flags];
}

function lines(text: string) {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

// the ids of the results in an output file, in file order
function idsIn(path: string) {
  return lines(readFileSync(path, 'utf8')).map((record) => record.id);
}

describe('qualm judge', () => {
  it('writes one JSON line per item, in input order, with the check fields', async () => {
    const judge = await scriptedJudge();
    const result = await qualm(
      judgeArgs([
        '--abstention',
        '--sufficiency',
        '--base-url',
        judge.baseURL,
        '--format',
        'jsonl',
      ]),
    );
    expect(result.code).toBe(0);
    const records = lines(result.stdout);
    expect(records.map((record) => record.id)).toEqual(['fr', 'jp', 'it', 'de', 'es']);
    expect(records.map((record) => record.failedStage)).toEqual([
      null,
      'abstention_check',
      'sufficiency_check',
      null,
      'verify_template',
    ]);
    expect(records.map((record) => record.llmCalls)).toEqual([3, 1, 2, 3, 3]);
    expect(records[1]).toMatchObject({
      verifyResult: false,
      abstentionCheckPerformed: true,
      abstentionDetected: true,
      abstentionReasoning: 'scripted',
      abstentionOverrideApplied: true,
      sufficiencyCheckPerformed: false,
      sufficiencyDetected: null,
      sufficiencyOverrideApplied: false,
      parsed: null,
    });
    expect(records[0]).toMatchObject({
      verifyResult: true,
      parsed: { city: 'Paris', population_millions: 2.1 },
      usage: { calls: 3 },
    });
    expect(judge.chatRequests()).toHaveLength(12);
    expect(result.stderr).toContain('abstention rate');
  });

  it('prints a table of results and the summary rates by default', async () => {
    const judge = await scriptedJudge();
    const result = await qualm(
      judgeArgs(['--abstention', '--sufficiency', '--base-url', judge.baseURL]),
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^id\s+pass\s+failed stage/m);
    expect(result.stdout).toMatch(/abstention rate\s+20\.0% \(1\/5\)/);
    expect(result.stdout).toMatch(/insufficiency rate\s+25\.0% \(1\/4\)/);
    expect(result.stdout).toMatch(/pass rate\s+40\.0% \(2\/5\)/);
    expect(result.stdout).toMatch(/LLM calls\s+12/);
  });

  it('prints the results and the summary as one JSON document with --format json', async () => {
    const judge = await scriptedJudge();
    const result = await qualm(
      judgeArgs(['--sufficiency', '--base-url', judge.baseURL, '--format', 'json']),
    );
    expect(result.code).toBe(0);
    const body = JSON.parse(result.stdout) as {
      results: { id: string }[];
      summary: { total: number; insufficient: number; passRate: number };
    };
    expect(body.results.map((record) => record.id)).toEqual(['fr', 'jp', 'it', 'de', 'es']);
    expect(body.summary).toMatchObject({ total: 5, insufficient: 2, passRate: 0.4 });
  });

  it('passes the custom instructions and the model to the judge', async () => {
    const judge = await scriptedJudge();
    await qualm(
      judgeArgs([
        '--abstention',
        '--instructions-abstention',
        'Treat a referral alone as an abstention.',
        '--judge-model',
        'judge-x',
        '--base-url',
        judge.baseURL,
      ]),
    );
    const first = judge.chatRequests()[0]?.body;
    expect(first?.model).toBe('judge-x');
    expect(systemOf(first!)).toMatch(/Treat a referral alone as an abstention\.$/);
  });

  it('appends to --out as it goes and skips the ids already written on a rerun', async () => {
    const judge = await scriptedJudge();
    const out = join(directory, 'judged.jsonl');
    const partial = join(directory, 'partial.jsonl');
    writeFileSync(partial, readFileSync(input, 'utf8').split('\n').slice(0, 2).join('\n'));
    const flags = ['--base-url', judge.baseURL, '--out', out];
    const first = await qualm(judgeArgs(flags, partial));
    expect(first.code).toBe(0);
    expect(idsIn(out).sort()).toEqual(['fr', 'jp']);
    expect(judge.chatRequests()).toHaveLength(2);

    const second = await qualm(judgeArgs(flags));
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('3 result(s) appended');
    expect(second.stdout).toContain('2 already there');
    expect(idsIn(out).sort()).toEqual(['de', 'es', 'fr', 'it', 'jp']);
    expect(judge.chatRequests()).toHaveLength(5);
  });

  it('resumes a run that was killed, judging only what was not written', async () => {
    const judge = await scriptedJudge(150);
    const out = join(directory, 'judged.jsonl');
    const many = join(directory, 'many.jsonl');
    const source = lines(readFileSync(input, 'utf8'));
    writeFileSync(
      many,
      Array.from({ length: 12 }, (_, index) =>
        JSON.stringify({ ...source[index % 5], id: `item-${index}` }),
      ).join('\n'),
    );
    const args = judgeArgs(['--base-url', judge.baseURL, '--concurrency', '1', '--out', out], many);
    const child = startQualm(args, environment);
    const exited = new Promise((resolve) => child.on('exit', resolve));
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (existsSync(out) && lines(readFileSync(out, 'utf8')).length >= 3) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    child.kill('SIGKILL');
    await exited;
    const before = lines(readFileSync(out, 'utf8')).length;
    expect(before).toBeGreaterThanOrEqual(3);
    expect(before).toBeLessThan(12);
    const requestsBefore = judge.chatRequests().length;

    const rerun = await qualm(args);
    expect(rerun.code).toBe(0);
    const ids = idsIn(out);
    expect(ids).toEqual(Array.from({ length: 12 }, (_, index) => `item-${index}`));
    expect(judge.chatRequests().length - requestsBefore).toBe(12 - before);
  });

  it('drops a half-written last line left by a killed run and judges that item again', async () => {
    const judge = await scriptedJudge();
    const out = join(directory, 'judged.jsonl');
    writeFileSync(out, '{"id":"fr","verifyResult":true,"llmCalls":1}\n{"id":"jp","verifyRe');
    const result = await qualm(judgeArgs(['--base-url', judge.baseURL, '--out', out]));
    expect(result.code).toBe(0);
    expect(idsIn(out).sort()).toEqual(['de', 'es', 'fr', 'it', 'jp']);
    expect(judge.chatRequests()).toHaveLength(4);
  });

  it('keeps a complete last line written without its newline and does not judge that item again', async () => {
    const judge = await scriptedJudge();
    const out = join(directory, 'judged.jsonl');
    writeFileSync(
      out,
      '{"id":"fr","verifyResult":true,"llmCalls":1}\n{"id":"jp","verifyResult":false,"llmCalls":1}',
    );
    const result = await qualm(judgeArgs(['--base-url', judge.baseURL, '--out', out]));
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('3 result(s) appended');
    expect(result.stdout).toContain('2 already there');
    expect(idsIn(out).sort()).toEqual(['de', 'es', 'fr', 'it', 'jp']);
    expect(judge.chatRequests()).toHaveLength(3);
  });

  it('creates the folder of --out when it does not exist', async () => {
    const judge = await scriptedJudge();
    const out = join(directory, 'new', 'folder', 'judged.jsonl');
    const result = await qualm(judgeArgs(['--base-url', judge.baseURL, '--out', out]));
    expect(result.code).toBe(0);
    expect(idsIn(out).sort()).toEqual(['de', 'es', 'fr', 'it', 'jp']);
  });

  it('prints progress lines on stderr with --progress when stderr is not a terminal', async () => {
    const judge = await scriptedJudge();
    const result = await qualm(judgeArgs(['--base-url', judge.baseURL, '--progress']));
    expect(result.stderr).toMatch(/^judge 5\/5 \(100%\)/m);
  });

  it('says in one line that the API key is missing', async () => {
    const result = await qualm(judgeArgs([]), {
      OPENAI_API_KEY: undefined,
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toBe(
      'qualm: OPENAI_API_KEY is not set: export the API key of the endpoint (any non-empty value for a local server that ignores it)\n',
    );
  });

  it('says in one line, at once and with exit status 2, that nothing listens at the endpoint', async () => {
    const port = await unusedPort();
    const started = performance.now();
    const result = await qualm(
      judgeArgs(['--base-url', `http://127.0.0.1:${port}/v1`, '--retry-delay', '10000']),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `qualm: cannot reach http://127.0.0.1:${port}/v1: connection refused (ECONNREFUSED); check the endpoint URL and that its server is running\n`,
    );
    // no retry: one would have waited ten seconds (the margin is for a busy machine)
    expect(performance.now() - started).toBeLessThan(8_000);
  });

  it('never prints the API key, even when the server echoes it', async () => {
    server = await startChatServer({
      handler: () => ({
        fault: 'status',
        status: 401,
        message: `Incorrect API key provided: ${apiKey}`,
      }),
    });
    const result = await qualm(judgeArgs(['--base-url', server.baseURL, '--format', 'jsonl']));
    expect(result.code).not.toBe(0);
    expect(`${result.stdout}${result.stderr}`).not.toContain(apiKey);
    expect(result.stderr).toMatch(/^qualm: .* rejected the API key \(401\)/);
  });

  it('rejects a template schema whose top level is not an object, naming the file', async () => {
    const schema = join(directory, 'list.schema.json');
    writeFileSync(schema, JSON.stringify({ type: 'array', items: { type: 'string' } }));
    const result = await qualm(['judge', '--input', input, '--template', schema]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toBe(
      `qualm: ${schema}: the top level of a template schema must be {"type": "object", "properties": …}, got type "array"\n`,
    );
  });

  it('rejects a template file that is not JSON', async () => {
    const schema = join(directory, 'broken.schema.json');
    writeFileSync(schema, '{"type": "object",');
    const result = await qualm(['judge', '--input', input, '--template', schema]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(new RegExp(`^qualm: ${schema} is not valid JSON \\(.+\\)\\n$`));
  });

  it('names the line of a broken input line', async () => {
    const broken = join(directory, 'broken.jsonl');
    writeFileSync(
      broken,
      '{"id": "a", "question": "q", "response": "r"}\n\n{"id": "b", "question": \n',
    );
    const result = await qualm(judgeArgs([], broken));
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(new RegExp(`^qualm: ${broken}:3 is not valid JSON`));
  });

  it('names the line and field of an input line that misses its question', async () => {
    const broken = join(directory, 'broken.jsonl');
    writeFileSync(broken, '{"id": "a", "question": "q"}\n{"id": "b", "response": "r"}\n');
    const result = await qualm(judgeArgs([], broken));
    expect(result.stderr).toBe(
      `qualm: ${broken}:2 has no "question" (each line needs "id" and "question")\n`,
    );
  });

  it('rejects a repeated id, which would make resuming ambiguous', async () => {
    const broken = join(directory, 'twice.jsonl');
    writeFileSync(broken, '{"id": "a", "question": "q"}\n{"id": "a", "question": "q2"}\n');
    const result = await qualm(judgeArgs([], broken));
    expect(result.stderr).toBe(`qualm: ${broken}:2 id "a" was already used on line 1\n`);
  });

  it('grades a rubric without a template in rubric_only mode', async () => {
    server = await startChatServer({
      handler: () => ({ json: { reasoning: 'r', scores: { direct: true, clarity: 4 } } }),
    });
    const result = await qualm([
      'judge',
      '--input',
      input,
      '--mode',
      'rubric_only',
      '--rubric',
      join(examples, 'rubric.json'),
      '--base-url',
      server.baseURL,
      '--format',
      'jsonl',
    ]);
    expect(result.code).toBe(0);
    const records = lines(result.stdout);
    expect(records).toHaveLength(5);
    expect(records[0]).toMatchObject({
      verifyResult: null,
      rubricScores: { direct: true, clarity: 4 },
    });
  });

  it('shows each rubric grade in the table and counts rubric results in the pass rate in rubric_only mode', async () => {
    // "direct" holds when the response gives a number: fr, de and es do, jp and it do not
    server = await startChatServer({
      handler: (body) => ({
        json: { reasoning: 'r', scores: { direct: /\d/.test(responseOf(body)), clarity: 4 } },
      }),
    });
    const rubric = join(examples, 'rubric.json');
    const args = ['judge', '--input', input, '--mode', 'rubric_only', '--rubric', rubric];
    const result = await qualm([...args, '--base-url', server.baseURL]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^id\s+pass\s+failed stage\s+abstained\s+sufficient\s+calls\s+rubric$/m,
    );
    expect(result.stdout).toMatch(/^fr\s+yes\s+-\s+-\s+-\s+1\s+direct yes, clarity 4$/m);
    expect(result.stdout).toMatch(/^jp\s+no\s+-\s+-\s+-\s+1\s+direct no, clarity 4$/m);
    expect(result.stdout).toMatch(/pass rate\s+60\.0% \(3\/5\)/);
  });

  it('counts the template result first, and the rubric where there is none, in template_and_rubric mode', async () => {
    const judge = await scriptedJudge();
    judge.setHandler((body) =>
      systemOf(body).includes('rubric')
        ? { json: { reasoning: 'r', scores: { direct: /\d/.test(responseOf(body)), clarity: 3 } } }
        : {
            json: {
              city:
                /(Paris|Tokyo|Rome|Berlin|Madrid|Oslo)/.exec(responseOf(body))?.[1] ?? 'unknown',
              population_millions: Number(
                /(\d+(?:\.\d+)?) million/.exec(responseOf(body))?.[1] ?? 0,
              ),
            },
          },
    );
    const withOneUnexpected = join(directory, 'items.jsonl');
    writeFileSync(
      withOneUnexpected,
      `${readFileSync(input, 'utf8').trim()}\n${JSON.stringify({ id: 'no', question: 'Capital of Norway?', response: 'Oslo, 0.7 million.' })}\n`,
    );
    const result = await qualm([
      ...judgeArgs(
        ['--mode', 'template_and_rubric', '--base-url', judge.baseURL],
        withOneUnexpected,
      ),
      '--rubric',
      join(examples, 'rubric.json'),
    ]);
    expect(result.code).toBe(0);
    // es gives a number, so the rubric holds, but its template result (Madrid, not Barcelona) fails
    expect(result.stdout).toMatch(
      /^es\s+no\s+verify_template\s+-\s+-\s+2\s+direct yes, clarity 3$/m,
    );
    expect(result.stdout).toMatch(/^no\s+yes\s+-\s+-\s+-\s+2\s+direct yes, clarity 3$/m);
    // fr and de pass their templates, "no" its rubric
    expect(result.stdout).toMatch(/pass rate\s+50\.0% \(3\/6\)/);
  });

  it('counts rubric results in the pass rate of --format json as the table does', async () => {
    // "direct" holds when the response gives a number: fr, de and es do, jp and it do not
    server = await startChatServer({
      handler: (body) => ({
        json: { reasoning: 'r', scores: { direct: /\d/.test(responseOf(body)), clarity: 4 } },
      }),
    });
    const rubric = join(examples, 'rubric.json');
    const args = ['judge', '--input', input, '--mode', 'rubric_only', '--rubric', rubric];
    const table = await qualm([...args, '--base-url', server.baseURL]);
    expect(table.stdout).toMatch(/pass rate\s+60\.0% \(3\/5\)/);
    const json = await qualm([...args, '--base-url', server.baseURL, '--format', 'json']);
    expect(json.code).toBe(0);
    const body = JSON.parse(json.stdout) as { summary: Record<string, unknown> };
    expect(body.summary).toMatchObject({
      total: 5,
      verified: 0,
      rubricJudged: 5,
      rubricPassed: 3,
      passRate: 0.6,
    });
    // the summary of an --out file counts them too
    const out = join(directory, 'judged.jsonl');
    const written = await qualm([
      ...args,
      '--base-url',
      server.baseURL,
      '--format',
      'json',
      '--out',
      out,
    ]);
    expect(written.code).toBe(0);
    expect(JSON.parse(written.stdout)).toMatchObject({
      summary: { rubricJudged: 5, rubricPassed: 3, passRate: 0.6 },
      written: 5,
    });
    // a rerun judged nothing itself: its column is empty, the file's counts them
    const again = await qualm([...args, '--base-url', server.baseURL, '--out', out]);
    expect(again.stdout).toMatch(/pass rate\s+- \(0\/0\)\s+60\.0% \(3\/5\)/);
    expect(again.stdout).toContain('0 result(s) appended');
  });

  it('prints each result in input order as soon as it and every one before it are done', async () => {
    // jp answers late, so it finishes after it; de waits until the test lets it answer
    let releaseGermany: () => void = () => {};
    const germany = new Promise<void>((resolve) => {
      releaseGermany = resolve;
    });
    const judge = await scriptedJudge();
    judge.setHandler(async (body) => {
      const response = responseOf(body);
      if (response.includes('Berlin')) await germany;
      if (response.includes('not able')) await new Promise((resolve) => setTimeout(resolve, 300));
      return scriptedReply(body);
    });
    const child = spawn(
      process.execPath,
      [bin, ...judgeArgs(['--base-url', judge.baseURL, '--format', 'jsonl'])],
      { env: { ...process.env, ...environment }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    const closed = new Promise<number>((resolve) =>
      child.on('close', (code) => resolve(code ?? -1)),
    );
    try {
      const deadline = Date.now() + 20_000;
      while (lines(stdout).length < 3 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // fr, jp and it are out while de is still being judged; es, done long ago, waits behind de
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(lines(stdout).map((record) => record.id)).toEqual(['fr', 'jp', 'it']);
      const spain = judge
        .chatRequests()
        .filter((request) => request.body && responseOf(request.body).includes('Madrid'));
      expect(spain).toHaveLength(1);
    } finally {
      releaseGermany();
    }
    expect(await closed).toBe(0);
    expect(lines(stdout).map((record) => record.id)).toEqual(['fr', 'jp', 'it', 'de', 'es']);
  });

  it('says on Ctrl-C without --out how many results it printed, and printed them all in input order', async () => {
    // the refusals (every fifth item) take longer, so later items finish before them
    const judge = await startChatServer({
      latencyMs: 40,
      handler: async (body) => {
        if (responseOf(body).includes('not able')) {
          await new Promise((resolve) => setTimeout(resolve, 300));
        }
        return scriptedReply(body);
      },
    });
    server = judge;
    const many = join(directory, 'many.jsonl');
    const source = lines(readFileSync(input, 'utf8'));
    writeFileSync(
      many,
      Array.from({ length: 60 }, (_, index) =>
        JSON.stringify({ ...source[index % 5], id: `item-${index}` }),
      ).join('\n'),
    );
    const stopped = await qualmInterrupted(
      judgeArgs(['--base-url', judge.baseURL, '--concurrency', '3', '--format', 'jsonl'], many),
      environment,
      (stdout) => lines(stdout).length >= 4,
    );
    expect(stopped.code).toBe(130);
    const printed = lines(stopped.stdout).map((record) => Number(String(record.id).slice(5)));
    expect(printed.length).toBeGreaterThanOrEqual(4);
    expect(printed.length).toBeLessThan(60);
    expect(printed).toEqual([...printed].sort((left, right) => left - right));
    expect(stopped.stderr).toContain(
      `qualm: interrupted: ${printed.length} of 60 result(s) printed; nothing was kept for a rerun`,
    );
  });

  it('refuses a --mode, --format or --structured-output outside its values, naming them', async () => {
    for (const [flag, ...allowed] of [
      ['--mode', 'template_only', 'rubric_only', 'template_and_rubric'],
      ['--format', 'table', 'json', 'jsonl'],
      ['--structured-output', 'auto', 'json_schema', 'text'],
    ]) {
      const result = await qualm(judgeArgs([flag!, 'sideways']));
      expect(result.code).toBe(2);
      const first = result.stderr.split('\n')[0] ?? '';
      expect(first).toContain(flag);
      expect(first).toContain('sideways');
      for (const value of allowed) expect(first).toContain(value);
    }
  });

  it('shows an example in --help', async () => {
    const result = await qualm(['judge', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('qualm judge --input examples/judge/input.jsonl');
    expect(result.stdout).toContain('--instructions-sufficiency <text>');
  });
});
