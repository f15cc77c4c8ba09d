import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qualm } from './qualm-process.js';

const question = (id: string, text: string, sessionText: string, type = 'single-session-user') => ({
  question_id: id,
  question_type: type,
  question: text,
  answer: 'x',
  question_date: '2023/05/30 (Tue) 23:40',
  haystack_dates: ['2023/05/20 (Sat) 02:21'],
  haystack_session_ids: [`answer_${id}`],
  haystack_sessions: [
    [
      { role: 'user', content: sessionText, has_answer: true },
      { role: 'assistant', content: 'Noted.' },
    ],
  ],
  answer_session_ids: [`answer_${id}`],
});
const data = [
  question('q1', 'What did I call my cat?', 'I adopted a cat named Luna.'),
  question('q2_abs', 'What did I name my tortoise?', 'I adopted a cat named Luna.'),
  question(
    'q3',
    'Where did we drive in my new car?',
    'We drove to the coast in my new car.',
    'temporal-reasoning',
  ),
];
const label = (label: boolean) => ({ model: 'judge', label });
const run = [
  { question_id: 'q1', hypothesis: 'Luna.', autoeval_label: label(true) },
  { question_id: 'q2_abs', hypothesis: 'Biscuit.', autoeval_label: label(false) },
  { question_id: 'q3', hypothesis: 'The coast.', autoeval_label: label(true) },
  { question_id: 'gone', hypothesis: 'x', autoeval_label: label(true) },
];

let folder: string;
let dataPath: string;
let runPath: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'qualm-replay-'));
  dataPath = join(folder, 'data.json');
  runPath = join(folder, 'run.jsonl');
  await writeFile(dataPath, JSON.stringify(data));
  await writeFile(runPath, `${run.map((row) => JSON.stringify(row)).join('\n')}\n`);
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

// the arguments of qualm bench longmemeval replay of a run on the test data, then other flags
function replay(runFile: string, ...flags: string[]): string[] {
  return ['bench', 'longmemeval', 'replay', '--data', dataPath, '--run', runFile, ...flags];
}

describe('qualm bench longmemeval replay', () => {
  it('prints the documented JSON object: baseline, detector and skipped', async () => {
    const result = await qualm(replay(runPath, '--abstention', '--no-nli', '--format', 'json'));
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout);
    expect(output.skipped).toBe(1);
    expect(output.baseline).toMatchObject({
      overall: 2 / 3,
      abstention: { accuracy: 0, correct: 0, n: 1 },
      falseAbstentionRate: 0,
    });
    expect(output.baseline.byType['temporal-reasoning']).toEqual({ accuracy: 1, n: 1 });
    expect(output.detector).toMatchObject({
      overall: 1,
      abstention: { accuracy: 1, correct: 1, n: 1 },
      falseAbstentionRate: 0,
    });
    // a run without every official type has no task average, as the official script prints nan
    expect(output.baseline.taskAveraged).toBeNull();
  });

  it('leaves the detector out without --abstention, and prints a table by default', async () => {
    const json = JSON.parse((await qualm(replay(runPath, '--format', 'json'))).stdout);
    expect(json.detector).toBeUndefined();
    const table = await qualm(replay(runPath, '--abstention', '--no-nli'));
    expect(table.stdout).toMatch(/^overall\s+3\s+66\.7\s+100\.0$/m);
    expect(table.stdout).toContain('abstention: 0/1 recorded, 1/1 with the detector');
    expect(table.stdout).toContain('skipped 1 run ids not in the data: gone');
  });

  it('prints - for a task average it cannot compute, as metrics does', async () => {
    const table = await qualm(replay(runPath, '--abstention', '--no-nli'));
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^task-averaged\s+3\s+-\s+-$/m);
    expect(table.stdout).not.toContain('nan');
  });

  it('names the line of a broken run file', async () => {
    const broken = join(folder, 'broken.jsonl');
    await writeFile(
      broken,
      `${JSON.stringify(run[0])}\n{"question_id": "q2_abs", "hypothesis": 3}\n`,
    );
    const result = await qualm(replay(broken));
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/^qualm: .*broken\.jsonl:2: hypothesis/);
  });
});

describe('qualm bench longmemeval calibrate', () => {
  it('writes the calibration report files', async () => {
    const out = join(folder, 'calibration');
    const result = await qualm([
      'bench',
      'longmemeval',
      'calibrate',
      '--data',
      dataPath,
      '--run',
      runPath,
      runPath,
      '--out',
      out,
      '--no-nli',
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('# Abstention calibration');
    expect(result.stdout).not.toContain('![trade-off]');
    expect(result.stdout).toMatch(/\|\n\nwrote .*calibration\.json, .*tradeoff\.svg\n$/);
    // the project's target by default: at most 0.5% added false abstention
    expect(JSON.parse(await readFile(join(out, 'calibration.json'), 'utf8')).objective).toContain(
      'at most 0.5%',
    );
    expect((await readFile(join(out, 'tradeoff.svg'), 'utf8')).startsWith('<svg')).toBe(true);
  });

  it('leaves --abstention-threshold, which it chooses itself, out of its options', async () => {
    const help = await qualm(['bench', 'longmemeval', 'calibrate', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--score-threshold');
    expect(help.stdout).not.toContain('--abstention-threshold');
    const result = await qualm([
      'bench',
      'longmemeval',
      'calibrate',
      '--data',
      dataPath,
      '--run',
      runPath,
      '--out',
      join(folder, 'y'),
      '--no-nli',
      '--abstention-threshold',
      '0.5',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "qualm: unknown option '--abstention-threshold' (see qualm bench longmemeval calibrate --help)\n",
    );
  });

  it('rejects data files that do not pair with the runs', async () => {
    const result = await qualm([
      'bench',
      'longmemeval',
      'calibrate',
      '--data',
      dataPath,
      dataPath,
      '--run',
      runPath,
      runPath,
      runPath,
      '--out',
      join(folder, 'x'),
      '--no-nli',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'qualm: give one --data for every run or one per run: got 2 data files for 3 runs\n',
    );
  });
});
