import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createChatClient } from '@qualm/judge';
import { ABSTENTION_ANSWER, AbstentionDetector } from '@qualm/search-core';
import { type ChatServer, type ChatServerRequestBody, startChatServer } from '@qualm/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  buildReaderPrompt,
  formatHistory,
  pythonJsonDumps,
  readQuestion,
  runReader,
  selectHistory,
} from '../src/index.js';
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

const promptOf = (body: ChatServerRequestBody) => String(body.messages.at(-1)?.content ?? '');

function client(overrides: { timeoutMs?: number; maxAttempts?: number } = {}) {
  if (!server) throw new Error('start the server first');
  return createChatClient({
    model: 'gpt-4o-mini',
    baseURL: server.baseURL,
    apiKey: 'test-key',
    backoff: { baseDelayMs: 5, maxDelayMs: 20 },
    ...overrides,
  });
}

// sessions given out of date order, an evidence turn marked has_answer, a non-ASCII character
const question = makeQuestion(
  'q1',
  [
    ['s_late', [user('I moved to Lisbon.'), assistant('Nice city!')]],
    ['answer_early', [user('My café is called Brew.', true), assistant('Great name.')]],
  ],
  {
    question: 'What is my café called?',
    haystack_dates: ['2023/05/20 (Sat) 10:00', '2023/05/02 (Tue) 09:00'],
    answer_session_ids: ['answer_early'],
  },
);

describe('the reader history', () => {
  it('writes the harness prompt: sessions sorted by date, JSON of the turns without has_answer, the current date', async () => {
    const built = await buildReaderPrompt(question, {
      client: createChatClient({ model: 'gpt-4o', apiKey: 'unused' }),
      method: 'direct',
      history: { source: 'full' },
    });
    const history =
      '\n### Session 1:\nSession Date: 2023/05/02 (Tue) 09:00\nSession Content:\n\n' +
      '[{"role": "user", "content": "My caf\\u00e9 is called Brew."}, {"role": "assistant", "content": "Great name."}]\n' +
      '\n### Session 2:\nSession Date: 2023/05/20 (Sat) 10:00\nSession Content:\n\n' +
      '[{"role": "user", "content": "I moved to Lisbon."}, {"role": "assistant", "content": "Nice city!"}]\n';
    expect(built.prompt).toBe(
      'I will give you several history chats between you and a user. Please answer the question based on the relevant chat history.\n\n\n' +
        `History Chats:\n\n${history}\n\nCurrent Date: 2023/05/30 (Tue) 23:40\nQuestion: What is my café called?\nAnswer:`,
    );
    expect(built.prompt).not.toContain('has_answer');
  });

  it('uses the step-by-step template for cot reading', async () => {
    const built = await buildReaderPrompt(question, {
      client: createChatClient({ model: 'gpt-4o', apiKey: 'unused' }),
      method: 'cot',
      history: { source: 'oracle' },
    });
    expect(built.prompt).toMatch(
      /^I will give you several history chats between you and a user\. Please answer the question based on the relevant chat history\. Answer the question step by step: first extract all the relevant information, and then reason over the information to get the answer\./,
    );
    expect(built.prompt.endsWith('Question: What is my café called?\nAnswer (step by step):')).toBe(
      true,
    );
  });

  it('writes JSON the way Python json.dumps does', () => {
    expect(pythonJsonDumps({ role: 'user', content: 'naïve 😀 "q"\n\u007f' })).toBe(
      '{"role": "user", "content": "na\\u00efve \\ud83d\\ude00 \\"q\\"\\n\\u007f"}',
    );
    expect(pythonJsonDumps([1, true, null, { session_summary: 'x' }])).toBe(
      '[1, true, null, {"session_summary": "x"}]',
    );
  });

  it('keeps only the evidence sessions for oracle history', async () => {
    const chunks = await selectHistory(question, { source: 'oracle' });
    expect(chunks.map((chunk) => chunk.sessionIndex)).toEqual([1]);
  });

  it('keeps the latest k sessions of the full history, as the harness does', async () => {
    const chunks = await selectHistory(question, { source: 'full', topK: 1 });
    expect(chunks.map((chunk) => chunk.sessionIndex)).toEqual([1]);
  });

  it('shows one turn per block at turn level', async () => {
    const chunks = await selectHistory(question, { source: 'full', level: 'turn' });
    expect(chunks).toHaveLength(4);
    expect(formatHistory(chunks.slice(0, 1))).toBe(
      '\n### Session 1:\nSession Date: 2023/05/20 (Sat) 10:00\nSession Content:\n\n{"role": "user", "content": "I moved to Lisbon."}\n',
    );
  });

  it('writes role: content lines in the nl format', () => {
    expect(
      formatHistory([{ date: 'd', sessionIndex: 0, content: [user(' hi '), assistant('yo')] }], {
        format: 'nl',
      }),
    ).toBe('\n### Session 1:\nSession Date: d\nSession Content:\n\n\nuser: hi\n\nassistant: yo\n');
  });

  it('retrieves the top-k sessions for the question', async () => {
    const many = makeQuestion('q2', [
      ['s1', [user('I repaired my bicycle chain yesterday.'), assistant('Good job.')]],
      ['s2', [user('Recommend a lasagna recipe.'), assistant('Sure.')]],
      ['s3', [user('My sister plays the violin.'), assistant('Lovely.')]],
    ]);
    const chunks = await selectHistory(
      { ...many, question: 'What instrument does my sister play, the violin?' },
      { source: 'retrieval', topK: 1 },
    );
    expect(chunks.map((chunk) => chunk.sessionIndex)).toEqual([2]);
  });

  it('retrieves turns with the reply that follows them', async () => {
    const many = makeQuestion('q3', [
      [
        's1',
        [
          user('Recommend a lasagna recipe.'),
          assistant('Use ricotta.'),
          user('My sister plays the violin.'),
          assistant('Lovely.'),
        ],
      ],
    ]);
    const chunks = await selectHistory(
      { ...many, question: 'Which instrument does my sister play?' },
      { source: 'retrieval', level: 'turn', topK: 1 },
    );
    expect(chunks).toEqual([
      {
        date: many.haystack_dates[0],
        sessionIndex: 0,
        content: [user('My sister plays the violin.'), assistant('Lovely.')],
      },
    ]);
  });

  it('asks only the question when there is no history', async () => {
    const built = await buildReaderPrompt(question, {
      client: createChatClient({ model: 'gpt-4o', apiKey: 'unused' }),
      method: 'cot',
      history: { source: 'none' },
    });
    expect(built.prompt).toBe('What is my café called?Answer step by step.');
  });
});

