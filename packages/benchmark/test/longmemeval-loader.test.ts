import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BenchmarkError,
  joinRunWithQuestions,
  type LongMemEvalQuestion,
  loadLongMemEval,
  readRunFile,
  streamLongMemEval,
} from '../src/index.js';
import {
  assistant,
  makeQuestion,
  temporaryFolder,
  user,
  writeData,
} from './longmemeval-records.js';

const questions: LongMemEvalQuestion[] = [
  makeQuestion('q1', [
    [
      'answer_a',
      [user('I adopted a dog named "Rex" \\ last week', true), assistant('Congrats! ]}')],
    ],
    ['filler_1', [user('Tell me about café culture ☕'), assistant('Sure.')]],
  ]),
  makeQuestion('q2_abs', [['filler_2', [user('Hello'), assistant('Hi')]]], { answer: 3 }),
  makeQuestion('q3', [['answer_b', [user('My commute is 45 minutes', true)]]]),
];

let folder: { path: string; remove: () => Promise<void> };
beforeEach(async () => {
  folder = await temporaryFolder();
});
afterEach(async () => {
  await folder.remove();
});

async function collect(path: string): Promise<LongMemEvalQuestion[]> {
  const result: LongMemEvalQuestion[] = [];
  for await (const question of streamLongMemEval(path)) result.push(question);
  return result;
}

async function failure(promise: Promise<unknown>): Promise<BenchmarkError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(BenchmarkError);
    return error as BenchmarkError;
  }
  throw new Error('expected a BenchmarkError');
}

