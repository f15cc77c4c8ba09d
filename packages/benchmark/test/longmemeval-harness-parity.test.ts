// qualm beside the official LongMemEval harness on hand-made records: every expected string in
// fixtures/harness-expected.json is what the harness's own logic gives for the same records (see
// the file's _about), so each test fails when qualm's prompt, log or printout drifts from it.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createChatClient } from '@qualm/judge';
import { type ChatServer, startChatServer } from '@qualm/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  buildReaderPrompt,
  buildRetrievalCorpus,
  computeQaMetrics,
  FlatBm25Index,
  type JudgedAnswer,
  type LongMemEvalQuestion,
  numpyRound,
  pythonFloatRepr,
  QUESTION_TYPES,
  qaMetricsText,
  readQuestion,
  readRetrievalLog,
  runLongMemEvalRetrieval,
  runReader,
  selectHistory,
} from '../src/index.js';
import { temporaryFolder, writeData } from './longmemeval-records.js';

interface HarnessExpected {
  question: LongMemEvalQuestion;
  question2: LongMemEvalQuestion;
  retrievalLogSession: string;
  retrievalLogTurn: string;
  retrievalLogSession2: string;
  retrievalLogTurn2: string;
  promptFullSessionDirect: string;
  promptFullTurnCot: string;
  promptFullTurnNlTop3: string;
  promptFullSessionUserOnlyCot: string;
  promptFullTurnUserOnlyCot: string;
  promptFlatSessionTop2Cot: string;
  promptFlatSessionUserOnlyTop3Cot: string;
  promptFlatTurnTop3Cot: string;
  promptFlatSession2Top5Direct: string;
  promptNoHistoryCot: string;
  scoresSession: number[];
  scoresTurn: number[];
  scoresSession2: number[];
  scoresTurn2: number[];
  qaMetrics: Record<string, { counts: Record<string, [number, number, number]>; printed: string }>;
  numpyRound4: Record<string, string>;
}

const expected = JSON.parse(
  await readFile(new URL('./fixtures/harness-expected.json', import.meta.url), 'utf8'),
) as HarnessExpected;
const { question, question2 } = expected;

// a model in the harness's table, so the context limit and tokenizer are the harness's
const offline = createChatClient({ model: 'gpt-4o', apiKey: 'unused' });
const prompt = async (
  record: LongMemEvalQuestion,
  options: Omit<Parameters<typeof buildReaderPrompt>[1], 'client'>,
) => (await buildReaderPrompt(record, { client: offline, ...options })).prompt;

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

describe('reader prompts as the harness writes them', () => {
  it('keeps has_answer in the JSON of a turn shown alone, as the harness cleanup leaves it', async () => {
    const built = await prompt(question, {
      method: 'cot',
      history: { source: 'full', level: 'turn' },
    });
    expect(built).toBe(expected.promptFullTurnCot);
    expect(built).toContain('"has_answer": true}');
  });

  it('drops has_answer from turns shown alone with cleanTurns, and nothing else changes', async () => {
    const built = await prompt(question, {
      method: 'cot',
      history: { source: 'full', level: 'turn', cleanTurns: true },
    });
    expect(built).toBe(expected.promptFullTurnCot.replaceAll(/, "has_answer": (true|false)/g, ''));
  });

  it('writes turns as role: content lines in the nl format, the latest k kept', async () => {
    const built = await prompt(question, {
      method: 'cot',
      history: { source: 'full', level: 'turn', format: 'nl', topK: 3 },
    });
    expect(built).toBe(expected.promptFullTurnNlTop3);
  });

  it('writes whole sessions without has_answer in direct reading', async () => {
    const built = await prompt(question, { method: 'direct', history: { source: 'full' } });
    expect(built).toBe(expected.promptFullSessionDirect);
  });

  it("shows only the user's turns with userOnly, at session and turn level", async () => {
    expect(await prompt(question, { history: { source: 'full', userOnly: true } })).toBe(
      expected.promptFullSessionUserOnlyCot,
    );
    expect(
      await prompt(question, { history: { source: 'full', level: 'turn', userOnly: true } }),
    ).toBe(expected.promptFullTurnUserOnlyCot);
  });

  it('rejects user-only retrieved turns, where the harness stops with a TypeError', async () => {
    await expect(
      selectHistory(question, {
        source: 'retrieval',
        level: 'turn',
        userOnly: true,
        retriever: 'flat-bm25',
      }),
    ).rejects.toThrow(/user-only history is not defined for retrieved turns/);
  });

  it('asks the bare question without history', async () => {
    expect(await prompt(question, { history: { source: 'none' } })).toBe(
      expected.promptNoHistoryCot,
    );
  });
});

