import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qualmWithClosedOutput } from './qualm-process.js';

let directory: string;
let input: string;

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'qualm-closed-output-'));
  input = join(directory, 'big.jsonl');
  const line = (id: number) =>
    JSON.stringify({ id, response: 'I think the answer may be Paris, but I am not sure at all.' });
  writeFileSync(input, `${Array.from({ length: 20_000 }, (_, id) => line(id)).join('\n')}\n`);
});

afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

const environment = {};

describe('qualm output read by a reader that stops early', () => {
  it('stops quietly with status 0 when the reader of a long JSON Lines output goes away', async () => {
    const result = await qualmWithClosedOutput(
      ['validate', input, '--jsonl', '--format', 'jsonl'],
      1_000,
      environment,
    );
    expect(result.stdout.length).toBeGreaterThanOrEqual(1_000);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('stops quietly with status 0 when the output is closed before any verb writes', async () => {
    const result = await qualmWithClosedOutput(['--help'], 0, environment);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });
});
