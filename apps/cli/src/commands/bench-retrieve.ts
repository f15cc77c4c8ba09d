import { rmSync } from 'node:fs';
import {
  BenchmarkError,
  BenchmarkErrorCode,
  type LongMemEvalRetrievalRun,
  needsEmbedder,
  partialRetrievalLogPath,
  type RetrievalLevel,
  type RetrievalMetrics,
  type RetrieverKind,
  retrievalCutoffs,
  retrieverKinds,
  runLongMemEvalRetrieval,
} from '@qualm/benchmark';
import { DEFAULT_EMBEDDING_MODEL_ID, type Embedder, loadEmbedder } from '@qualm/search-core';
import { type Command, Option } from 'commander';
import { addRenamedModelOption } from '../chat-client-options.js';
import { INTERRUPTED_EXIT_STATUS } from '../errors.js';
import { interruptSignal, onForcedExit } from '../interrupt.js';
import { formatTable, parseNumberOption, prepareOutputFile, rejectUselessFlags } from '../io.js';
import { explainMissingModel } from '../model-errors.js';
import { Progress } from '../progress.js';
import { longmemevalCommand } from './longmemeval-group.js';

interface RetrieveOptions {
  data: string;
  level: RetrievalLevel;
  retriever: RetrieverKind;
  assistantTurns?: boolean;
  split: 'all' | 'tune' | 'holdout';
  embeddingModel: string;
  modelsDir?: string;
  hybridWeight: string;
  log?: string;
  format: 'table' | 'json';
}

const example = `
Builds one index per question over its haystack, queries it with the question and scores the
ranking as the official LongMemEval harness does. Abstention questions and questions whose evidence
is in no user turn are left out and counted.

  --retriever fulltext   qualm's BM25 (stop words, stemming): the default
  --retriever flat-bm25  the harness's flat-bm25 (rank_bm25 BM25Okapi over space-split tokens), to
                         reproduce published BM25 baselines

--level session (the default, as run_retrieval.py's) ranks whole sessions; --level turn ranks user
turns and also scores that ranking by session.

--log FILE writes the harness's retrieval log: one JSON line per question (abstention questions
included) with the question, every corpus item ranked (corpus_id, text, timestamp) and its metrics,
byte for byte as run_retrieval.py writes it; print_retrieval_metrics.py reads it, and so do
run_generation.py and "generate --retrieval-log". The path is checked before any work (its folder
is created); the lines go to FILE.partial until the run ends. Ctrl-C removes FILE.partial and
says so: a retrieval run does not resume, the same command starts it again.

Exit status: 0; 2 on bad input (a file without a question to score: empty, or abstention
questions only) or set-up; 130 when interrupted.

Example:
  qualm bench longmemeval retrieve --data longmemeval_s_cleaned.json.gz --level session
  qualm bench longmemeval retrieve --data longmemeval_s_cleaned.json.gz --level turn --format json
  qualm bench longmemeval retrieve --data longmemeval_s_cleaned.json.gz --level session \\
    --retriever flat-bm25 --log s_session.retrievallog

The dense and hybrid retrievers load a transformers.js embedding model (--embedding-model) from
--models-dir or $QUALM_MODELS_DIR.`;

