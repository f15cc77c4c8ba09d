import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const examples = fileURLToPath(new URL('../../../examples/', import.meta.url));

// runs a command line in a folder the way a user types it, through the shell
function shell(
  command: string,
  cwd: string,
): Promise<{ stdout: string; stderr: string; code: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { cwd, env: { ...process.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ stdout, stderr, code: code ?? -1 }));
  });
}

describe('pnpm -s qualm, as the README runs it', () => {
  it('prints only the command output on stdout, fit for jq, with paths from the folder it is typed in', async () => {
    const result = await shell(
      'pnpm -s qualm validate responses.jsonl --jsonl --format json --summary',
      examples,
    );
    expect(result.code).toBe(0);
    const document = JSON.parse(result.stdout) as { summary: { total: number } };
    expect(document.summary.total).toBe(32);
  });

  it('reports a missing file by the path the user gave, with exit status 2', async () => {
    const result = await shell('pnpm -s qualm validate no-such-file.jsonl --jsonl', examples);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('qualm: file not found: no-such-file.jsonl\n');
  });

  it('runs from outside the clone with --dir, with paths from the folder it is typed in', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'qualm-outside-'));
    try {
      copyFileSync(join(examples, 'responses.jsonl'), join(folder, 'answers.jsonl'));
      const result = await shell(
        `pnpm -s --dir '${root}' qualm validate answers.jsonl --jsonl --format json --summary`,
        folder,
      );
      expect(result.code, result.stderr).toBe(0);
      const document = JSON.parse(result.stdout) as { summary: { total: number } };
      expect(document.summary.total).toBe(32);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('runs from the root of the clone too', async () => {
    const result = await shell('pnpm -s qualm --version', root);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^qualm \d+\.\d+\.\d+/);
  });
});

describe("the README's commands for logs past one machine", () => {
  it('run as written in a folder of the clone: shard, validate a shard, sum the results', async () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const block = /### Large logs[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block, 'the sharding block of the README').toBeDefined();
    // inside the clone, as a user's folder would be
    const folder = mkdtempSync(join(root, 'node_modules', '.readme-shards-'));
    try {
      copyFileSync(join(examples, 'responses.jsonl'), join(folder, 'answers.jsonl'));
      const result = await shell(`set -e\n${block}`, folder);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/^results-07\.jsonl: 2 results\n\nresponses: 2\n/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
