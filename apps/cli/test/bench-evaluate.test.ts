import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ChatServer, type ChatServerRequestBody, startChatServer } from '@qualm/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { endpointEnvironment, qualmWithEnvironment } from './qualm-process.js';

const apiKey = 'sk-evaluate-test';

let server: ChatServer | undefined;
let directory: string;
let dataPath: string;
let runPath: string;

const environment = endpointEnvironment(apiKey);
const qualm = qualmWithEnvironment(environment);

const types = [
  'single-session-user',
  'single-session-assistant',
  'multi-session',
  'temporal-reasoning',
  'knowledge-update',
  'single-session-preference',
];

const questions = [
  ...types.map((type, index) => ({
    question_id: `q${index}`,
    question_type: type,
    question: `Question ${index}?`,
    answer: `gold ${index}`,
    question_date: '2023/06/01 (Thu) 10:00',
    haystack_dates: ['2023/05/03 (Wed) 09:30'],
    haystack_session_ids: ['answer_1'],
    haystack_sessions: [[{ role: 'user', content: 'x', has_answer: true }]],
    answer_session_ids: ['answer_1'],
  })),
  {
    question_id: 'q6_abs',
    question_type: 'knowledge-update',
    question: 'Question 6?',
    answer: 'The user never said.',
    question_date: '2023/06/01 (Thu) 10:00',
    haystack_dates: ['2023/05/03 (Wed) 09:30'],
    haystack_session_ids: ['answer_1'],
    haystack_sessions: [[{ role: 'user', content: 'x' }]],
    answer_session_ids: ['answer_1'],
  },
];

// the judge says yes to the even questions, in the varied ways judges do
const replies = ['Yes.', 'No.', 'yes', 'no', 'YES, it is correct', 'No', 'Yes'];

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'qualm-evaluate-'));
  dataPath = join(directory, 'data.json');
  writeFileSync(dataPath, JSON.stringify(questions));
  runPath = join(directory, 'hypotheses.jsonl');
  writeFileSync(
    runPath,
    [
      ...questions.map((question, index) =>
        JSON.stringify({
          question_id: question.question_id,
          hypothesis: `hypothesis ${index}`,
          ...(index === 1 ? { abstained: false, originalAnswer: 'hypothesis 1' } : {}),
        }),
      ),
      JSON.stringify({ question_id: 'elsewhere', hypothesis: 'x' }),
    ].join('\n'),
  );
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  rmSync(directory, { recursive: true, force: true });
});

const promptOf = (body: ChatServerRequestBody) => String(body.messages.at(-1)?.content ?? '');
const indexOf = (body: ChatServerRequestBody) =>
  Number(/Model Response: hypothesis (\d)/.exec(promptOf(body))?.[1]);

const judge = () =>
  startChatServer({ handler: (body) => ({ content: replies[indexOf(body)] ?? 'no' }) });