describe('the flat-bm25 retriever', () => {
  it("scores every document exactly as rank_bm25's BM25Okapi over space-split tokens", () => {
    for (const [record, level, scores] of [
      [question, 'session', expected.scoresSession],
      [question, 'turn', expected.scoresTurn],
      [question2, 'session', expected.scoresSession2],
      [question2, 'turn', expected.scoresTurn2],
    ] as const) {
      const corpus = buildRetrievalCorpus(record, level);
      expect(new FlatBm25Index(corpus.documents).scores(record.question)).toEqual(scores);
    }
  });

  it('ranks for the reader as the harness does, a session id given twice read as its later session', async () => {
    expect(
      await prompt(question, {
        history: { source: 'retrieval', retriever: 'flat-bm25', topK: 2 },
      }),
    ).toBe(expected.promptFlatSessionTop2Cot);
    expect(
      await prompt(question2, {
        method: 'direct',
        history: { source: 'retrieval', retriever: 'flat-bm25', topK: 5 },
      }),
    ).toBe(expected.promptFlatSession2Top5Direct);
  });
});

describe('the history the harness shows by default', () => {
  const long: LongMemEvalQuestion = {
    ...question,
    haystack_dates: Array.from(
      { length: 55 },
      (_, index) =>
        `2023/01/${String(1 + (index % 28)).padStart(2, '0')} (Sun) ${10 + Math.floor(index / 28)}:00`,
    ),
    haystack_session_ids: Array.from({ length: 55 }, (_, index) => `chat_${index}`),
    haystack_sessions: Array.from({ length: 55 }, (_, index) => [
      { role: 'user' as const, content: `Session ${index} is about woodworking.` },
    ]),
    answer_session_ids: [],
  };

  it('keeps the latest 50 sessions of the full history', async () => {
    const chunks = await selectHistory(long, { source: 'full' });
    expect(chunks.map((chunk) => chunk.sessionIndex)).toEqual(
      Array.from({ length: 50 }, (_, index) => index + 5),
    );
  });

  it('shows the 50 best retrieved items, items the retriever did not match included', async () => {
    const chunks = await selectHistory(
      { ...long, question: 'What did session 7 say about woodworking?' },
      { source: 'retrieval' },
    );
    expect(chunks).toHaveLength(50);
  });

  it('fills up to k with the unmatched sessions in haystack order', async () => {
    const chunks = await selectHistory(question, { source: 'retrieval', topK: 4 });
    // only the kiln session shares words with the question once stop words are left out
    expect(chunks[0]?.sessionIndex).toBe(1);
    expect(chunks.map((chunk) => chunk.sessionIndex).sort()).toEqual([0, 1, 2, 3]);
  });
});

describe('requests as the harness sends them', () => {
  it('sends max_tokens 800 and n 1 for direct reading, and max_completion_tokens when asked', async () => {
    server = await startChatServer({ handler: () => ({ content: ' Celadon. ' }) });
    const client = (maxTokensParameter?: 'max_tokens' | 'max_completion_tokens') =>
      createChatClient({
        model: 'gpt-4o-mini',
        baseURL: server!.baseURL,
        apiKey: 'test-key',
        ...(maxTokensParameter ? { maxTokensParameter } : {}),
      });
    const record = await readQuestion(question, {
      client: client(),
      method: 'direct',
      history: { source: 'full' },
    });
    expect(record.hypothesis).toBe('Celadon.');
    await readQuestion(question, {
      client: client('max_completion_tokens'),
      method: 'direct',
      history: { source: 'full' },
    });
    const [first, second] = server.chatRequests().map((request) => request.body!);
    expect(first).toMatchObject({ model: 'gpt-4o-mini', n: 1, temperature: 0, max_tokens: 800 });
    expect(first).not.toHaveProperty('max_completion_tokens');
    expect(first?.messages).toEqual([{ role: 'user', content: expected.promptFullSessionDirect }]);
    expect(second).toMatchObject({ n: 1, max_completion_tokens: 800 });
    expect(second).not.toHaveProperty('max_tokens');
  });
});

