import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qualmWithEnvironment } from './qualm-process.js';

const qualm = qualmWithEnvironment({});

let directory: string;
let dataPath: string;
let runPath: string;

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'qualm-exit-'));
  dataPath = join(directory, 'data.json');
  runPath = join(directory, 'run.eval-results.jsonl');
  writeFileSync(
    dataPath,
    JSON.stringify([
      {
        question_id: 'u1',
        question_type: 'single-session-user',
        question: 'u1?',
        answer: 'a',
        question_date: '2023/06/01 (Thu) 10:00',
        haystack_dates: [],
        haystack_session_ids: [],
        haystack_sessions: [],
        answer_session_ids: [],
      },
    ]),
  );
  writeFileSync(
    runPath,
    `${JSON.stringify({ question_id: 'u1', hypothesis: 'a', autoeval_label: { model: 'm', label: true } })}\n`,
  );
});

afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

const metrics = (extra: string[]) => qualm(['bench', 'longmemeval', 'metrics', ...extra]);

describe('qualm exit status', () => {
  it('exits 2 when a package reports a missing input file', async () => {
    const result = await metrics(['--data', join(directory, 'missing.json'), '--run', runPath]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^qualm: [^\n]*missing\.json\n$/);
  });

  it('exits 2 when a package reports an input line that is not valid', async () => {
    const unlabelled = join(directory, 'unlabelled.jsonl');
    writeFileSync(unlabelled, '{"question_id":"u1","hypothesis":"x"}\n');
    const result = await metrics(['--data', dataPath, '--run', unlabelled]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^qualm: .*unlabelled\.jsonl:1: autoeval_label: [^\n]*\n$/);
  });

  it('creates the folder of --out when it does not exist, as every verb does', async () => {
    const out = join(directory, 'no-such-folder', 'metrics.md');
    const result = await metrics(['--data', dataPath, '--run', runPath, '--out', out]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`wrote ${out}\n`);
    expect(readFileSync(out, 'utf8')).toContain('overall');
  });

  it('exits 2 with one line naming the path when --out is a directory', async () => {
    const result = await metrics(['--data', dataPath, '--run', runPath, '--out', directory]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`qualm: --out ${directory} is a folder; give a file\n`);
  });

  // the superuser reads any file whatever its mode, so the refusal cannot happen under root
  it.skipIf(process.getuid?.() === 0)(
    'exits 2 with one line naming the path when the input cannot be read',
    async () => {
      const locked = join(directory, 'locked.txt');
      writeFileSync(locked, 'I cannot help with that request, sorry.');
      chmodSync(locked, 0o000);
      const result = await qualm(['validate', locked]);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`qualm: EACCES: permission denied, open '${locked}'\n`);
    },
  );
});