describe('the live reader', () => {
  it('writes a note per session first with chain-of-note, then answers from the notes', async () => {
    server = await startChatServer({
      handler: (body) => {
        const prompt = promptOf(body);
        if (prompt.includes('Write reading notes')) {
          return { content: prompt.includes('Brew') ? ' The café is Brew. ' : 'empty' };
        }
        return { content: '  Brew  ' };
      },
    });
    const record = await readQuestion(question, {
      client: client(),
      method: 'con',
      history: { source: 'full' },
    });
    expect(record.hypothesis).toBe('Brew');
    const requests = server.chatRequests().map((request) => request.body!);
    expect(requests).toHaveLength(3);
    expect(promptOf(requests[0]!)).toContain(
      'Chat History:\nSession Date: 2023/05/20 (Sat) 10:00\nSession Content:\n[{"role": "user", "content": "I moved to Lisbon."}',
    );
    expect(requests[0]).toMatchObject({ max_tokens: 500, n: 1, temperature: 0 });
    expect(requests[0]).not.toHaveProperty('max_completion_tokens');
    const answerPrompt = promptOf(requests[2]!);
    expect(answerPrompt).toContain(
      'Session Date: 2023/05/02 (Tue) 09:00\nSession Content:\n\n{"session_summary": "The caf\\u00e9 is Brew."}\n',
    );
    expect(answerPrompt).toContain('{"session_summary": "empty"}');
    expect(requests[2]).toMatchObject({ max_tokens: 800, n: 1 });
    expect(requests[2]?.temperature).toBe(0);
    expect(record.usage.calls).toBe(3);
  });

  it('replaces an answer the detector does not trust and keeps the original', async () => {
    server = await startChatServer({
      handler: () => ({ content: 'Your tortoise is called Rex.' }),
    });
    const record = await readQuestion(
      { ...question, question_id: 'q9_abs', question: 'What did I name my tortoise Rex?' },
      {
        client: client(),
        method: 'direct',
        history: { source: 'oracle' },
        detector: new AbstentionDetector({ useNLI: false }),
      },
    );
    expect(record).toMatchObject({
      question_id: 'q9_abs',
      hypothesis: ABSTENTION_ANSWER,
      abstained: true,
      originalAnswer: 'Your tortoise is called Rex.',
    });
    expect(record.abstentionReason).toBeTruthy();
  });

  it('keeps a trusted answer and records that the detector did not abstain', async () => {
    server = await startChatServer({ handler: () => ({ content: 'Your café is called Brew.' }) });
    const record = await readQuestion(question, {
      client: client(),
      method: 'direct',
      history: { source: 'oracle' },
      detector: new AbstentionDetector({ useNLI: false }),
    });
    expect(record).toMatchObject({
      hypothesis: 'Your café is called Brew.',
      abstained: false,
      abstentionReason: null,
      originalAnswer: 'Your café is called Brew.',
    });
  });
});