describe('the LongMemEval loader', () => {
  it('streams the records of a plain file in order, values intact', async () => {
    const path = await writeData(
      join(folder.path, 'data.json'),
      JSON.stringify(questions, null, 2),
    );
    expect(await collect(path)).toEqual(questions);
  });

  it('reads a gzip file the same as a plain one, whatever its name', async () => {
    const gz = await writeData(join(folder.path, 'data.json.gz'), JSON.stringify(questions));
    expect(await collect(gz)).toEqual(questions);
    const renamed = join(folder.path, 'data-without-suffix');
    await writeFile(renamed, gzipSync(JSON.stringify(questions)));
    expect(await collect(renamed)).toEqual(questions);
  });

  it('loads a file into a map by question id', async () => {
    const path = await writeData(join(folder.path, 'data.json'), JSON.stringify(questions));
    const loaded = await loadLongMemEval(path);
    expect([...loaded.keys()]).toEqual(['q1', 'q2_abs', 'q3']);
    expect(loaded.get('q2_abs')?.answer).toBe(3);
  });

  it('names the file, record, id and field of a record missing a field', async () => {
    const broken = questions.map((question) => ({ ...question })) as Record<string, unknown>[];
    delete broken[1]!.question_date;
    const path = await writeData(join(folder.path, 'missing.json'), JSON.stringify(broken));
    const error = await failure(collect(path));
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toContain(path);
    expect(error.message).toContain('record 1 (question_id "q2_abs")');
    expect(error.message).toContain('question_date');
  });

  it('names the nested field of a malformed turn', async () => {
    const broken = JSON.parse(JSON.stringify(questions));
    broken[2].haystack_sessions[0][0].content = 7;
    const path = await writeData(join(folder.path, 'turn.json.gz'), JSON.stringify(broken));
    const error = await failure(collect(path));
    expect(error.message).toMatch(
      /record 2 \(question_id "q3"\): haystack_sessions\[0\]\[0\]\.content: /,
    );
  });

  it('rejects a record whose haystack lists disagree in length', async () => {
    const broken = JSON.parse(JSON.stringify(questions));
    broken[0].haystack_dates.pop();
    const path = await writeData(join(folder.path, 'lengths.json'), JSON.stringify(broken));
    const error = await failure(collect(path));
    expect(error.message).toMatch(
      /record 0 \(question_id "q1"\): haystack_dates: has 1 entries but haystack_sessions has 2/,
    );
  });

  it('reports a truncated file with the record it ends in and the last complete one', async () => {
    const text = JSON.stringify(questions);
    const path = await writeData(
      join(folder.path, 'cut.json'),
      text.slice(0, text.indexOf('"q3"') + 10),
    );
    const error = await failure(collect(path));
    expect(error.message).toContain(path);
    expect(error.message).toContain('ends inside record 2');
    expect(error.message).toContain('"q2_abs"');
  });

  it('reports a truncated gzip file with the file name and where reading stopped', async () => {
    const compressed = gzipSync(JSON.stringify(questions));
    const path = join(folder.path, 'cut.json.gz');
    await writeFile(path, compressed.subarray(0, compressed.length - 20));
    const error = await failure(collect(path));
    expect(error.message).toContain(path);
    expect(error.message).toContain('truncated or corrupt gzip data after record');
  });

  it('reports a record that is not valid JSON by its index', async () => {
    const text = JSON.stringify(questions).replace('"q3"', '"q3" oops');
    const path = await writeData(join(folder.path, 'invalid.json'), text);
    const error = await failure(collect(path));
    expect(error.message).toMatch(/record 2 is not valid JSON/);
  });

  it('rejects a file that is neither a JSON array nor JSON Lines', async () => {
    const path = await writeData(join(folder.path, 'number.json'), '42\n');
    const error = await failure(collect(path));
    expect(error.message).toContain('not a JSON array');
  });

  it('reads a file of one record per line (JSON Lines, as a retrieval log is), naming the line of a bad one', async () => {
    const lines = questions.map((question) => JSON.stringify(question)).join('\n');
    const path = await writeData(join(folder.path, 'records.jsonl.gz'), `\n${lines}\n\n`);
    expect((await collect(path)).map((question) => question.question_id)).toEqual(
      questions.map((question) => question.question_id),
    );
    const marked = await writeData(join(folder.path, 'marked.jsonl'), `\uFEFF${lines}\n`);
    expect((await collect(marked)).map((question) => question.question_id)).toEqual(
      questions.map((question) => question.question_id),
    );
    const broken = await writeData(
      join(folder.path, 'broken.jsonl'),
      `${JSON.stringify(questions[0])}\n${JSON.stringify({ ...questions[1], question: 7 })}\n`,
    );
    const error = await failure(collect(broken));
    expect(error.message).toMatch(/broken\.jsonl:2 \(question_id "[^"]+"\): question: /);
  });

  it('rejects two records with the same question id when loading into a map', async () => {
    const path = await writeData(
      join(folder.path, 'twice.json'),
      JSON.stringify([questions[0], questions[0]]),
    );
    const error = await failure(loadLongMemEval(path));
    expect(error.message).toContain('records 0 and 1 have the same question_id "q1"');
  });

  it('says plainly that a file is missing', async () => {
    const path = join(folder.path, 'nowhere.json');
    const error = await failure(collect(path));
    expect(error.code).toBe('FILE_NOT_FOUND');
    expect(error.message).toBe(`file not found: ${path}`);
  });

  it('stops reading when the consumer stops early', async () => {
    const path = await writeData(join(folder.path, 'data.json'), JSON.stringify(questions));
    for await (const question of streamLongMemEval(path)) {
      expect(question.question_id).toBe('q1');
      break;
    }
  });
});

describe('the run-file reader', () => {
  const lines = [
    { question_id: 'q1', hypothesis: 'Rex', autoeval_label: { model: 'judge-1', label: true } },
    { question_id: 'q9', hypothesis: 'unknown' },
    {
      question_id: 'q3',
      hypothesis: '45 minutes',
      autoeval_label: { model: 'judge-1', label: false },
    },
  ];

  it('reads entries of the official format, plain or gzip', async () => {
    const text = `${lines.map((line) => JSON.stringify(line)).join('\n')}\n\n`;
    const plain = await writeData(join(folder.path, 'run.jsonl'), text);
    const gz = await writeData(join(folder.path, 'run.jsonl.gz'), text);
    expect((await readRunFile(plain)).entries).toEqual(lines);
    expect((await readRunFile(gz)).entries).toEqual(lines);
    // a mark that some editors write at the start of a file is not part of the first entry
    const marked = await writeData(join(folder.path, 'marked.jsonl'), `\uFEFF${text}`);
    expect((await readRunFile(marked)).entries).toEqual(lines);
  });

  it('names the line and field of an invalid entry', async () => {
    const text = [
      JSON.stringify(lines[0]),
      JSON.stringify({ question_id: 'q2', hypothesis: 5 }),
    ].join('\n');
    const path = await writeData(join(folder.path, 'run.jsonl'), text);
    const error = await failure(readRunFile(path));
    expect(error.message).toMatch(new RegExp(`${path.replaceAll('.', '\\.')}:2: hypothesis: `));
  });

  it('names the line of a line that is not JSON', async () => {
    const path = await writeData(
      join(folder.path, 'run.jsonl'),
      `${JSON.stringify(lines[0])}\n{oops\n`,
    );
    const error = await failure(readRunFile(path));
    expect(error.message).toContain(':2: is not valid JSON');
  });

  it('reports a truncated gzip run file with the last line read', async () => {
    const text = Array.from({ length: 500 }, (_, index) =>
      JSON.stringify({ question_id: `q${index}`, hypothesis: `answer ${index} `.repeat(10) }),
    ).join('\n');
    const compressed = gzipSync(text);
    const path = join(folder.path, 'cut.jsonl.gz');
    await writeFile(path, compressed.subarray(0, compressed.length - 50));
    const error = await failure(readRunFile(path));
    expect(error.message).toMatch(/cut\.jsonl\.gz: truncated or corrupt gzip data after line \d+/);
  });

  it('skips and counts invalid lines when asked', async () => {
    const path = await writeData(
      join(folder.path, 'run.jsonl'),
      `${JSON.stringify(lines[0])}\nnot json\n{"question_id": "q3"}\n`,
    );
    const run = await readRunFile(path, { skipInvalid: true });
    expect(run.entries).toEqual([lines[0]]);
    expect(run.skippedLines).toBe(2);
  });

  it('pairs entries with questions and lists the ids the data lacks', () => {
    const byId = new Map(questions.map((question) => [question.question_id, question]));
    const joined = joinRunWithQuestions(lines, byId);
    expect(joined.pairs.map((pair) => pair.question.question_id)).toEqual(['q1', 'q3']);
    expect(joined.missingIds).toEqual(['q9']);
  });
});
