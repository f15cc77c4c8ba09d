import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ChatServer, startChatServer } from '@qualm/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { endpointEnvironment, qualmWithClosedOutput } from './qualm-process.js';

const template = fileURLToPath(
  new URL('../../../examples/judge/template.schema.json', import.meta.url),
);

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

let server: ChatServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
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

  it('judge stops calling the endpoint when the reader of its output goes away', async () => {
    // a judge that parses every response into the template, a little slowly, as endpoints do
    server = await startChatServer({
      latencyMs: 20,
      handler: () => ({ json: { city: 'Oslo', population_millions: 0.7 } }),
    });
    const items = join(directory, 'items.jsonl');
    const count = 200;
    writeFileSync(
      items,
      Array.from({ length: count }, (_, index) =>
        JSON.stringify({ id: `item-${index}`, question: 'Capital of Norway?', response: 'Oslo.' }),
      ).join('\n'),
    );
    for (const format of ['table', 'jsonl']) {
      server.clearRequests();
      const result = await qualmWithClosedOutput(
        [
          'judge',
          '--input',
          items,
          '--template',
          template,
          '--base-url',
          server.baseURL,
          '--concurrency',
          '2',
          '--format',
          format,
        ],
        1,
        endpointEnvironment('sk-closed-output-0123456789'),
      );
      expect(result.stdout.length).toBeGreaterThanOrEqual(1);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      // one item is one call: the run ended a few calls after the first result, not after all
      expect(server.chatRequests().length).toBeLessThan(count / 10);
    }
  });
});
