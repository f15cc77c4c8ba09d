import { join } from 'node:path';
import { defaultAnalyzer, type Embedder } from '@qualm/search-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  buildRetrievalCorpus,
  createLongMemEvalRetriever,
  questionSplit,
  runLongMemEvalRetrieval,
} from '../src/index.js';
import {
  assistant,
  makeQuestion,
  temporaryFolder,
  user,
  writeData,
} from './longmemeval-records.js';

// a deterministic embedder: each analysed word adds 1 to a hashed coordinate
const hashedEmbedder: Embedder = {
  embed: async (texts) =>
    texts.map((text) => {
      const vector = new Float32Array(32);
      for (const term of defaultAnalyzer.analyze(text)) {
        let hash = 0;
        for (const character of term) hash = (hash * 33 + character.charCodeAt(0)) >>> 0;
        vector[hash % 32]! += 1;
      }
      return vector;
    }),
};

const questions = [
  makeQuestion(
    'q1',
    [
      ['filler_1', [user('Give me a pasta recipe'), assistant('Carbonara: eggs, guanciale.')]],
      [
        'answer_1',
        [user('My sister Maya moved to Porto last spring', true), assistant('Porto is lovely.')],
      ],
      ['filler_2', [user('How do I fix a flat bicycle tyre?'), assistant('Patch the tube.')]],
    ],
    { question: 'Which city did my sister Maya move to?' },
  ),
  makeQuestion(
    'q2',
    [
      ['answer_2', [user('I bought a Fender guitar for my birthday', true), assistant('Nice.')]],
      ['filler_3', [user('Explain photosynthesis'), assistant('Plants turn light into sugar.')]],
    ],
    { question: 'What guitar brand did I buy?' },
  ),
  makeQuestion('q3_abs', [['filler_4', [user('Hi')]]]),
];

let folder: { path: string; remove: () => Promise<void> };
beforeEach(async () => {
  folder = await temporaryFolder();
});
afterEach(async () => {
  await folder.remove();
});

describe('the LongMemEval retrieval run', () => {
  it('scores the full-text retriever on a data file', async () => {
    const path = await writeData(join(folder.path, 'data.json.gz'), JSON.stringify(questions));
    const run = await runLongMemEvalRetrieval({ path, level: 'session', retriever: 'fulltext' });
    expect(run).toMatchObject({ level: 'session', retriever: 'fulltext', n: 2, split: 'all' });
    expect(run.excluded.abstention).toBe(1);
    expect(run.metrics['recall_any@1']).toBe(1);
    expect(run.metrics['ndcg_any@50']).toBe(1);
    expect(run.seconds).toBeGreaterThan(0);
  });

  it('scores one half of the split when asked', async () => {
    const path = await writeData(join(folder.path, 'data.json'), JSON.stringify(questions));
    const half = questionSplit('q1');
    const run = await runLongMemEvalRetrieval({
      path,
      level: 'turn',
      retriever: 'fulltext',
      split: half,
    });
    const expected = ['q1', 'q2'].filter((id) => questionSplit(id) === half).length;
    expect(run.n).toBe(expected);
    expect(run.split).toBe(half);
  });

  it('runs the dense and hybrid retrievers through an embedder', async () => {
    const path = await writeData(join(folder.path, 'data.json'), JSON.stringify(questions));
    for (const retriever of ['dense', 'hybrid'] as const) {
      const run = await runLongMemEvalRetrieval({
        path,
        level: 'session',
        retriever,
        embedder: hashedEmbedder,
      });
      expect(run.n).toBe(2);
      expect(run.metrics['recall_any@3']).toBe(1);
    }
  });

  it('asks for an embedding model for the dense retriever', async () => {
    const path = await writeData(join(folder.path, 'data.json'), JSON.stringify(questions));
    await expect(
      runLongMemEvalRetrieval({ path, level: 'session', retriever: 'dense' }),
    ).rejects.toMatchObject({
      name: 'BenchmarkError',
      message: 'the dense retriever needs an embedding model',
    });
  });

  it('indexes the assistant side when asked, so a fact said only by the assistant is found', async () => {
    const question = makeQuestion(
      'q4',
      [
        [
          'answer_5',
          [user('Which vet should I see?', true), assistant('See Dr. Okafor at Elm Street.')],
        ],
        ['filler_5', [user('Best vet clinics near Elm Park?'), assistant('Several.')]],
      ],
      { question: 'What was the name of the vet, Dr. Okafor?' },
    );
    const corpus = buildRetrievalCorpus(question, 'session');
    const plain = await createLongMemEvalRetriever('fulltext', corpus);
    const withAssistant = await createLongMemEvalRetriever('fulltext', corpus, {
      assistantTurns: true,
    });
    const query = 'Okafor';
    expect(await plain.search(query)).toEqual([]);
    expect((await withAssistant.search(query))[0]?.id).toBe('answer_5');
  });
});
