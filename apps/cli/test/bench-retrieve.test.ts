import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { writeTinyFeatureExtractor } from '@qualm/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qualm } from './qualm-process.js';

const session = (id: string, text: string, hasAnswer = false) => [
  { role: 'user', content: text, ...(id.includes('answer') ? { has_answer: hasAnswer } : {}) },
  { role: 'assistant', content: 'Noted.' },
];

const question = (id: string, text: string, sessions: [string, string, boolean?][]) => ({
  question_id: id,
  question_type: 'single-session-user',
  question: text,
  answer: 'x',
  question_date: '2023/05/30 (Tue) 23:40',
  haystack_dates: sessions.map(() => '2023/05/20 (Sat) 02:21'),
  haystack_session_ids: sessions.map(([sessionId]) => sessionId),
  haystack_sessions: sessions.map(([sessionId, content, hasAnswer]) =>
    session(sessionId, content, hasAnswer),
  ),
  answer_session_ids: sessions
    .map(([sessionId]) => sessionId)
    .filter((sessionId) => sessionId.includes('answer')),
});

const data = [
  question('q1', 'Which city did my sister move to?', [
    ['filler_1', 'Give me a pasta recipe'],
    ['answer_1', 'My sister moved to Porto', true],
  ]),
  question('q2', 'What guitar did I buy?', [
    ['answer_2', 'I bought a Fender guitar', true],
    ['filler_2', 'Explain photosynthesis'],
  ]),
  question('q3_abs', 'What is my cat called?', [['filler_3', 'Hello there']]),
];

// the arguments of qualm bench longmemeval retrieve on a data file at a level, then other flags
function retrieve(dataFile: string, level: string, ...flags: string[]): string[] {
  return ['bench', 'longmemeval', 'retrieve', '--data', dataFile, '--level', level, ...flags];
}

let folder: string;
let dataPath: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'qualm-cli-retrieve-'));
  dataPath = join(folder, 'data.json.gz');
  await writeFile(dataPath, gzipSync(JSON.stringify(data)));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('qualm bench longmemeval retrieve', () => {
  it('explains itself with an example under --help', async () => {
    const result = await qualm(['bench', 'longmemeval', 'retrieve', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--level <level>');
    expect(result.stdout).toContain('Example:');
  });

  it('prints one JSON object with every metric at every cutoff', async () => {
    const result = await qualm(retrieve(dataPath, 'session', '--format', 'json'));
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout);
    expect(output).toMatchObject({ level: 'session', retriever: 'fulltext', n: 2 });
    expect(output.excluded.abstention).toBe(1);
    for (const k of [1, 3, 5, 10, 30, 50]) {
      for (const metric of ['recall_any', 'recall_all', 'ndcg_any']) {
        expect(output.metrics[`${metric}@${k}`]).toBeTypeOf('number');
      }
    }
    expect(output.metrics['recall_any@1']).toBe(1);
  });

  it('prints a table, with the session-level view of a turn ranking', async () => {
    const result = await qualm(retrieve(dataPath, 'turn'));
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/turn level, fulltext, 2 questions/);
    expect(result.stdout).toMatch(/recall_any\s+recall_all\s+ndcg_any/);
    expect(result.stdout).toContain('scored at session level');
  });

  it('shows progress on stderr when asked, keeping stdout clean', async () => {
    const result = await qualm([
      '--progress',
      ...retrieve(dataPath, 'session', '--format', 'json'),
    ]);
    expect(result.stderr).toContain('retrieve');
    expect(() => JSON.parse(result.stdout)).not.toThrow();
  });

  it('fails with one clear line for a missing data file', async () => {
    const missing = join(folder, 'missing.json');
    const result = await qualm(retrieve(missing, 'session'));
    expect(result.code).not.toBe(0);
    expect(result.stderr).toBe(`qualm: file not found: ${missing}\n`);
  });

  it('fails with one clear line naming the record of a corrupt data file', async () => {
    const corrupt = join(folder, 'corrupt.json');
    await writeFile(corrupt, JSON.stringify(data).slice(0, 400));
    const result = await qualm(retrieve(corrupt, 'session'));
    expect(result.code).not.toBe(0);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^qualm: .*corrupt\.json: the file ends inside record \d/);
  });

  it('scores the dense and hybrid retrievers with a local embedding model', async () => {
    const models = join(folder, 'models');
    const model = await writeTinyFeatureExtractor(models);
    for (const retriever of ['dense', 'hybrid']) {
      const result = await qualm(
        retrieve(
          dataPath,
          'session',
          '--retriever',
          retriever,
          '--embedding-model',
          model.modelId,
          '--models-dir',
          models,
          '--format',
          'json',
        ),
      );
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const output = JSON.parse(result.stdout);
      expect(output).toMatchObject({ retriever, n: 2 });
      // two sessions per question: every gold session is in the top 3, whatever the weights
      expect(output.metrics['recall_all@3']).toBe(1);
    }
  });

  it('fails with one clear line when the embedding model is missing', async () => {
    const result = await qualm(
      retrieve(
        dataPath,
        'session',
        '--retriever',
        'dense',
        '--embedding-model',
        'nobody/nothing',
        '--models-dir',
        folder,
      ),
    );
    expect(result.code).not.toBe(0);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^qualm: .*nobody\/nothing/);
  });

  it('rejects an unknown level', async () => {
    const result = await qualm(retrieve(dataPath, 'page'));
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('Allowed choices are session, turn');
  });
});
