import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const bin = fileURLToPath(new URL('../bin/qualm.js', import.meta.url));

async function qualm(args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args]);
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failure = error as { stdout: string; stderr: string; code: number };
    return { stdout: failure.stdout, stderr: failure.stderr, code: failure.code };
  }
}

describe('qualm program', () => {
  it('prints usage with --help and exits 0', async () => {
    const result = await qualm(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: qualm');
  });

  it('rejects an unknown verb with a non-zero exit and a hint', async () => {
    const result = await qualm(['no-such-verb']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/unknown command|too many arguments/);
  });
});