describe('retrieval logs', () => {
  async function dataFile() {
    return writeData(join(folder.path, 'data.json'), JSON.stringify([question, question2]));
  }

  it('writes the harness retrieval log byte for byte, abstention questions included', async () => {
    const dataPath = await dataFile();
    for (const [level, lines] of [
      ['session', [expected.retrievalLogSession, expected.retrievalLogSession2]],
      ['turn', [expected.retrievalLogTurn, expected.retrievalLogTurn2]],
    ] as const) {
      const logPath = join(folder.path, `log-${level}.jsonl`);
      const run = await runLongMemEvalRetrieval({
        path: dataPath,
        level,
        retriever: 'flat-bm25',
        logPath,
      });
      expect(run.log).toEqual({ path: logPath, lines: 2 });
      // the abstention question is logged but not scored
      expect(run.n).toBe(1);
      expect(await readFile(logPath, 'utf8')).toBe(`${lines.join('\n')}\n`);
    }
  });

  it("reads the harness's log back: its rankings, level and question records", async () => {
    const logPath = await writeData(
      join(folder.path, 'official.retrievallog'),
      `${expected.retrievalLogTurn}\n${expected.retrievalLogTurn2}\n`,
    );
    const log = await readRetrievalLog(logPath);
    expect(log.level).toBe('turn');
    expect(log.rankings.get('pottery_q2_abs')?.slice(0, 3)).toEqual([
      'chat_garden_d_1',
      'chat_bikes_a_3',
      'chat_bikes_a_1',
    ]);
  });

  it("answers from the harness's rankings: the prompt of run_generation.py on its own log", async () => {
    const logPath = await writeData(
      join(folder.path, 'official.retrievallog'),
      `${expected.retrievalLogTurn}\n${expected.retrievalLogTurn2}\n`,
    );
    server = await startChatServer({ handler: () => ({ content: 'Celadon.' }) });
    const run = await runReader({
      client: createChatClient({ model: 'gpt-4o', baseURL: server.baseURL, apiKey: 'test-key' }),
      // the log holds the questions too, one per line
      dataPath: logPath,
      outPath: join(folder.path, 'hypotheses.jsonl'),
      history: { source: 'retrieval', level: 'turn', topK: 3 },
      retrievalLog: logPath,
      questionIds: ['pottery_q1'],
    });
    expect(run).toMatchObject({ written: 1, failures: [], truncated: 0 });
    expect(server.chatRequests()[0]?.body?.messages[0]?.content).toBe(
      expected.promptFlatTurnTop3Cot,
    );
  });

  it('refuses a log of another level than the history', async () => {
    const logPath = await writeData(
      join(folder.path, 'official.retrievallog'),
      `${expected.retrievalLogSession}\n`,
    );
    await expect(
      runReader({
        client: offline,
        dataPath: logPath,
        outPath: join(folder.path, 'hypotheses.jsonl'),
        history: { source: 'retrieval', level: 'turn' },
        retrievalLog: logPath,
      }),
    ).rejects.toThrow(/ranks sessions, but the history is of turn level/);
  });

  it('shows user-only sessions from recorded rankings', async () => {
    const log = await readRetrievalLog(
      await writeData(join(folder.path, 'log.jsonl'), `${expected.retrievalLogSession}\n`),
    );
    const marked = await readRetrievalLog(
      await writeData(join(folder.path, 'marked.jsonl'), `\uFEFF${expected.retrievalLogSession}\n`),
    );
    expect(marked.rankings).toEqual(log.rankings);
    expect(
      await prompt(question, {
        history: {
          source: 'retrieval',
          userOnly: true,
          topK: 3,
          rankedIds: log.rankings.get('pottery_q1')!,
        },
      }),
    ).toBe(expected.promptFlatSessionUserOnlyTop3Cot);
  });
});

describe('the metrics printout', () => {
  function answersOf(counts: Record<string, [number, number, number]>): JudgedAnswer[] {
    return Object.entries(counts).flatMap(([questionType, [n, correct, abstention]]) =>
      Array.from({ length: n }, (_, index) => ({
        questionId: `${questionType}_${index}${index < abstention ? '_abs' : ''}`,
        questionType,
        correct: index >= n - correct,
        abstained: false,
      })),
    );
  }

  it('prints what print_qa_metrics.py prints: half-to-even rounding, nan for a type with no question and for the task average then', () => {
    for (const { counts, printed } of Object.values(expected.qaMetrics)) {
      const text = qaMetricsText(computeQaMetrics(answersOf(counts)));
      expect(`${text}\n`).toBe(printed);
    }
    expect(expected.qaMetrics.partial?.printed).toContain('single-session-user: 0.1562 (32)');
    expect(Object.keys(expected.qaMetrics.complete?.counts ?? {})).toEqual([...QUESTION_TYPES]);
  });

  it('rounds as round(np.float64, 4) and prints as Python', () => {
    for (const [value, printed] of Object.entries(expected.numpyRound4)) {
      expect(pythonFloatRepr(numpyRound(Number(value), 4))).toBe(printed);
    }
  });
});
