import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createChatClient } from '@qualm/judge';
import { type ChatServer, type ChatServerRequestBody, startChatServer } from '@qualm/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_JUDGE_MODEL,
  falseAbstentionLine,
  judgeLabel,
  judgePrompt,
  loadQuestionTypes,
  QUESTION_TYPES,
  qaMetricsMarkdown,
  qaMetricsText,
  questionTypesOf,
  readEvalResults,
  resolveJudgeModel,
  runEvaluation,
  scoreEvalResults,
} from '../src/index.js';
import { makeQuestion, temporaryFolder, user, writeData } from './longmemeval-records.js';

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

const types = [
  'single-session-user',
  'single-session-assistant',
  'multi-session',
  'temporal-reasoning',
  'knowledge-update',
  'single-session-preference',
] as const;

const questions = [
  ...types.map((type, index) =>
    makeQuestion(`q${index}`, [['answer_s', [user('x', true)]]], {
      question_type: type,
      question: `Question ${index}?`,
      answer: index === 3 ? 18 : `gold ${index}`,
    }),
  ),
  makeQuestion('q6_abs', [['answer_s', [user('x')]]], {
    question_type: 'temporal-reasoning',
    question: 'How many days since I bought the boat?',
    answer: 'You never mentioned a boat.',
  }),
];

describe('the judge prompts', () => {
  const byId = (id: string) => questions.find((question) => question.question_id === id)!;

  it('chooses the prompt of each question type', () => {
    expect(judgePrompt(byId('q0'), 'r')).toBe(
      'I will give you a question, a correct answer, and a response from a model. Please answer yes if the response contains the correct answer. Otherwise, answer no. If the response is equivalent to the correct answer or contains all the intermediate steps to get the correct answer, you should also answer yes. If the response only contains a subset of the information required by the answer, answer no. \n\nQuestion: Question 0?\n\nCorrect Answer: gold 0\n\nModel Response: r\n\nIs the model response correct? Answer yes or no only.',
    );
    expect(judgePrompt(byId('q1'), 'r')).toBe(
      judgePrompt({ ...byId('q0'), question: 'Question 1?', answer: 'gold 1' }, 'r'),
    );
    expect(judgePrompt(byId('q3'), 'r')).toContain(
      'do not penalize off-by-one errors for the number of days',
    );
    expect(judgePrompt(byId('q3'), 'r')).toContain('Correct Answer: 18\n');
    expect(judgePrompt(byId('q4'), 'r')).toContain(
      'If the response contains some previous information along with an updated answer',
    );
    expect(judgePrompt(byId('q5'), 'r')).toContain('Rubric: gold 5\n');
    expect(judgePrompt(byId('q5'), 'r')).toContain(
      "recalls and utilizes the user's personal information",
    );
  });

  it('uses the abstention prompt for _abs ids whatever their type', () => {
    const prompt = judgePrompt(byId('q6_abs'), 'I cannot tell.');
    expect(prompt).toMatch(
      /^I will give you an unanswerable question, an explanation, and a response/,
    );
    expect(prompt).toContain('Explanation: You never mentioned a boat.\n');
    expect(prompt).toContain(
      'Does the model correctly identify the question as unanswerable? Answer yes or no only.',
    );
    expect(prompt).not.toContain('off-by-one');
  });

  it('refuses a question type it has no prompt for', () => {
    expect(() => judgePrompt({ ...byId('q0'), question_type: 'trivia' }, 'r')).toThrow(
      /no judge prompt for question_type "trivia"/,
    );
  });

  it('labels a reply correct when it contains "yes" in any case, as the harness does', () => {
    expect(judgeLabel('Yes.')).toBe(true);
    expect(judgeLabel('  YES')).toBe(true);
    expect(judgeLabel('no')).toBe(false);
    expect(judgeLabel('')).toBe(false);
    expect(judgeLabel('No, but eyes')).toBe(true);
  });

  it('expands the harness short judge names', () => {
    expect(resolveJudgeModel('gpt-4o')).toBe(DEFAULT_JUDGE_MODEL);
    expect(resolveJudgeModel('gpt-4o-mini')).toBe('gpt-4o-mini-2024-07-18');
    expect(resolveJudgeModel('my-judge')).toBe('my-judge');
  });
});

