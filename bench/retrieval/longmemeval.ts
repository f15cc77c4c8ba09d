// LongMemEval retrieval bench: quality of full-text retrieval variants on the two halves of the
// stable question split (settings are chosen on `tune`, `holdout` is reported beside), speed per
// question against a reference BM25 run as the official harness runs it, and the distribution of
// top scores for answerable and abstention questions.
// Run: pnpm bench:retrieval [path to longmemeval_s_cleaned.json.gz]
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, platform, release, totalmem } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
// the bench runs from the repository root, outside any workspace package, so it reads the
// packages' public entries by path
import {
  buildReaderPrompt,
  buildRetrievalCorpus,
  evaluateRetrieval,
  FlatBm25Index,
  formatHistory,
  isAbstentionQuestion,
  type LongMemEvalQuestion,
  longMemEvalFullTextOptions,
  o200kTokenizer,
  percentile,
  type QuestionRetrievalResult,
  questionSplit,
  type RetrievalCorpus,
  type RetrievalLevel,
  selectHistory,
  streamLongMemEval,
} from '../../packages/benchmark/src/index.js';
import { createChatClient } from '../../packages/judge/src/index.js';
import {
  Analyzer,
  FullTextIndex,
  type FullTextIndexOptions,
  type Retriever,
} from '../../packages/search-core/src/index.js';

const defaultPath = fileURLToPath(
  new URL('../../../shared/data/longmemeval/longmemeval_s_cleaned.json.gz', import.meta.url),
);
const dataPath = process.argv[2] ?? defaultPath;

interface Variant {
  name: string;
  level?: RetrievalLevel;
  create: (corpus: RetrievalCorpus) => Retriever;
}

// words of the questions' phrasing ("how many times did I mention…"), tried as extra stop words
const questionBoilerplateWords = [
  ...['remember', 'remind', 'mention', 'mentioned', 'told', 'tell', 'previous', 'previously'],
  ...['conversation', 'chat', 'earlier', 'last', 'ago', 'time', 'many', 'much', 'long'],
  ...['recently', 'recall', 'know', 'think', 'ever', 'said', 'say', 'talked', 'talk'],
  ...['discussed', 'currently', 'total', 'first'],
];
const plainAnalyzer = new Analyzer({ stopWords: false, stem: false });
const stopWordsOnly = new Analyzer({ stem: false });
const boilerplate = new Analyzer({ extraStopWords: questionBoilerplateWords });
const withAssistant =
  (weight: number, options: FullTextIndexOptions = {}): Variant['create'] =>
  (corpus) =>
    new FullTextIndex(corpus.documents, {
      ...options,
      fields: [
        { name: 'user', text: (document) => document.text },
        {
          name: 'assistant',
          weight,
          text: (document) => String(document.metadata?.assistantText ?? ''),
        },
      ],
    });

// a prior for recent sessions (haystacks are in time order): score + weight × position / count
const withRecency =
  (weight: number): Variant['create'] =>
  (corpus) => {
    const index = new FullTextIndex(corpus.documents, longMemEvalFullTextOptions());
    const positions = new Map(
      corpus.documents.map((document, position) => [document.id, position]),
    );
    return {
      search: async (query) =>
        index
          .searchSync(query, { limit: Number.POSITIVE_INFINITY })
          .map((hit) => ({
            ...hit,
            score: hit.score + (weight * positions.get(hit.id)!) / corpus.documents.length,
          }))
          .sort((left, right) => right.score - left.score),
    };
  };

interface Outcome {
  halves: Record<'tune' | 'holdout' | 'all', Record<string, number> & { n: number }>;
  results: QuestionRetrievalResult[];
  seconds: number;
}

async function measure(
  questions: readonly LongMemEvalQuestion[],
  variant: Variant,
  only?: 'tune' | 'holdout',
): Promise<Outcome> {
  const results: QuestionRetrievalResult[] = [];
  const started = performance.now();
  await evaluateRetrieval(questions, {
    level: variant.level ?? 'session',
    createRetriever: variant.create,
    cutoffs: [5],
    ...(only
      ? { filter: (question: LongMemEvalQuestion) => questionSplit(question.question_id) === only }
      : {}),
    onQuestion: (result) => results.push(result),
  });
  const seconds = (performance.now() - started) / 1000;
  const halves = { tune: { n: 0 }, holdout: { n: 0 }, all: { n: 0 } } as Outcome['halves'];
  for (const result of results) {
    for (const half of [halves[questionSplit(result.questionId)], halves.all]) {
      half.n += 1;
      for (const [name, value] of Object.entries(result.metrics)) {
        half[name] = (half[name] ?? 0) + value;
      }
    }
  }
  for (const half of Object.values(halves)) {
    for (const name of Object.keys(half))
      if (name !== 'n') half[name] = half[name]! / Math.max(1, half.n);
  }
  return { halves, results, seconds };
}

