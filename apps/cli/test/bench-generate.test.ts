import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ChatServer,
  type ChatServerRequestBody,
  startChatServer,
  writeTinyFeatureExtractor,
} from '@qualm/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { endpointEnvironment, qualmWithEnvironment, startQualm } from './qualm-process.js';

const apiKey = 'sk-generate-test-secret-0123456789';

let server: ChatServer | undefined;
let directory: string;
let dataPath: string;

const environment = endpointEnvironment(apiKey);
const qualm = qualmWithEnvironment(environment);

const turn = (role: 'user' | 'assistant', content: string, hasAnswer?: boolean) =>
  hasAnswer === undefined ? { role, content } : { role, content, has_answer: hasAnswer };

// q0 has two sessions given out of date order; the others one evidence session and one filler
const questions = Array.from({ length: 8 }, (_, index) => ({
  question_id: index === 7 ? 'q7_abs' : `q${index}`,
  question_type: 'single-session-user',
  question: index === 7 ? 'What did I call my pet iguana?' : `Which colour is box ${index}?`,
  answer: `colour ${index}`,
  question_date: '2023/06/01 (Thu) 10:00',
  haystack_dates: ['2023/05/20 (Sat) 08:00', '2023/05/03 (Wed) 09:30'],
  haystack_session_ids: ['filler_session', `answer_${index}`],
  haystack_sessions: [
    [turn('user', 'Suggest a pasta recipe.'), turn('assistant', 'Try carbonara.')],
    [
      turn('user', `Box ${index} is painted teal.`, index !== 7),
      turn('assistant', 'Teal is a nice colour.'),
    ],
  ],
  answer_session_ids: [`answer_${index}`],
}));

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'qualm-generate-'));
  dataPath = join(directory, 'data.json');
  writeFileSync(dataPath, JSON.stringify(questions));
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  rmSync(directory, { recursive: true, force: true });
});

const promptOf = (body: ChatServerRequestBody) => String(body.messages.at(-1)?.content ?? '');
const boxOf = (body: ChatServerRequestBody) =>
  /Which colour is box (\d)\?/.exec(promptOf(body))?.[1];

