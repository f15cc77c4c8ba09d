import { FullTextIndex } from '@qualm/search-core';
import { describe, expect, it } from 'vitest';
import {
  buildRetrievalCorpus,
  evaluateRetrieval,
  type QuestionRetrievalResult,
  questionSplit,
} from '../src/index.js';
import { assistant, makeQuestion, user } from './longmemeval-records.js';

const answerable = makeQuestion(
  'q1',
  [
    ['filler', [user('What is a good pasta recipe?'), assistant('Try carbonara.')]],
    [
      'answer_x',
      [
        user('I just adopted a beagle puppy named Rex', true),
        assistant('How lovely, beagles are great.'),
        user('Any tips for puppy training?', false),
      ],
    ],
    ['answer_y', [user('Can you recommend a vet?', false), assistant('Rex should see Dr. Lee.')]],
    ['filler', [user('Plan a trip to Lisbon'), assistant('Day one: Alfama.')]],
  ],
  { question: 'What did I call my beagle puppy?' },
);
const abstention = makeQuestion('q2_abs', [['answer_z', [user('I like tea', true)]]]);
const assistantOnly = makeQuestion('q3', [
  ['answer_w', [user('Suggest a book', false), assistant('Read Dune.')]],
  ['filler_2', [user('Hello')]],
]);

describe('the retrieval corpus of a question', () => {
  it('indexes sessions by their user turns and renames evidence sessions without user evidence', () => {
    const corpus = buildRetrievalCorpus(answerable, 'session');
    expect(corpus.corpusIds).toEqual(['filler', 'answer_x', 'noans_y', 'filler']);
    expect(corpus.documents.map((document) => document.id)).toEqual([
      'filler',
      'answer_x',
      'noans_y',
      'filler#2',
    ]);
    expect(corpus.documents[1]?.text).toBe(
      'I just adopted a beagle puppy named Rex Any tips for puppy training?',
    );
    expect(corpus.documents[2]?.metadata.assistantText).toBe('Rex should see Dr. Lee.');
    expect(corpus.goldIds).toEqual(['answer_x']);
  });

  it('indexes user turns with ids counted over all turns and renames turns without evidence', () => {
    const corpus = buildRetrievalCorpus(answerable, 'turn');
    expect(corpus.corpusIds).toEqual([
      'filler_1',
      'answer_x_1',
      'noans_x_3',
      'noans_y_1',
      'filler_1',
    ]);
    expect(corpus.documents[1]).toMatchObject({
      text: 'I just adopted a beagle puppy named Rex',
      metadata: { sessionId: 'answer_x', turn: 1, assistantText: 'How lovely, beagles are great.' },
    });
    expect(corpus.goldIds).toEqual(['answer_x_1']);
  });
});

describe('the retrieval evaluation', () => {
  // a retriever that ranks documents in reverse corpus order, whatever the query
  const reversed = (corpus: ReturnType<typeof buildRetrievalCorpus>) => ({
    search: async () =>
      [...corpus.documents]
        .reverse()
        .map((document) => ({ id: document.id, score: 0.5, rawScore: 1, document })),
  });

  it('leaves out abstention questions and questions without user evidence, and counts them', async () => {
    const evaluation = await evaluateRetrieval([answerable, abstention, assistantOnly], {
      level: 'session',
      createRetriever: reversed,
    });
    expect(evaluation.n).toBe(1);
    expect(evaluation.excluded).toEqual({ abstention: 1, noUserEvidence: 1, filtered: 0 });
  });

  it('averages the harness metrics at every cutoff', async () => {
    // reversed: filler#2, noans_y, answer_x, filler → answer_x third; dcg 1 / log2(3), ideal 1
    const evaluation = await evaluateRetrieval([answerable], {
      level: 'session',
      createRetriever: reversed,
    });
    expect(evaluation.metrics['recall_any@1']).toBe(0);
    expect(evaluation.metrics['recall_any@3']).toBe(1);
    expect(evaluation.metrics['recall_all@3']).toBe(1);
    expect(evaluation.metrics['ndcg_any@3']).toBeCloseTo(1 / Math.log2(3), 12);
    expect(Object.keys(evaluation.metrics)).toHaveLength(18);
    expect(evaluation.byType['single-session-user']?.n).toBe(1);
  });

  it('finds the evidence session with the full-text retriever', async () => {
    const results: QuestionRetrievalResult[] = [];
    const evaluation = await evaluateRetrieval([answerable], {
      level: 'session',
      createRetriever: (corpus) => new FullTextIndex(corpus.documents),
      onQuestion: (result) => results.push(result),
    });
    expect(evaluation.metrics['recall_any@1']).toBe(1);
    expect(results[0]?.topIds[0]).toBe('answer_x');
    expect(results[0]?.topScore).toBeGreaterThan(0);
  });

  it('reports turn metrics and the same ranking scored by session at turn level', async () => {
    const evaluation = await evaluateRetrieval([answerable], {
      level: 'turn',
      createRetriever: (corpus) => new FullTextIndex(corpus.documents),
    });
    expect(evaluation.metrics['recall_any@1']).toBe(1);
    expect(evaluation.sessionMetrics?.['recall_any@1']).toBe(1);
  });

  it('keeps only the questions a filter accepts', async () => {
    const evaluation = await evaluateRetrieval([answerable, abstention], {
      level: 'session',
      createRetriever: reversed,
      filter: (question) => questionSplit(question.question_id) === questionSplit('q1'),
      cutoffs: [1, 2],
    });
    expect(evaluation.excluded.filtered + evaluation.excluded.abstention + evaluation.n).toBe(2);
    expect(Object.keys(evaluation.metrics)).toEqual([
      'recall_any@1',
      'recall_all@1',
      'ndcg_any@1',
      'recall_any@2',
      'recall_all@2',
      'ndcg_any@2',
    ]);
  });
});

describe('the question split', () => {
  it('is stable and puts about half of the ids in each half', () => {
    const ids = Array.from({ length: 1000 }, (_, index) => `question-${index}`);
    const tune = ids.filter((id) => questionSplit(id) === 'tune').length;
    expect(tune).toBeGreaterThan(450);
    expect(tune).toBeLessThan(550);
    expect(ids.map(questionSplit)).toEqual(ids.map(questionSplit));
  });
});