const format = (value: number | undefined) => (value === undefined ? '     -' : value.toFixed(4));

function row(name: string, outcome: Outcome): string {
  const cells = (['tune', 'holdout', 'all'] as const).flatMap((half) => {
    const metrics = outcome.halves[half];
    return metrics.n === 0
      ? ['     -', '     -', '     -']
      : [
          format(metrics['recall_any@5']),
          format(metrics['recall_all@5']),
          format(metrics['ndcg_any@5']),
        ];
  });
  const perQuestion = (outcome.seconds * 1000) / Math.max(1, outcome.results.length);
  return `| ${name} | ${cells.join(' | ')} | ${perQuestion.toFixed(1)} |`;
}

async function main(): Promise<void> {
  const cpu = cpus()[0]?.model ?? 'unknown cpu';
  console.log(
    `# LongMemEval retrieval bench\n\n${cpu} × ${cpus().length}, ${Math.round(totalmem() / 2 ** 30)} GiB, ` +
      `node ${process.version}, ${platform()} ${release()}\n`,
  );
  if (!existsSync(dataPath)) {
    console.log(
      `data not found: ${dataPath}\nPass the path of longmemeval_s_cleaned.json.gz; nothing measured.`,
    );
    return;
  }
  const loadStarted = performance.now();
  const questions: LongMemEvalQuestion[] = [];
  for await (const question of streamLongMemEval(dataPath)) questions.push(question);
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  console.log(
    `data: ${dataPath}: ${questions.length} questions loaded (streamed, validated) in ${loadSeconds.toFixed(2)} s\n`,
  );

  console.log(
    '## Session level, recall_any@5 / recall_all@5 / ndcg_any@5 on each half of the split\n',
  );
  console.log(
    'A change is kept when, on the tune half, it gains at least 3 questions (about 1.5 points, one\n' +
      'binomial standard error at this n) on recall_any@5 or recall_all@5 and loses none on the other.\n',
  );
  console.log(
    '| variant | tune any | tune all | tune ndcg | holdout any | holdout all | holdout ndcg | all any | all all | all ndcg | ms per question |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  const variants: Variant[] = [
    {
      name: 'reference: harness flat-bm25 (split on spaces, k1 1.5, b 0.75)',
      create: (corpus) => new FlatBm25Index(corpus.documents),
    },
    {
      name: 'BM25 k1 1.2 b 0.75, Unicode words, no stop words, no stemming',
      create: (corpus) => new FullTextIndex(corpus.documents, { analyzer: plainAnalyzer }),
    },
    {
      name: '+ English stop words',
      create: (corpus) => new FullTextIndex(corpus.documents, { analyzer: stopWordsOnly }),
    },
    {
      name: '+ Porter stemming: the default (library and CLI)',
      create: (corpus) => new FullTextIndex(corpus.documents, longMemEvalFullTextOptions()),
    },
    {
      name: 'default + assistant turns, BM25F weight 0.1 (--assistant-turns)',
      create: (corpus) =>
        new FullTextIndex(corpus.documents, longMemEvalFullTextOptions({ assistantTurns: true })),
    },
    {
      name: 'tried: default + question boilerplate words',
      create: (corpus) => new FullTextIndex(corpus.documents, { analyzer: boilerplate }),
    },
    { name: 'tried: default + recency prior 0.02', create: withRecency(0.02) },
    { name: 'tried: default + assistant turns, BM25F weight 1', create: withAssistant(1) },
  ];
  const outcomes = new Map<string, Outcome>();
  for (const variant of variants) {
    const outcome = await measure(questions, variant);
    outcomes.set(variant.name, outcome);
    console.log(row(variant.name, outcome));
  }

  console.log('\n## k1 and b, tuned on the tune half only (library default k1 1.2, b 0.75)\n');
  let best: { k1: number; b: number; score: number } = { k1: 1.2, b: 0.75, score: -1 };
  const grid: string[] = [];
  for (const k1 of [0.9, 1.2, 1.5, 2]) {
    for (const b of [0.5, 0.75, 0.9]) {
      const outcome = await measure(
        questions,
        {
          name: '',
          create: (corpus) => new FullTextIndex(corpus.documents, { k1, b }),
        },
        'tune',
      );
      const tune = outcome.halves.tune;
      // ndcg breaks ties between settings with the same recall
      const score = tune['recall_any@5']! + tune['recall_all@5']! + tune['ndcg_any@5']!;
      grid.push(
        `k1 ${k1} b ${b}: ${format(tune['recall_any@5'])} ${format(tune['recall_all@5'])} ${format(tune['ndcg_any@5'])}`,
      );
      if (score > best.score + 1e-9) best = { k1, b, score };
    }
  }
  console.log(grid.map((line) => `- ${line}`).join('\n'));
  const tuned = await measure(questions, {
    name: '',
    create: (corpus) => new FullTextIndex(corpus.documents, { k1: best.k1, b: best.b }),
  });
  console.log(
    `\nbest sum of the three on tune: k1 ${best.k1}, b ${best.b}; kept only if it passes the rule ` +
      'above against k1 1.2, b 0.75. Both halves:\n',
  );
  console.log(
    '| variant | tune any | tune all | tune ndcg | holdout any | holdout all | holdout ndcg | all any | all all | all ndcg | ms per question |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  console.log(row(`k1 ${best.k1}, b ${best.b}`, tuned));

  console.log('\n## Turn level (turn metrics)\n');
  console.log(
    '| variant | tune any | tune all | tune ndcg | holdout any | holdout all | holdout ndcg | all any | all all | all ndcg | ms per question |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const variant of [variants[0]!, variants[3]!]) {
    console.log(row(variant.name, await measure(questions, { ...variant, level: 'turn' })));
  }

  console.log('\n## Speed: index build + query per question, all scored questions\n');
  console.log(
    '| retriever | build p50 ms | build p90 ms | query p50 ms | build + query p50 ms | whole run s (load + all questions) | vs reference |',
  );
  console.log('|---|---|---|---|---|---|---|');
  const reference = outcomes.get(variants[0]!.name)!;
  for (const variant of [variants[0]!, variants[3]!, variants[4]!]) {
    const outcome = outcomes.get(variant.name)!;
    const builds = outcome.results.map((result) => result.buildMilliseconds);
    const queries = outcome.results.map((result) => result.queryMilliseconds);
    const totals = outcome.results.map(
      (result) => result.buildMilliseconds + result.queryMilliseconds,
    );
    console.log(
      `| ${variant.name} | ${percentile(builds, 0.5).toFixed(2)} | ${percentile(builds, 0.9).toFixed(2)} | ` +
        `${percentile(queries, 0.5).toFixed(2)} | ${percentile(totals, 0.5).toFixed(2)} | ` +
        `${(loadSeconds + outcome.seconds).toFixed(1)} | ${(
          percentile(totals, 0.5) /
            percentile(
              reference.results.map(
                (result) => result.buildMilliseconds + result.queryMilliseconds,
              ),
              0.5,
            )
        ).toFixed(2)}× |`,
    );
  }

  console.log(
    '\n## Another protocol: gold = answer_session_ids, every question (abstention included), recall_any@5\n',
  );
  for (const variant of [variants[0]!, variants[3]!]) {
    let found = 0;
    for (const question of questions) {
      const corpus = buildRetrievalCorpus(question, 'session');
      const top = (await variant.create(corpus).search(question.question, { limit: 5 })).slice(
        0,
        5,
      );
      const gold = new Set(question.answer_session_ids);
      if (top.some((hit) => gold.has(String(hit.document.metadata?.sessionId)))) found += 1;
    }
    console.log(
      `- ${variant.name}: ${(found / questions.length).toFixed(4)} over ${questions.length} questions`,
    );
  }

  console.log('\n## Top normalised score of the default full-text retriever, session level\n');
  const answerable: number[] = [];
  const abstention: number[] = [];
  for (const question of questions) {
    const corpus = buildRetrievalCorpus(question, 'session');
    const index = new FullTextIndex(corpus.documents, longMemEvalFullTextOptions());
    const top = index.searchSync(question.question, { limit: 1 })[0]?.score ?? 0;
    (isAbstentionQuestion(question.question_id) ? abstention : answerable).push(top);
  }
  console.log('| questions | n | p10 | p50 | p90 | share under 0.3 |');
  console.log('|---|---|---|---|---|---|');
  for (const [name, values] of [
    ['answerable', answerable],
    ['abstention (_abs)', abstention],
  ] as const) {
    const under = values.filter((value) => value < 0.3).length / Math.max(1, values.length);
    console.log(
      `| ${name} | ${values.length} | ${percentile(values, 0.1).toFixed(3)} | ${percentile(values, 0.5).toFixed(3)} | ` +
        `${percentile(values, 0.9).toFixed(3)} | ${under.toFixed(3)} |`,
    );
  }
}

await main();
await officialDefaults();

// what the reader is shown with run_generation.sh's defaults (top 50, gpt-4o's 128,000-token
// context less 800 and 1000), and the o200k_base tokenizer's speed beside tiktoken's own port
async function officialDefaults(): Promise<void> {
  if (!existsSync(dataPath)) return;
  const questions: LongMemEvalQuestion[] = [];
  for await (const question of streamLongMemEval(dataPath)) questions.push(question);
  console.log('\n## The reader under the official defaults (top 50, gpt-4o)\n');
  let matchedUnder50 = 0;
  let shownUnder50 = 0;
  let haystacksUnder50 = 0;
  for (const question of questions) {
    const corpus = buildRetrievalCorpus(question, 'session');
    if (corpus.documents.length < 50) haystacksUnder50 += 1;
    const index = new FullTextIndex(corpus.documents, longMemEvalFullTextOptions());
    const matched = index.searchSync(question.question, { limit: 50 }).length;
    if (matched < Math.min(50, corpus.documents.length)) matchedUnder50 += 1;
    const shown = await selectHistory(question, { source: 'retrieval' });
    if (shown.length < Math.min(50, corpus.documents.length)) shownUnder50 += 1;
  }
  console.log(
    `- session-level retrieval, full text: the retriever matches fewer than 50 sessions (or the whole haystack) for ` +
      `${matchedUnder50} of ${questions.length} questions; the reader is shown fewer for ${shownUnder50} ` +
      `(${haystacksUnder50} haystacks have fewer than 50 sessions)`,
  );
  const client = createChatClient({ model: 'gpt-4o', apiKey: 'unused' });
  const tokens: number[] = [];
  let truncated = 0;
  const started = performance.now();
  const counter = await o200kTokenizer();
  for (const question of questions) {
    const built = await buildReaderPrompt(question, {
      client,
      method: 'cot',
      history: { source: 'full' },
    });
    if (built.truncated) {
      truncated += 1;
      tokens.push(built.truncated.tokens);
    } else {
      const history = formatHistory(await selectHistory(question, { source: 'full' }));
      tokens.push(counter.fit(history, Number.POSITIVE_INFINITY).tokens);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `- full history (the latest 50 sessions), gpt-4o: history tokens p50 / p90 / max ` +
      `${percentile(tokens, 0.5)} / ${percentile(tokens, 0.9)} / ${Math.max(...tokens)} (o200k_base); ` +
      `cut to 126,200 for ${truncated} of ${questions.length} questions; ${seconds.toFixed(1)} s for all prompts`,
  );
  // the reference: js-tiktoken, a port of tiktoken's own algorithm, on the same histories
  const require = createRequire(new URL('../../packages/benchmark/package.json', import.meta.url));
  const { Tiktoken } = (await import(pathToFileURL(require.resolve('js-tiktoken/lite')).href)) as {
    Tiktoken: new (ranks: unknown) => { encode(text: string, allowed: string[]): number[] };
  };
  const ranks = (await import(pathToFileURL(require.resolve('js-tiktoken/ranks/o200k_base')).href))
    .default;
  const reference = new Tiktoken(ranks);
  const tokenizer = await o200kTokenizer();
  const sample = await Promise.all(
    questions
      .slice(0, 10)
      .map(async (question) => formatHistory(await selectHistory(question, { source: 'full' }))),
  );
  const bytes = sample.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
  const timed = (count: (text: string) => number) => {
    const runs: number[] = [];
    let total = 0;
    for (let round = 0; round < 3; round += 1) {
      const begin = performance.now();
      total = sample.reduce((sum, text) => sum + count(text), 0);
      runs.push(performance.now() - begin);
    }
    return { total, milliseconds: percentile(runs, 0.5) };
  };
  const ours = timed((text) => tokenizer.fit(text, Number.POSITIVE_INFINITY).tokens);
  const theirs = timed((text) => reference.encode(text, ['<|endoftext|>']).length);
  console.log(
    `- o200k_base on ${sample.length} histories (${(bytes / 2 ** 20).toFixed(1)} MiB), median of 3: gpt-tokenizer ` +
      `${ours.milliseconds.toFixed(0)} ms, js-tiktoken ${theirs.milliseconds.toFixed(0)} ms ` +
      `(${(theirs.milliseconds / ours.milliseconds).toFixed(1)} × slower); same token count: ${ours.total === theirs.total}`,
  );
}