function lines(path: string) {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const answering = (latencyMs = 0) =>
  startChatServer({
    latencyMs,
    handler: (body) => ({
      content: ` Box ${boxOf(body) ?? '?'} is teal. `,
      usage: { prompt_tokens: 50, completion_tokens: 4 },
    }),
  });

function generate(extra: string[]) {
  return [
    'bench',
    'longmemeval',
    'generate',
    '--data',
    dataPath,
    '--reader-model',
    'reader-model',
    // a model outside the harness's table needs its context length
    '--context-limit',
    '128000',
    '--base-url',
    server!.baseURL,
    '--retry-delay',
    '5',
    ...extra,
  ];
}

describe('qualm bench longmemeval generate', () => {
  it('writes {question_id, hypothesis} lines from the full history in the harness format', async () => {
    server = await answering();
    const out = join(directory, 'hypotheses.jsonl');
    const result = await qualm(generate(['--reading', 'direct', '--out', out]));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const written = lines(out);
    expect(written.map((line) => line.question_id).sort()).toEqual(
      questions.map((question) => question.question_id).sort(),
    );
    expect(written.find((line) => line.question_id === 'q3')).toMatchObject({
      hypothesis: 'Box 3 is teal.',
      usage: { promptTokens: 50, completionTokens: 4, calls: 1 },
    });
    const body = server.chatRequests().find((request) => boxOf(request.body!) === '3')!.body!;
    expect(body.model).toBe('reader-model');
    expect(body.temperature).toBe(0);
    // the harness sends 800 for direct reading too, as max_tokens, with n 1
    expect(body.max_tokens).toBe(800);
    expect(body.n).toBe(1);
    expect(body).not.toHaveProperty('max_completion_tokens');
    expect(body.messages).toHaveLength(1);
    expect(promptOf(body)).toBe(
      'I will give you several history chats between you and a user. Please answer the question based on the relevant chat history.\n\n\nHistory Chats:\n\n' +
        '\n### Session 1:\nSession Date: 2023/05/03 (Wed) 09:30\nSession Content:\n\n' +
        '[{"role": "user", "content": "Box 3 is painted teal."}, {"role": "assistant", "content": "Teal is a nice colour."}]\n' +
        '\n### Session 2:\nSession Date: 2023/05/20 (Sat) 08:00\nSession Content:\n\n' +
        '[{"role": "user", "content": "Suggest a pasta recipe."}, {"role": "assistant", "content": "Try carbonara."}]\n' +
        '\n\nCurrent Date: 2023/06/01 (Thu) 10:00\nQuestion: Which colour is box 3?\nAnswer:',
    );
    expect(result.stdout).toMatch(/answered now\s+8/);
    expect(result.stdout).toMatch(
      /tokens this run\s+400 prompt \+ 32 completion = 432 \(8 calls, 8 requests\)/,
    );
  });

  it('asks step by step with cot and shows only the retrieved top-k sessions', async () => {
    server = await answering();
    const out = join(directory, 'hypotheses.jsonl');
    const result = await qualm(
      generate([
        '--history',
        'retrieval',
        '--top-k',
        '1',
        '--reading',
        'cot',
        '--ids',
        'q2',
        '--out',
        out,
      ]),
    );
    expect(result.code).toBe(0);
    const [request] = server.chatRequests();
    const prompt = promptOf(request!.body!);
    expect(prompt).toContain('Answer the question step by step: first extract all the relevant');
    expect(prompt.endsWith('Question: Which colour is box 2?\nAnswer (step by step):')).toBe(true);
    expect(prompt).toContain('Box 2 is painted teal.');
    expect(prompt).not.toContain('pasta');
    expect(prompt).not.toContain('### Session 2:');
    expect(request?.body?.max_tokens).toBe(800);
    expect(lines(out).map((line) => line.question_id)).toEqual(['q2']);
  });

  it('retrieves with a dense retriever on a local embedding model', async () => {
    server = await answering();
    const models = join(directory, 'models');
    const model = await writeTinyFeatureExtractor(models);
    const out = join(directory, 'hypotheses.jsonl');
    const result = await qualm(
      generate([
        '--history',
        'retrieval',
        '--retriever',
        'dense',
        '--embedding-model',
        model.modelId,
        '--models-dir',
        models,
        '--top-k',
        '1',
        '--ids',
        'q0',
        '--out',
        out,
      ]),
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const prompt = promptOf(server.chatRequests()[0]!.body!);
    expect(prompt).toContain('### Session 1:');
    expect(prompt).not.toContain('### Session 2:');
    expect(lines(out).map((line) => line.question_id)).toEqual(['q0']);
  });

  it('writes a note per session before answering with chain-of-note', async () => {
    server = await startChatServer({
      handler: (body) =>
        promptOf(body).includes('Write reading notes')
          ? { content: promptOf(body).includes('teal') ? 'Box is teal.' : 'empty' }
          : { content: 'teal' },
    });
    const out = join(directory, 'hypotheses.jsonl');
    const result = await qualm(generate(['--reading', 'con', '--ids', 'q1', '--out', out]));
    expect(result.code).toBe(0);
    const prompts = server.chatRequests().map((request) => promptOf(request.body!));
    expect(prompts).toHaveLength(3);
    expect(prompts[0]).toMatch(/^I will give you a chat history between you and a user/);
    expect(prompts[2]).toContain(
      'Session Date: 2023/05/03 (Wed) 09:30\nSession Content:\n\n{"session_summary": "Box is teal."}',
    );
    expect(prompts[2]).toContain('{"session_summary": "empty"}');
  });

  it('records abstained, abstentionReason and originalAnswer with --abstention', async () => {
    server = await startChatServer({
      handler: (body) => ({
        content: promptOf(body).includes('iguana') ? 'Your iguana is called Rex.' : 'Teal.',
      }),
    });
    const out = join(directory, 'hypotheses.jsonl');
    const result = await qualm(
      generate([
        '--history',
        'oracle',
        '--abstention',
        '--no-nli',
        '--ids',
        'q7_abs',
        'q1',
        '--out',
        out,
      ]),
    );
    expect(result.code).toBe(0);
    const byId = new Map(lines(out).map((line) => [line.question_id, line]));
    expect(byId.get('q7_abs')).toMatchObject({
      hypothesis: "I don't have enough information to answer this question.",
      abstained: true,
      originalAnswer: 'Your iguana is called Rex.',
    });
    expect(byId.get('q7_abs')?.abstentionReason).toEqual(expect.any(String));
    expect(byId.get('q1')).toMatchObject({
      hypothesis: 'Teal.',
      abstained: false,
      abstentionReason: null,
      originalAnswer: 'Teal.',
    });
  });

  it('keeps at most --concurrency requests in flight', async () => {
    let inFlight = 0;
    let most = 0;
    server = await startChatServer({
      handler: async (body) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 60));
        inFlight -= 1;
        return { content: `Box ${boxOf(body)}` };
      },
    });
    const result = await qualm(
      generate(['--concurrency', '3', '--out', join(directory, 'hypotheses.jsonl')]),
    );
    expect(result.code).toBe(0);
    expect(most).toBe(3);
  });

  it('retries a 429 with retry-after and answers everything', async () => {
    let limited = 0;
    server = await startChatServer({
      handler: (body) => {
        if (limited < 2) {
          limited += 1;
          return { fault: 'rate_limit', retryAfter: '0.05' };
        }
        return { content: `Box ${boxOf(body)}` };
      },
    });
    const out = join(directory, 'hypotheses.jsonl');
    const result = await qualm(generate(['--concurrency', '1', '--out', out]));
    expect(result.code).toBe(0);
    expect(lines(out)).toHaveLength(8);
    expect(server.chatRequests()).toHaveLength(10);
  });

  it('leaves out a question whose server keeps failing, says so in one line and exits 1', async () => {
    server = await startChatServer({
      handler: (body) =>
        boxOf(body) === '4' ? { fault: 'server_error', status: 500 } : { content: 'teal' },
    });
    const out = join(directory, 'hypotheses.jsonl');
    const result = await qualm(generate(['--max-attempts', '2', '--out', out]));
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(
      /^qualm: 1 question\(s\) were not answered \(first q4: ENDPOINT_UNAVAILABLE: .*failed \(500\).*\(2 attempts\)\); they are not in the output/,
    );
    expect(lines(out).map((line) => line.question_id)).not.toContain('q4');
    expect(lines(out)).toHaveLength(7);
  });

  it('reports a request that hangs as a timeout error line', async () => {
    server = await startChatServer({
      handler: (body) => (boxOf(body) === '5' ? { fault: 'hang' } : { content: 'teal' }),
    });
    const result = await qualm(
      generate([
        '--timeout',
        '300',
        '--max-attempts',
        '1',
        '--out',
        join(directory, 'hypotheses.jsonl'),
      ]),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^qualm: 1 question\(s\) were not answered \(first q5: TIMEOUT: no answer from http:\/\/127\.0\.0\.1:\d+\/v1 within 300 ms\)/,
    );
  });

  it('resumes a killed run, answering only the questions not written', async () => {
    server = await answering(150);
    const out = join(directory, 'hypotheses.jsonl');
    const args = generate(['--concurrency', '1', '--out', out]);
    const child = startQualm(args, environment);
    const exited = new Promise((resolve) => child.on('exit', resolve));
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      if (existsSync(out) && lines(out).length >= 2) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    child.kill('SIGKILL');
    await exited;
    const before = lines(out).map((line) => line.question_id);
    expect(before.length).toBeGreaterThanOrEqual(2);
    expect(before.length).toBeLessThan(8);
    const requestsBefore = server.chatRequests().length;

    const rerun = await qualm(args);
    expect(rerun.code).toBe(0);
    const after = lines(out).map((line) => line.question_id);
    expect(after.slice(0, before.length)).toEqual(before);
    expect([...after].sort()).toEqual(questions.map((question) => question.question_id).sort());
    expect(server.chatRequests().length - requestsBefore).toBe(8 - before.length);
    expect(rerun.stdout).toMatch(new RegExp(`already in the output\\s+${before.length}`));
  });

  it('prints progress lines on stderr with --progress when stderr is not a terminal', async () => {
    server = await answering();
    const result = await qualm(
      generate(['--out', join(directory, 'hypotheses.jsonl'), '--progress']),
    );
    expect(result.stderr).toMatch(/^generate 8\/8 \(100%\)/m);
  });

  it('says in one line that OPENAI_API_KEY is missing, before any request', async () => {
    server = await answering();
    const result = await qualm(generate(['--out', join(directory, 'hypotheses.jsonl')]), {
      OPENAI_API_KEY: undefined,
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/^qualm: OPENAI_API_KEY is not set[^\n]*\n$/);
    expect(server.requests).toHaveLength(0);
  });

  it('never prints the API key when the endpoint rejects it', async () => {
    server = await startChatServer({
      handler: () => ({ fault: 'status', status: 401, message: `bad key ${apiKey}` }),
    });
    const result = await qualm(generate(['--out', join(directory, 'hypotheses.jsonl')]));
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/^qualm: .*rejected the API key \(401\)/);
    expect(result.stderr + result.stdout).not.toContain(apiKey);
  });

  it('shows examples in --help', async () => {
    const result = await qualm(['bench', 'longmemeval', 'generate', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Examples:');
    expect(result.stdout).toContain('--abstention-threshold');
    expect(result.stdout).toContain('--history retrieval');
  });

  it('stops in one line, before any request, when the model has no known context length', async () => {
    server = await answering();
    const args = generate(['--out', join(directory, 'hypotheses.jsonl')]);
    args.splice(args.indexOf('--context-limit'), 2);
    const result = await qualm(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^qualm: no context length is known for model "reader-model" [^\n]*--context-limit N[^\n]*\n$/,
    );
    expect(server.chatRequests()).toHaveLength(0);
  });

  it('sends max_completion_tokens with --max-tokens-parameter, and only user turns with --user-only', async () => {
    server = await answering();
    const out = join(directory, 'hypotheses.jsonl');
    const result = await qualm(
      generate([
        '--ids',
        'q1',
        '--user-only',
        '--max-tokens-parameter',
        'max_completion_tokens',
        '--out',
        out,
      ]),
    );
    expect(result.code).toBe(0);
    const body = server.chatRequests()[0]!.body!;
    expect(body).toMatchObject({ max_completion_tokens: 800, n: 1 });
    expect(body).not.toHaveProperty('max_tokens');
    expect(promptOf(body)).toContain('[{"role": "user", "content": "Box 1 is painted teal."}]');
    expect(promptOf(body)).not.toContain('assistant');
  });

  it("answers from a retrieval log written by retrieve --log, the log's questions standing in for --data", async () => {
    server = await answering();
    const log = join(directory, 's.retrievallog');
    const retrieved = await qualm([
      'bench',
      'longmemeval',
      'retrieve',
      '--data',
      dataPath,
      '--level',
      'session',
      '--retriever',
      'flat-bm25',
      '--log',
      log,
    ]);
    expect(retrieved.code).toBe(0);
    expect(retrieved.stdout).toContain(`retrieval log: ${log} (8 questions)`);
    const out = join(directory, 'hypotheses.jsonl');
    const args = generate([
      '--retrieval-log',
      log,
      '--history',
      'retrieval',
      '--top-k',
      '1',
      '--ids',
      'q4',
      '--out',
      out,
    ]);
    args.splice(args.indexOf('--data'), 2);
    const result = await qualm(args);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const prompt = promptOf(server.chatRequests()[0]!.body!);
    // flat-bm25 ranks the evidence session first for "Which colour is box 4?"
    expect(prompt).toContain('Box 4 is painted teal.');
    expect(prompt).not.toContain('pasta');
    expect(lines(out).map((line) => line.question_id)).toEqual(['q4']);
  });

  it('says in one line that a retrieval log of another level does not fit the history', async () => {
    server = await answering();
    const log = join(directory, 'turns.retrievallog');
    await qualm([
      'bench',
      'longmemeval',
      'retrieve',
      '--data',
      dataPath,
      '--level',
      'turn',
      '--log',
      log,
    ]);
    const result = await qualm(
      generate([
        '--retrieval-log',
        log,
        '--history',
        'retrieval',
        '--out',
        join(directory, 'hypotheses.jsonl'),
      ]),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/ranks turns, but the history is of session level/);
    expect(server.chatRequests()).toHaveLength(0);
  });
});