/** Registers `qualm bench longmemeval retrieve`. */
export function registerBenchRetrieve(program: Command): void {
  const command = longmemevalCommand(program)
    .command('retrieve')
    .description('Score a retriever on LongMemEval: recall_any, recall_all and ndcg_any at k.')
    .requiredOption('--data <file>', 'LongMemEval file (oracle, S or M; plain or .gz)')
    .addOption(
      new Option('--level <level>', 'index sessions or user turns')
        .choices(['session', 'turn'])
        .default('session'),
    )
    .addOption(
      new Option('--retriever <kind>', 'retriever to score')
        .choices([...retrieverKinds])
        .default('fulltext'),
    )
    .option('--assistant-turns', 'also index the assistant side, as a BM25F field of weight 0.1')
    .addOption(
      new Option('--split <half>', 'score every question or one half of the stable id split')
        .choices(['all', 'tune', 'holdout'])
        .default('all'),
    )
    .option(
      '--embedding-model <id>',
      'embedding model of the dense and hybrid retrievers',
      DEFAULT_EMBEDDING_MODEL_ID,
    )
    .option('--models-dir <dir>', 'folder holding models as <dir>/<org>/<name>/')
    .option('--hybrid-weight <weight>', 'weight of the full-text side of the hybrid, 0 to 1', '0.5')
    .option('--log <file>', "write the harness's retrieval log (JSON Lines) to this file")
    .addOption(
      new Option('--format <format>', 'output format').choices(['table', 'json']).default('table'),
    )
    .addHelpText('after', example);
  addRenamedModelOption(command, '--embedding-model').action(
    async (options: RetrieveOptions, command: Command) => {
      const embedded = options.retriever !== 'fulltext';
      rejectUselessFlags(command, [
        {
          option: 'hybridWeight',
          flag: '--hybrid-weight',
          applies: options.retriever === 'hybrid',
          because: `with --retriever ${options.retriever}`,
        },
        {
          option: 'embeddingModel',
          flag: '--embedding-model',
          applies: embedded,
          because: 'with --retriever fulltext',
        },
        {
          option: 'modelsDir',
          flag: '--models-dir',
          applies: embedded,
          because: 'with --retriever fulltext',
        },
      ]);
      const hybridWeight = parseNumberOption('--hybrid-weight', options.hybridWeight, {
        min: 0,
        max: 1,
      });
      if (options.log !== undefined) prepareOutputFile(options.log, '--log');
      let embedder: Embedder | undefined;
      if (needsEmbedder(options.retriever)) {
        embedder = await loadEmbedder({
          modelId: options.embeddingModel,
          ...(options.modelsDir ? { modelsDir: options.modelsDir } : {}),
        }).catch((error: unknown) => {
          throw explainMissingModel(error, '--retriever fulltext, which needs no model');
        });
      }
      const progress = new Progress('retrieve', undefined);
      const partialLog = options.log ? partialRetrievalLogPath(options.log) : undefined;
      // a second Ctrl-C quits at once: the unfinished log goes with it
      const forget = onForcedExit(() => {
        if (partialLog) rmSync(partialLog, { force: true });
      });
      let run: LongMemEvalRetrievalRun;
      try {
        run = await runLongMemEvalRetrieval({
          path: options.data,
          level: options.level,
          retriever: options.retriever,
          assistantTurns: options.assistantTurns ?? false,
          split: options.split,
          hybridWeight,
          ...(embedder ? { embedder } : {}),
          ...(options.log ? { logPath: options.log } : {}),
          signal: interruptSignal(),
          onQuestion: () => progress.tick(),
        });
      } catch (error) {
        if (!(BenchmarkError.isInstance(error) && error.code === BenchmarkErrorCode.ABORTED)) {
          throw error;
        }
        progress.finish();
        const log = partialLog ? `; ${partialLog} was removed` : '';
        process.stderr.write(
          `qualm: interrupted after ${progress.count} scored question(s): no metrics were printed${log}. A retrieval run does not resume: run the same command again to start over\n`,
        );
        process.exitCode = INTERRUPTED_EXIT_STATUS;
        return;
      } finally {
        forget();
      }
      progress.finish();
      process.stdout.write(
        options.format === 'json' ? `${JSON.stringify(toJson(run))}\n` : `${toTable(run)}\n`,
      );
    },
  );
}

function toJson(run: LongMemEvalRetrievalRun) {
  return {
    level: run.level,
    retriever: run.retriever,
    n: run.n,
    metrics: run.metrics,
    ...(run.sessionMetrics ? { sessionMetrics: run.sessionMetrics } : {}),
    excluded: run.excluded,
    split: run.split,
    assistantTurns: run.assistantTurns,
    byType: run.byType,
    seconds: Number(run.seconds.toFixed(3)),
    ...(run.log ? { log: run.log } : {}),
  };
}

function metricRows(metrics: RetrievalMetrics): string[][] {
  return retrievalCutoffs.map((k) => [
    String(k),
    (metrics[`recall_any@${k}`] ?? 0).toFixed(4),
    (metrics[`recall_all@${k}`] ?? 0).toFixed(4),
    (metrics[`ndcg_any@${k}`] ?? 0).toFixed(4),
  ]);
}

function toTable(run: LongMemEvalRetrievalRun): string {
  const columns = [
    { header: 'k', align: 'right' as const },
    { header: 'recall_any', align: 'right' as const },
    { header: 'recall_all', align: 'right' as const },
    { header: 'ndcg_any', align: 'right' as const },
  ];
  const lines = [
    `LongMemEval retrieval: ${run.level} level, ${run.retriever}${run.assistantTurns ? ' with assistant turns' : ''}, ${run.n} questions` +
      `${run.split === 'all' ? '' : ` (${run.split} half)`}; left out: ${run.excluded.abstention} abstention, ` +
      `${run.excluded.noUserEvidence} without user evidence; ${run.seconds.toFixed(1)} s`,
    '',
    formatTable(columns, metricRows(run.metrics)),
  ];
  if (run.sessionMetrics) {
    lines.push('', 'The turn ranking scored at session level:', '');
    lines.push(formatTable(columns, metricRows(run.sessionMetrics)));
  }
  if (run.log) lines.push('', `retrieval log: ${run.log.path} (${run.log.lines} questions)`);
  return lines.join('\n');
}