describe('runReader', () => {
  const questions = Array.from({ length: 6 }, (_, index) =>
    makeQuestion(`q${index}`, [[`answer_${index}`, [user(`Fact number ${index}.`, true)]]], {
      question: `What is fact ${index}?`,
    }),
  );

  async function data() {
    return writeData(join(folder.path, 'data.json'), JSON.stringify(questions));
  }

  const lines = async (path: string) =>
    (await readFile(path, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  it('answers every question into the official JSON Lines, at most `concurrency` at a time', async () => {
    let inFlight = 0;
    let most = 0;
    server = await startChatServer({
      handler: async (body) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 40));
        inFlight -= 1;
        const id = /What is fact (\d)\?/.exec(promptOf(body))?.[1];
        return { content: `Fact ${id}.`, usage: { prompt_tokens: 100, completion_tokens: 5 } };
      },
    });
    const outPath = join(folder.path, 'out', 'hypotheses.jsonl');
    const progress: number[] = [];
    const run = await runReader({
      client: client(),
      dataPath: await data(),
      outPath,
      method: 'direct',
      history: { source: 'oracle' },
      concurrency: 2,
      onProgress: ({ done }) => progress.push(done),
    });
    expect(most).toBe(2);
    expect(run).toMatchObject({ total: 6, written: 6, alreadyDone: 0, failures: [] });
    expect(run.usage).toMatchObject({ calls: 6, promptTokens: 600, completionTokens: 30 });
    expect(progress).toEqual([1, 2, 3, 4, 5, 6]);
    const written = await lines(outPath);
    expect(written.map((line) => line.question_id).sort()).toEqual(
      questions.map((entry) => entry.question_id),
    );
    for (const line of written) {
      expect(line.hypothesis).toBe(`Fact ${String(line.question_id).slice(1)}.`);
    }
  });

  it('resumes: skips the ids already written and redoes a half-written last line', async () => {
    server = await startChatServer({ handler: () => ({ content: 'answer' }) });
    const outPath = join(folder.path, 'hypotheses.jsonl');
    await writeFile(
      outPath,
      '{"question_id":"q0","hypothesis":"earlier"}\n{"question_id":"q1","hypothesis":"earl',
    );
    const run = await runReader({
      client: client(),
      dataPath: await data(),
      outPath,
      history: { source: 'oracle' },
    });
    expect(run).toMatchObject({ total: 5, alreadyDone: 1, written: 5 });
    expect(server.chatRequests()).toHaveLength(5);
    const written = await lines(outPath);
    expect(written[0]).toEqual({ question_id: 'q0', hypothesis: 'earlier' });
    expect(written.map((line) => line.question_id).sort()).toEqual(
      questions.map((entry) => entry.question_id),
    );
  });

  it('retries a 429 and answers; leaves out a question whose server keeps failing, so a rerun retries it', async () => {
    let rateLimited = false;
    server = await startChatServer({
      handler: (body) => {
        const prompt = promptOf(body);
        if (prompt.includes('fact 1?') && !rateLimited) {
          rateLimited = true;
          return { fault: 'rate_limit', retryAfterMs: 10 };
        }
        if (prompt.includes('fact 2?')) return { fault: 'server_error', status: 500 };
        return { content: 'answer' };
      },
    });
    const outPath = join(folder.path, 'hypotheses.jsonl');
    const run = await runReader({
      client: client({ maxAttempts: 2 }),
      dataPath: await data(),
      outPath,
      history: { source: 'oracle' },
    });
    expect(run.written).toBe(5);
    expect(run.failures).toEqual([
      {
        id: 'q2',
        code: 'ENDPOINT_UNAVAILABLE',
        kind: 'unavailable',
        message: expect.stringContaining('500'),
      },
    ]);
    const ids = (await lines(outPath)).map((line) => line.question_id);
    expect(ids).toContain('q1');
    expect(ids).not.toContain('q2');

    server.setHandler(() => ({ content: 'answer now' }));
    const rerun = await runReader({
      client: client(),
      dataPath: await data(),
      outPath,
      history: { source: 'oracle' },
    });
    expect(rerun).toMatchObject({ total: 1, written: 1, alreadyDone: 5, failures: [] });
  });

  it('reports a question whose request hangs as a timeout', async () => {
    server = await startChatServer({
      handler: (body) =>
        promptOf(body).includes('fact 3?') ? { fault: 'hang' } : { content: 'ok' },
    });
    // the answers that do come must beat the timeout on a loaded machine: a generous one, so that
    // only the hanging request reaches it
    const run = await runReader({
      client: client({ timeoutMs: 2_000, maxAttempts: 1 }),
      dataPath: await data(),
      outPath: join(folder.path, 'hypotheses.jsonl'),
      history: { source: 'oracle' },
    });
    expect(run.failures).toEqual([
      {
        id: 'q3',
        code: 'TIMEOUT',
        kind: 'unavailable',
        message: expect.stringContaining('within 2000 ms'),
      },
    ]);
    expect(run.written).toBe(5);
  });

  it('stops at once when the endpoint rejects the key', async () => {
    server = await startChatServer({
      handler: () => ({ fault: 'status', status: 401, message: 'bad key' }),
    });
    await expect(
      runReader({
        client: client(),
        dataPath: await data(),
        outPath: join(folder.path, 'hypotheses.jsonl'),
        history: { source: 'oracle' },
        concurrency: 1,
      }),
    ).rejects.toMatchObject({ code: 'AUTHENTICATION_FAILED' });
    expect(server.chatRequests()).toHaveLength(1);
  });

  it('answers only the ids asked for and names those the data lacks', async () => {
    server = await startChatServer({ handler: () => ({ content: 'answer' }) });
    const run = await runReader({
      client: client(),
      dataPath: await data(),
      outPath: join(folder.path, 'hypotheses.jsonl'),
      history: { source: 'oracle' },
      questionIds: ['q4', 'q5', 'nope'],
    });
    expect(run).toMatchObject({ total: 2, written: 2, missingIds: ['nope'] });
  });

  it('records the abstention fields beside the hypothesis with a detector', async () => {
    server = await startChatServer({ handler: () => ({ content: 'Fact.' }) });
    const outPath = join(folder.path, 'hypotheses.jsonl');
    await runReader({
      client: client(),
      dataPath: await data(),
      outPath,
      history: { source: 'oracle' },
      detector: new AbstentionDetector({ useNLI: false }),
      limit: 2,
    });
    const written = await lines(outPath);
    expect(written).toHaveLength(2);
    for (const line of written) {
      expect(Object.keys(line)).toEqual([
        'question_id',
        'hypothesis',
        'abstained',
        'abstentionReason',
        'originalAnswer',
        'usage',
      ]);
    }
  });

  it('rejects chain-of-note notes in the nl format before any call', async () => {
    server = await startChatServer();
    await expect(
      runReader({
        client: client(),
        dataPath: await data(),
        outPath: join(folder.path, 'hypotheses.jsonl'),
        method: 'con',
        history: { source: 'oracle', format: 'nl' },
      }),
    ).rejects.toThrow(/json history format/);
    expect(server.chatRequests()).toHaveLength(0);
  });
});