describe('runEvaluation', () => {
  const hypotheses = [
    ...questions.map((question, index) => ({
      question_id: question.question_id,
      hypothesis: index % 2 === 0 ? `right ${index}` : `wrong ${index}`,
      usage: { calls: 1 },
    })),
    { question_id: 'not-in-data', hypothesis: 'x' },
  ];

  async function files() {
    const dataPath = await writeData(join(folder.path, 'data.json'), JSON.stringify(questions));
    const runPath = join(folder.path, 'hypotheses.jsonl');
    await writeFile(runPath, hypotheses.map((line) => JSON.stringify(line)).join('\n'));
    return { dataPath, runPath, outPath: join(folder.path, 'eval.jsonl') };
  }

  function judge() {
    return createChatClient({
      model: 'gpt-4o-2024-08-06',
      baseURL: server!.baseURL,
      apiKey: 'test-key',
      backoff: { baseDelayMs: 5 },
    });
  }

  const scripted = () =>
    startChatServer({
      handler: (body) => ({
        content: /Model Response: right/.test(promptOf(body)) ? 'Yes.' : 'No.',
      }),
    });

  it('writes the official eval-results lines, keeping the extra fields, and scores them', async () => {
    server = await scripted();
    const paths = await files();
    const run = await runEvaluation({ client: judge(), ...paths });
    expect(run).toMatchObject({ total: 7, written: 7, missingIds: ['not-in-data'], failures: [] });
    const requests = server.chatRequests().map((request) => request.body!);
    expect(requests.every((body) => body.temperature === 0)).toBe(true);
    expect(requests.every((body) => body.max_tokens === 10 && body.n === 1)).toBe(true);
    expect(requests.some((body) => 'max_completion_tokens' in body)).toBe(false);
    expect(requests.every((body) => body.model === 'gpt-4o-2024-08-06')).toBe(true);
    const lines = (await readFile(paths.outPath, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const q0 = lines.find((line) => line.question_id === 'q0');
    expect(q0).toEqual({
      question_id: 'q0',
      hypothesis: 'right 0',
      usage: { calls: 1 },
      autoeval_label: { model: 'gpt-4o-2024-08-06', label: true },
    });
    expect(run.score.metrics.n).toBe(7);
    expect(run.score.metrics.overall).toBeCloseTo(4 / 7);
    expect(run.score.metrics.abstention).toEqual({ accuracy: 1, correct: 1, n: 1 });
  });

  it('judges only what is missing when rerun on the same output', async () => {
    server = await scripted();
    const paths = await files();
    await writeFile(
      paths.outPath,
      `${JSON.stringify({ question_id: 'q0', hypothesis: 'right 0', autoeval_label: { model: 'm', label: false } })}\n{"question_id": "q1", "hypo`,
    );
    const run = await runEvaluation({ client: judge(), ...paths });
    expect(run).toMatchObject({ total: 6, alreadyDone: 1, written: 6 });
    expect(server.chatRequests()).toHaveLength(6);
    // the line written earlier keeps its label
    expect(run.score.metrics.byType['single-session-user']).toEqual({ accuracy: 0, n: 1 });
  });

  it('refuses an output that is not an eval-results file before asking the judge anything', async () => {
    server = await scripted();
    const paths = await files();
    // another run's hypotheses given as the output by mistake
    const before = `${JSON.stringify({ question_id: 'q0', hypothesis: 'right 0' })}\n`;
    await writeFile(paths.outPath, before);
    await expect(runEvaluation({ client: judge(), ...paths })).rejects.toThrow(
      `${paths.outPath}: result 1 (question_id "q0") has no valid autoeval_label`,
    );
    expect(server.requests).toHaveLength(0);
    expect(await readFile(paths.outPath, 'utf8')).toBe(before);
  });

  it('leaves a failed judgement out of the output so a rerun retries it', async () => {
    server = await startChatServer({
      handler: (body) =>
        promptOf(body).includes('Question 2?') ? { fault: 'server_error' } : { content: 'yes' },
    });
    const paths = await files();
    const run = await runEvaluation({
      client: createChatClient({
        model: 'judge',
        baseURL: server.baseURL,
        apiKey: 'k',
        maxAttempts: 1,
      }),
      ...paths,
    });
    expect(run.failures.map((failure) => failure.id)).toEqual(['q2']);
    expect(run.written).toBe(6);
  });

  it('tries each judgement maxAttempts times: the harness retries until it gets an answer, qualm as often as asked', async () => {
    const failuresBeforeAnswer = 4;
    const failed = new Map<string, number>();
    server = await startChatServer({
      handler: (body) => {
        const prompt = promptOf(body);
        const count = failed.get(prompt) ?? 0;
        if (prompt.includes('Question 2?') && count < failuresBeforeAnswer) {
          failed.set(prompt, count + 1);
          return { fault: 'server_error', status: 502 };
        }
        return { content: 'yes' };
      },
    });
    const paths = await files();
    const client = (maxAttempts: number) =>
      createChatClient({
        model: 'gpt-4o-2024-08-06',
        baseURL: server!.baseURL,
        apiKey: 'k',
        maxAttempts,
        backoff: { baseDelayMs: 1, maxDelayMs: 2 },
      });
    const few = await runEvaluation({ client: client(3), ...paths });
    expect(few.failures).toEqual([
      {
        id: 'q2',
        code: 'ENDPOINT_UNAVAILABLE',
        kind: 'unavailable',
        message: expect.stringContaining('(3 attempts)'),
      },
    ]);
    failed.clear();
    const enough = await runEvaluation({ client: client(failuresBeforeAnswer + 1), ...paths });
    expect(enough).toMatchObject({ written: 1, failures: [], alreadyDone: 6 });
  });
});

describe('run metrics', () => {
  const typesById = new Map(
    questions.map((question) => [question.question_id, question.question_type]),
  );
  const line = (id: string, label: boolean, extra: Record<string, unknown> = {}) => ({
    question_id: id,
    hypothesis: 'an answer',
    autoeval_label: { model: 'gpt-4o-2024-08-06', label },
    ...extra,
  });

  it('scores per type, task-averaged, overall and abstention, and counts false abstentions', () => {
    const score = scoreEvalResults(
      [
        line('q0', true),
        line('q1', false, {
          hypothesis: "I don't have enough information to answer this question.",
        }),
        line('q2', true),
        line('q3', false, { abstained: true, originalAnswer: '19 days' }),
        line('q6_abs', true),
        line('elsewhere', true),
      ],
      typesById,
    );
    expect(score.missingIds).toEqual(['elsewhere']);
    expect(score.metrics.n).toBe(5);
    expect(score.metrics.overall).toBeCloseTo(3 / 5);
    expect(score.metrics.falseAbstentions).toBe(2);
    expect(score.metrics.addedFalseAbstentions).toBe(1);
    expect(score.metrics.byType['temporal-reasoning']).toEqual({ accuracy: 0.5, n: 2 });
    const text = qaMetricsText(score.metrics);
    expect(text).toContain(
      'Evaluation results by task:\n\tsingle-session-user: 1.0 (1)\n\tsingle-session-preference: nan (0)\n',
    );
    expect(text).toContain('\ttemporal-reasoning: 0.5 (2)\n');
    expect(text).toContain('Overall Accuracy: 0.6\n');
    // the official lines end with abstention accuracy; the rate they leave out is a line apart
    expect(text.endsWith('Abstention Accuracy: 1.0 (1)')).toBe(true);
    expect(text).not.toContain('False-abstention');
    expect(falseAbstentionLine(score.metrics)).toBe('False-abstention Rate: 0.5 (2/4)');
    expect(qaMetricsMarkdown([{ name: 'run|a', metrics: score.metrics }])).toContain(
      '| overall | 60.0% (5) |',
    );
  });

  it('lists the official six types in their order, then the others a run has', () => {
    const score = scoreEvalResults(
      [line('q0', true), line('q3', true), line('odd', true)],
      new Map([...typesById, ['odd', 'trivia']]),
    );
    expect(questionTypesOf(score.metrics)).toEqual([...QUESTION_TYPES, 'trivia']);
  });

  it('shows – for abstention in Markdown when a run has no abstention question, as the official script prints nan', () => {
    const score = scoreEvalResults([line('q0', true), line('q1', false)], typesById);
    const markdown = qaMetricsMarkdown([{ name: 'run', metrics: score.metrics }]);
    expect(markdown).toContain('| abstention | – |');
    expect(markdown).toContain('| false abstention | 0.0% (0/2) |');
    expect(qaMetricsText(score.metrics)).toContain('Abstention Accuracy: nan (0)');
  });

  it('reads question types without validating the histories, and names a record whose type is missing', async () => {
    const [first, second] = questions;
    const path = await writeData(
      join(folder.path, 'data.json'),
      JSON.stringify([
        { ...first, haystack_sessions: [[{ role: 'user', content: 3 }]] },
        { ...second, question_type: undefined },
      ]),
    );
    await expect(loadQuestionTypes(path)).rejects.toThrow(
      `${path}: record 1 (question_id "q1"): question_type: Invalid input: expected string, received undefined`,
    );
    await writeData(path, JSON.stringify([{ ...first, haystack_sessions: 'none' }]));
    expect(await loadQuestionTypes(path)).toEqual(new Map([['q0', 'single-session-user']]));
  });

  it('names the line of a result without a label', async () => {
    const path = join(folder.path, 'eval.jsonl');
    await writeFile(
      path,
      `${JSON.stringify(line('q0', true))}\n{"question_id":"q1","hypothesis":"x"}\n`,
    );
    await expect(readEvalResults(path)).rejects.toThrow(`${path}:2: autoeval_label`);
  });

  it('reads a run given as one JSON array, as the harness accepts', async () => {
    const path = join(folder.path, 'eval.json');
    await writeFile(path, JSON.stringify([line('q0', true), line('q1', false)]));
    expect((await readEvalResults(path)).map((entry) => entry.question_id)).toEqual(['q0', 'q1']);
  });

  it('refuses a question id given twice', async () => {
    const path = join(folder.path, 'eval.jsonl');
    await writeFile(
      path,
      [line('q0', true), line('q0', false)].map((entry) => JSON.stringify(entry)).join('\n'),
    );
    await expect(readEvalResults(path)).rejects.toThrow(
      /:2: question_id "q0" was already given at .*:1/,
    );
  });
});
