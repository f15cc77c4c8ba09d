import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ChatServer, type ChatServerHandler, startChatServer } from '@qualm/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const exampleFolder = fileURLToPath(new URL('../../../examples/ai-sdk/', import.meta.url));
let server: ChatServer;
let folder: string;

beforeAll(async () => {
  server = await startChatServer();
  folder = mkdtempSync(join(tmpdir(), 'qualm-example-'));
});

afterAll(async () => {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});

/**
 * Runs the example as its README says, `pnpm start …` in its folder, against the loopback server
 * (or `baseURL`): from a clone, with nothing built.
 */
function runExample(
  handler: ChatServerHandler,
  args: readonly string[],
  baseURL = server.baseURL,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  server.clearRequests();
  server.setHandler(handler);
  return new Promise((resolve, reject) => {
    const child = spawn('pnpm', ['-s', 'start', ...args], {
      cwd: exampleFolder,
      env: {
        ...process.env,
        OPENAI_BASE_URL: baseURL,
        OPENAI_API_KEY: 'test-key',
        MODEL: 'test-model',
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('the AI SDK example app over a real chat-completions endpoint', () => {
  it('streams the answer and says qualm trusts it', async () => {
    const run = await runExample(
      () => ({
        content: 'Use logrotate with a weekly rule and keep four compressed copies.',
        streamChunks: ['Use logrotate with a we', 'ekly rule and keep four compressed copies.'],
      }),
      ['How do I rotate a log file?'],
    );
    expect(run.stderr).toContain('qualm: trusted, score 1.00');
    expect(run.stdout).toBe('Use logrotate with a weekly rule and keep four compressed copies.\n');
    expect(run.status).toBe(0);
    expect(server.chatRequests()[0]?.body?.stream).toBe(true);
  });

  it('asks again after a refusal with --policy retry and prints only the new answer', async () => {
    const run = await runExample(
      (_body, context) =>
        context.requests.length === 1
          ? { content: "I'm sorry, but I can't help with that." }
          : { content: 'Run logrotate daily from cron; it renames and compresses old logs.' },
      ['--policy', 'retry', 'How do I rotate a log file?'],
    );
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('Run logrotate daily from cron; it renames and compresses old logs.\n');
    expect(run.stderr).toContain('qualm: trusted after retried');
    const retried = server.chatRequests()[1]?.body?.messages ?? [];
    expect(retried.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(String(retried[2]?.content)).toContain(
      'An automatic check flagged your previous answer',
    );
  });

  it('exits 1 with the reason when --policy throw meets a refusal', async () => {
    const run = await runExample(
      () => ({ content: "I'm sorry, but I can't help with that." }),
      ['--policy', 'throw', 'How do I rotate a log file?'],
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/qualm: the answer was flagged: escalate: refusal/);
  });

  it('checks the answer against the evidence files', async () => {
    const notes = join(folder, 'notes.txt');
    writeFileSync(
      notes,
      'The Berlin office lease ends in March; the landlord wants a reply by May.',
    );
    const run = await runExample(
      () => ({ content: 'The Lisbon office lease runs until the end of next year.' }),
      ['--evidence', notes, 'When does the Lisbon office lease end?'],
    );
    expect(run.status).toBe(0);
    expect(run.stderr).toContain('qualm: flagged');
    expect(run.stderr).toMatch(/qualm: evidence: abstain: the evidence never mentions/);
    const system = server.chatRequests()[0]?.body?.messages[0];
    expect(system).toMatchObject({ role: 'system' });
    expect(String(system?.content)).toContain('The Berlin office lease ends in March');
  });

  it('refuses an unknown --policy and a missing --evidence file in one line, exit 2', async () => {
    const policy = await runExample(() => ({ content: 'unused' }), ['--policy', 'shout', 'Hi?']);
    expect(policy.status).toBe(2);
    expect(policy.stderr).toBe(
      'answer.ts: --policy must be one of annotate, throw, retry, fallback, got "shout"\n',
    );
    const missing = join(folder, 'no-such-notes.txt');
    const evidence = await runExample(
      () => ({ content: 'unused' }),
      ['--evidence', missing, 'Hi?'],
    );
    expect(evidence.status).toBe(2);
    expect(evidence.stderr).toMatch(
      /^answer\.ts: cannot read --evidence .*no-such-notes\.txt: ENOENT/,
    );
    expect(evidence.stderr.trim().split('\n')).toHaveLength(1);
    expect(server.chatRequests()).toHaveLength(0);
  });

  it('says in one line that the endpoint cannot be reached, exit 1', async () => {
    const closed = await startChatServer();
    const baseURL = closed.baseURL;
    await closed.close();
    const run = await runExample(() => ({ content: 'unused' }), ['Hi?'], baseURL);
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^answer\.ts: .*Cannot connect to API/),
    ]);
  });
});
