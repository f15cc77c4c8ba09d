import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qualm } from './qualm-process.js';

const question = (id: string, type: string) => ({
  question_id: id,
  question_type: type,
  question: `${id}?`,
  answer: 'a',
  question_date: '2023/06/01 (Thu) 10:00',
  haystack_dates: [],
  haystack_session_ids: [],
  haystack_sessions: [],
  answer_session_ids: [],
});

const questions = [
  question('u1', 'single-session-user'),
  question('u2', 'single-session-user'),
  question('m1', 'multi-session'),
  question('m2', 'multi-session'),
  question('m3', 'multi-session'),
  question('t1', 'temporal-reasoning'),
  question('t2_abs', 'temporal-reasoning'),
  question('k1_abs', 'knowledge-update'),
];

const refusal = "I don't have enough information to answer this question.";
const label = (value: boolean, model = 'gpt-4o-2024-08-06') => ({ model, label: value });

// by hand: u 1/2, multi 2/3, temporal 1/2, knowledge-update 0/1; overall 4/8; task-averaged nan
// (two of the six official types have no question); abstention 1/2; false abstention 2 of 6 answerable,
// one written by the reader (u2), one added by the detector (m3)
const results = [
  { question_id: 'u1', hypothesis: 'a', autoeval_label: label(true) },
  { question_id: 'u2', hypothesis: refusal, autoeval_label: label(false) },
  { question_id: 'm1', hypothesis: 'a', autoeval_label: label(true) },
  { question_id: 'm2', hypothesis: 'a', autoeval_label: label(true) },
  {
    question_id: 'm3',
    hypothesis: refusal,
    abstained: true,
    abstentionReason: 'low_coverage',
    originalAnswer: 'It was Tuesday.',
    autoeval_label: label(false),
  },
  { question_id: 't1', hypothesis: 'a', autoeval_label: label(false) },
  { question_id: 't2_abs', hypothesis: refusal, autoeval_label: label(true) },
  { question_id: 'k1_abs', hypothesis: 'b', autoeval_label: label(false) },
  { question_id: 'gone', hypothesis: 'a', autoeval_label: label(true) },
];

let directory: string;
let dataPath: string;
let runPath: string;

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'qualm-metrics-'));
  dataPath = join(directory, 'data.json');
  runPath = join(directory, 'run.eval-results.jsonl');
  writeFileSync(dataPath, JSON.stringify(questions));
  writeFileSync(runPath, results.map((line) => JSON.stringify(line)).join('\n'));
});

afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

const metrics = (extra: string[] = []) =>
  qualm(['bench', 'longmemeval', 'metrics', '--data', dataPath, '--run', runPath, ...extra]);

describe('qualm bench longmemeval metrics', () => {
  it('prints the official metrics as a table, types in the official order', async () => {
    const result = await metrics();
    expect(result.code).toBe(0);
    const rows = result.stdout
      .split('\n')
      .slice(2, 12)
      .map((line) => line.trim().split(/\s{2,}/));
    expect(rows).toEqual([
      ['single-session-user', '2', '50.0'],
      ['single-session-preference', '0', '-'],
      ['single-session-assistant', '0', '-'],
      ['multi-session', '3', '66.7'],
      ['temporal-reasoning', '2', '50.0'],
      ['knowledge-update', '1', '0.0'],
      ['task-averaged', '8', '-'],
      ['overall', '8', '50.0'],
      ['abstention', '2', '50.0'],
      ['false abstention', '6', '33.3'],
    ]);
    expect(result.stdout).toContain(
      'abstention: 1/2 correct; false abstention: 2 of 6 answerable (1 added by the detector)',
    );
    expect(result.stderr).toContain('note: left out 1 ids not in the data: gone');
  });

  it('prints on stdout exactly the lines of print_qa_metrics.py with --format official, the rest on stderr', async () => {
    const result = await metrics(['--format', 'official']);
    expect(result.stdout).toBe(
      [
        '',
        'Evaluation results by task:',
        '\tsingle-session-user: 0.5 (2)',
        '\tsingle-session-preference: nan (0)',
        '\tsingle-session-assistant: nan (0)',
        '\tmulti-session: 0.6667 (3)',
        '\ttemporal-reasoning: 0.5 (2)',
        '\tknowledge-update: 0.0 (1)',
        '',
        'Task-averaged Accuracy: nan',
        'Overall Accuracy: 0.5',
        'Abstention Accuracy: 0.5 (2)',
        '',
      ].join('\n'),
    );
    expect(result.stderr).toContain('False-abstention Rate: 0.3333 (2/6)\n');
  });

  it('prints JSON with --format json', async () => {
    const result = await metrics(['--format', 'json']);
    const body = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(body).toMatchObject({
      n: 8,
      overall: 0.5,
      abstention: { accuracy: 0.5, correct: 1, n: 2 },
      falseAbstentions: 2,
      addedFalseAbstentions: 1,
      judgeModels: ['gpt-4o-2024-08-06'],
      missingIds: ['gone'],
    });
    expect(body.taskAveraged).toBeNull();
  });

  it('writes a Markdown table to --out', async () => {
    const out = join(directory, 'metrics.md');
    const result = await metrics(['--format', 'markdown', '--out', out]);
    expect(result.stdout).toBe(`wrote ${out}\n`);
    const markdown = readFileSync(out, 'utf8');
    expect(markdown).toContain('| metric | run |');
    expect(markdown).toContain('| multi-session | 66.7% (3) |');
    expect(markdown).toContain('| false abstention | 33.3% (2/6) |');
  });

  it('names the line of a result without a judge label', async () => {
    const unlabelled = join(directory, 'unlabelled.jsonl');
    writeFileSync(
      unlabelled,
      `${JSON.stringify(results[0])}\n{"question_id":"u2","hypothesis":"x"}\n`,
    );
    const result = await qualm([
      'bench',
      'longmemeval',
      'metrics',
      '--data',
      dataPath,
      '--run',
      unlabelled,
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^qualm: .*unlabelled\.jsonl:2: autoeval_label: /);
  });

  it('shows examples in --help', async () => {
    const result = await qualm(['bench', 'longmemeval', 'metrics', '--help']);
    expect(result.stdout).toContain('Examples:');
  });
});
