import { describe, expect, it } from 'vitest';
import { qualm } from './qualm-process.js';

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