function lines(path: string) {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function evaluate(extra: string[]) {
  return [
    'bench',
    'longmemeval',
    'evaluate',
    '--data',
    dataPath,
    '--run',
    runPath,
    '--base-url',
    server!.baseURL,
    ...extra,
  ];
}

describe('qualm bench longmemeval evaluate', () => {
  it('sends each question type its own official prompt, and the abstention prompt to _abs ids', async () => {
    server = await judge();
    const result = await qualm(evaluate([]));
    expect(result.code).toBe(0);
    const prompts = new Map(
      server.chatRequests().map((request) => [indexOf(request.body!), promptOf(request.body!)]),
    );
    expect(prompts.size).toBe(7);
    const factual =
      /^I will give you a question, a correct answer, and a response from a model\. Please answer yes if the response contains the correct answer\. Otherwise, answer no\. If the response is equivalent to the correct answer or contains all the intermediate steps to get the correct answer, you should also answer yes\. If the response only contains a subset of the information required by the answer, answer no\. \n\nQuestion: /;
    for (const index of [0, 1, 2]) {
      expect(prompts.get(index)).toMatch(factual);
      expect(prompts.get(index)).not.toContain('off-by-one');
    }
    expect(prompts.get(3)).toContain(
      'In addition, do not penalize off-by-one errors for the number of days.',
    );
    expect(prompts.get(4)).toContain(
      'If the response contains some previous information along with an updated answer, the response should be considered as correct as long as the updated answer is the required answer.',
    );
    expect(prompts.get(5)).toContain(
      'I will give you a question, a rubric for desired personalized response, and a response from a model.',
    );
    expect(prompts.get(5)).toContain('Rubric: gold 5\n');
    expect(prompts.get(6)).toMatch(/^I will give you an unanswerable question, an explanation/);
    expect(prompts.get(6)).toContain('Explanation: The user never said.');
    expect(prompts.get(6)).not.toContain('updated answer');
    for (const prompt of prompts.values()) {
      expect(prompt).toMatch(
        /\n\nIs the model response correct\? Answer yes or no only\.$|\n\nDoes the model correctly identify the question as unanswerable\? Answer yes or no only\.$/,
      );
    }
    for (const request of server.chatRequests()) {
      expect(request.body).toMatchObject({
        model: 'gpt-4o-2024-08-06',
        temperature: 0,
        n: 1,
        max_tokens: 10,
      });
      expect(request.body).not.toHaveProperty('max_completion_tokens');
    }
  });

  it('writes the official eval-results lines with the label "reply contains yes", keeping other fields', async () => {
    server = await judge();
    const result = await qualm(evaluate([]));
    expect(result.code).toBe(0);
    const out = `${runPath}.eval-results-gpt-4o-2024-08-06`;
    const written = new Map(lines(out).map((line) => [line.question_id, line]));
    expect(written.size).toBe(7);
    expect(
      questions.map(
        (question) =>
          (written.get(question.question_id)?.autoeval_label as { label: boolean } | undefined)
            ?.label,
      ),
    ).toEqual([true, false, true, false, true, false, true]);
    expect(written.get('q1')).toEqual({
      question_id: 'q1',
      hypothesis: 'hypothesis 1',
      abstained: false,
      originalAnswer: 'hypothesis 1',
      autoeval_label: { model: 'gpt-4o-2024-08-06', label: false },
    });
    expect(result.stdout).toMatch(/^overall\s+7\s+57\.1$/m);
    expect(result.stdout).toMatch(/^abstention\s+1\s+100\.0$/m);
    expect(result.stdout).toMatch(/judged now\s+7/);
    expect(result.stderr).toContain(
      'skipped 1 hypotheses whose ids are not in the data: elsewhere',
    );
  });

  it('records the full name of a short judge name, as the harness does', async () => {
    server = await judge();
    const out = join(directory, 'eval.jsonl');
    const result = await qualm(evaluate(['--judge-model', 'gpt-4o-mini', '--out', out]));
    expect(result.code).toBe(0);
    expect(server.chatRequests()[0]?.body?.model).toBe('gpt-4o-mini-2024-07-18');
    expect(lines(out)[0]?.autoeval_label).toMatchObject({ model: 'gpt-4o-mini-2024-07-18' });
    expect(result.stderr).toContain(
      'note: labels from gpt-4o-mini-2024-07-18; the official figures use gpt-4o-2024-08-06',
    );
  });

  it('judges only what is missing when rerun on the same output', async () => {
    server = await judge();
    const out = join(directory, 'eval.jsonl');
    writeFileSync(
      out,
      `${JSON.stringify({ question_id: 'q0', hypothesis: 'hypothesis 0', autoeval_label: { model: 'gpt-4o-2024-08-06', label: false } })}\n` +
        `${JSON.stringify({ question_id: 'q1', hypothesis: 'hypothesis 1', autoeval_label: { model: 'gpt-4o-2024-08-06', label: false } })}\n{"question_id": "q2", "hypo`,
    );
    const result = await qualm(evaluate(['--out', out, '--format', 'json']));
    expect(result.code).toBe(0);
    expect(
      server
        .chatRequests()
        .map((request) => indexOf(request.body!))
        .sort(),
    ).toEqual([2, 3, 4, 5, 6]);
    expect(lines(out).map((line) => line.question_id)).toHaveLength(7);
    const metrics = JSON.parse(result.stdout) as { n: number; overall: number };
    expect(metrics.n).toBe(7);
    // q0 keeps the label written before, false
    expect(metrics.overall).toBeCloseTo(3 / 7);
  });

  it('reaches the endpoint named by OPENAI_BASE_URL when --base-url is not given', async () => {
    server = await judge();
    const out = join(directory, 'eval.jsonl');
    const result = await qualm(
      ['bench', 'longmemeval', 'evaluate', '--data', dataPath, '--run', runPath, '--out', out],
      { OPENAI_BASE_URL: server.baseURL },
    );
    expect(result.code).toBe(0);
    expect(server.chatRequests()).toHaveLength(7);
    expect(server.chatRequests()[0]?.headers.authorization).toBe('Bearer sk-evaluate-test');
  });

  it('says in one line that OPENAI_API_KEY is missing', async () => {
    server = await judge();
    const result = await qualm(evaluate([]), { OPENAI_API_KEY: '' });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/^qualm: OPENAI_API_KEY is not set[^\n]*\n$/);
    expect(existsSync(`${runPath}.eval-results-gpt-4o-2024-08-06`)).toBe(false);
  });

  it('names the line of a hypotheses file that is not valid', async () => {
    server = await judge();
    writeFileSync(runPath, '{"question_id": "q0", "hypothesis": "x"}\n{"question_id": "q1"}\n');
    const result = await qualm(evaluate([]));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^qualm: .*hypotheses\.jsonl:2: hypothesis: /);
  });

  it('shows examples in --help', async () => {
    const result = await qualm(['bench', 'longmemeval', 'evaluate', '--help']);
    expect(result.stdout).toContain('Examples:');
    expect(result.stdout).toContain('contains "yes"');
  });
});
