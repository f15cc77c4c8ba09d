import {
  DEFAULT_HISTORY_TOP_K,
  type HistoryFormat,
  type HistorySource,
  type HistoryTokenizer,
  historyFormats,
  historySources,
  loadHistoryTokenizer,
  needsEmbedder,
  type ReaderRun,
  type ReadingMethod,
  type RetrievalLevel,
  type RetrieverKind,
  readingMethods,
  retrieverKinds,
  runReader,
} from '@qualm/benchmark';
import { createChatClient } from '@qualm/judge';
import { DEFAULT_EMBEDDING_MODEL_ID, type Embedder, loadEmbedder } from '@qualm/search-core';
import { type Command, Option } from 'commander';
import {
  addBaseUrlOption,
  addRenamedModelOption,
  addRequestOptions,
  type ChatClientFlags,
  readChatClientFlags,
  requireApiKey,
} from '../chat-client-options.js';
import {
  addDetectorOptions,
  createDetector,
  type DetectorFlags,
  detectorFlagRules,
} from '../detector-options.js';
import { CliError, CliErrorCode } from '../errors.js';
import { interruptSignal } from '../interrupt.js';
import {
  formatIdList,
  formatTable,
  parseNumberOption,
  prepareOutputFile,
  rejectUselessFlags,
  requireModelName,
} from '../io.js';
import { explainMissingModel } from '../model-errors.js';
import { Progress } from '../progress.js';
import { failureLine, formatUsage, interruptedLine } from '../run-summary.js';
import { longmemevalCommand } from './longmemeval-group.js';

interface GenerateFlags extends DetectorFlags, ChatClientFlags {
  data?: string;
  out: string;
  readerModel: string;
  reading: ReadingMethod;
  history: HistorySource;
  level: RetrievalLevel;
  topK?: string;
  historyFormat: HistoryFormat;
  retriever: RetrieverKind;
  embeddingModel: string;
  assistantTurns?: boolean;
  userOnly?: boolean;
  cleanTurns?: boolean;
  retrievalLog?: string;
  contextLimit?: string;
  tokenizer?: string;
  ids?: string[];
  limit?: string;
  maxTokens?: string;
  abstention?: boolean;
  format: 'table' | 'json';
}

const example = `
Answers LongMemEval questions through any OpenAI-compatible endpoint exactly as the official
harness does (run_generation.py with run_generation.sh's defaults): the history sorted by date as
"### Session i:" blocks with the session date and the JSON of its turns, then "Current Date:" and
the question; one user message, temperature 0, n 1, max_tokens 800 (what the harness sends for
every reading method).

  --history full       the latest --top-k sessions (or turns with --level turn); 50 by default
  --history oracle     the evidence sessions (answer_session_ids), the first --top-k
  --history retrieval  the --top-k best sessions or turns (--level turn) for the question; every
                       item is ranked, so the reader sees k whenever the haystack has them; a
                       retrieved turn comes with the reply after it. --retrieval-log FILE takes
                       the rankings of a retrieval log instead (qualm's, or run_retrieval.py's)
  --reading direct     answer at once (the harness's "direct")
  --reading cot        answer step by step in one call (what run_generation.sh calls "con")
  --reading con        chain-of-note: a reading note per chunk first, then the step-by-step
                       answer over the notes (run_generation.sh's "con-separate")

has_answer is removed from sessions and retrieved rounds; a turn shown alone (--level turn with
full or oracle history) keeps it, as the harness leaves it (--clean-turns removes it there too, and
is refused anywhere else). --history none refuses every flag about the history.
A history longer than the model's context less 800 and 1000 tokens is cut to that many tokens, as
the harness cuts it: o200k_base counts for GPT-4/3.5 models; other models need their own tokenizer
(--tokenizer DIR, or <--models-dir>/<model>/tokenizer.json) once a history may be that long. The
context length comes from the harness's table (gpt-4o, gpt-4o-mini-2024-07-18,
meta-llama/Meta-Llama-3.1-8B-Instruct, ...); any other model needs --context-limit.

Writes {question_id, hypothesis} lines (with --abstention also abstained, abstentionReason and
originalAnswer) and each line's token usage. Lines are appended as answers finish, so their order
may differ from the data's; a rerun with the same --out answers only what is missing. The API key
is read from OPENAI_API_KEY (any non-empty value for a local server that needs none); the endpoint
from --base-url, else OPENAI_BASE_URL, else OpenAI.

Nothing listening at the endpoint, an unknown host or a rejected key stops the run before the
first question (exit 2). A question the endpoint failed on during the run (a dropped connection,
rate-limited, timing out, a broken reply) is not written: the run exits 1 and a rerun answers it.
Ctrl-C cancels the calls under way and says how many answers were written; the same command
continues. Exit status: 0, 1 when questions were left out, 2 on bad input or set-up, 130 when
interrupted.

Examples:
  export OPENAI_API_KEY=...
  qualm bench longmemeval generate --data longmemeval_oracle.json --reader-model gpt-4o-mini \\
    --history oracle --reading con --out oracle_con.jsonl
  qualm bench longmemeval generate --data longmemeval_s_cleaned.json.gz --history retrieval \\
    --reader-model meta-llama/Meta-Llama-3.1-8B-Instruct --base-url http://127.0.0.1:8001/v1 \\
    --tokenizer models/meta-llama/Meta-Llama-3.1-8B-Instruct --abstention --no-nli --out s_rag_cot.jsonl
  qualm bench longmemeval retrieve --data longmemeval_s_cleaned.json.gz --level turn \\
    --retriever flat-bm25 --log s_turn.retrievallog
  qualm bench longmemeval generate --retrieval-log s_turn.retrievallog --history retrieval \\
    --level turn --reader-model gpt-4o-mini --out s_bm25_turn.jsonl

A --retrieval-log must rank the questions of --data (by default the log itself, which holds them):
a log whose rankings name sessions missing from the data's haystacks (the S file's log with the
oracle file) is refused before any request, naming both files.`;

/** Registers `qualm bench longmemeval generate`. */
export function registerBenchGenerate(program: Command): void {
  const command = longmemevalCommand(program)
    .command('generate')
    .description('Answer LongMemEval questions with a live model, as the official harness does.')
    .option(
      '--data <file>',
      'LongMemEval file (oracle, S or M; plain or .gz); defaults to the --retrieval-log, which holds the questions too',
    )
    .requiredOption('--reader-model <model>', 'the model that answers the questions')
    .requiredOption(
      '--out <file>',
      'hypotheses JSON Lines; a rerun continues it (its folder is created)',
    );
  addRenamedModelOption(command, '--reader-model');
  addBaseUrlOption(command)
    .addOption(
      new Option('--reading <method>', 'reading method')
        .choices([...readingMethods])
        .default('cot'),
    )
    .addOption(
      new Option('--history <source>', 'history shown to the reader')
        .choices([...historySources])
        .default('full'),
    )
    .addOption(
      new Option('--level <level>', 'sessions or turns as the unit of history')
        .choices(['session', 'turn'])
        .default('session'),
    )
    .addOption(
      new Option('--top-k <n>', 'how many sessions or turns to keep').default(
        undefined,
        `${DEFAULT_HISTORY_TOP_K}, as run_generation.sh`,
      ),
    )
    .addOption(
      new Option('--history-format <format>', 'turns as JSON, or as "role: content" lines')
        .choices([...historyFormats])
        .default('json'),
    )
    .addOption(
      new Option('--retriever <kind>', 'retriever of --history retrieval')
        .choices([...retrieverKinds])
        .default('fulltext'),
    )
    .option(
      '--embedding-model <id>',
      'embedding model of the dense and hybrid retrievers',
      DEFAULT_EMBEDDING_MODEL_ID,
    )
    .option('--assistant-turns', 'also index the assistant side for retrieval')
    .option(
      '--retrieval-log <file>',
      "rankings for --history retrieval from a retrieval log (retrieve --log, or the harness's run_retrieval.py)",
    )
    .option('--user-only', "show only the user's turns (the harness's --useronly true)")
    .option('--clean-turns', 'remove has_answer from turns shown alone too (the harness keeps it)')
    .addOption(
      new Option(
        '--context-limit <tokens>',
        "the model's context length, to which the history is cut (less the answer and 1000 tokens); none never cuts",
      ).default(undefined, "the harness's table"),
    )
    .addOption(
      new Option(
        '--tokenizer <name>',
        "o200k_base, or the folder of the model's tokenizer.json, to count the history",
      ).default(undefined, 'o200k_base for GPT models, else <--models-dir>/<model>'),
    )
    .option('--ids <ids...>', 'answer only these question ids')
    .option('--limit <n>', 'answer only the first n questions');
  addRequestOptions(command, 'questions answered at the same time')
    .addOption(
      new Option('--max-tokens <n>', 'reply length of the answer').default(
        undefined,
        '800, as the harness sends',
      ),
    )
    .option('--abstention', 'pass each answer through the abstention detector');
  addDetectorOptions(command)
    .addOption(
      new Option('--format <format>', 'format of the summary')
        .choices(['table', 'json'])
        .default('table'),
    )
    .addHelpText('after', example)
    .action(async (flags: GenerateFlags, command: Command) => {
      const retrieval = flags.history === 'retrieval';
      const ranked = retrieval && flags.retrievalLog === undefined;
      const noHistory = { applies: flags.history !== 'none', because: 'with --history none' };
      const notRetrieval = 'without --history retrieval';
      rejectUselessFlags(command, [
        { option: 'topK', flag: '--top-k', ...noHistory },
        { option: 'level', flag: '--level', ...noHistory },
        { option: 'historyFormat', flag: '--history-format', ...noHistory },
        { option: 'userOnly', flag: '--user-only', ...noHistory },
        { option: 'contextLimit', flag: '--context-limit', ...noHistory },
        { option: 'tokenizer', flag: '--tokenizer', ...noHistory },
        {
          option: 'cleanTurns',
          flag: '--clean-turns',
          applies:
            flags.level === 'turn' && (flags.history === 'full' || flags.history === 'oracle'),
          because:
            flags.history === 'none' || flags.history === 'retrieval'
              ? `with --history ${flags.history} (only a turn shown alone keeps has_answer: --level turn with full or oracle history)`
              : `at --level session (only a turn shown alone keeps has_answer: --level turn with full or oracle history)`,
        },
        {
          option: 'retrievalLog',
          flag: '--retrieval-log',
          applies: retrieval,
          because: notRetrieval,
        },
        {
          option: 'retriever',
          flag: '--retriever',
          applies: ranked,
          because: retrieval ? 'with --retrieval-log (the log holds the rankings)' : notRetrieval,
        },
        {
          option: 'assistantTurns',
          flag: '--assistant-turns',
          applies: ranked,
          because: retrieval ? 'with --retrieval-log (the log holds the rankings)' : notRetrieval,
        },
        {
          option: 'embeddingModel',
          flag: '--embedding-model',
          applies: ranked && needsEmbedder(flags.retriever),
          because: 'without --history retrieval and a dense or hybrid --retriever',
        },
        ...detectorFlagRules(flags, {
          runs: flags.abstention === true,
          because: 'without --abstention',
        }),
      ]);
      requireModelName(command, 'readerModel', '--reader-model');
      const apiKey = requireApiKey();
      const { concurrency, clientOptions } = readChatClientFlags(flags);
      const integer = (name: string, raw: string | undefined) =>
        raw === undefined ? undefined : parseNumberOption(name, raw, { min: 1, integer: true });
      const topK = integer('--top-k', flags.topK);
      const limit = integer('--limit', flags.limit);
      const maxTokens = integer('--max-tokens', flags.maxTokens);
      const contextLimit =
        flags.contextLimit === undefined || flags.contextLimit === 'none'
          ? flags.contextLimit
          : integer('--context-limit', flags.contextLimit);
      const dataPath = flags.data ?? flags.retrievalLog;
      if (dataPath === undefined) {
        throw new CliError(
          CliErrorCode.INVALID_ARGUMENT,
          'give the questions with --data (or a --retrieval-log, which holds them)',
        );
      }
      const tokenizer: HistoryTokenizer | undefined = flags.tokenizer
        ? await loadHistoryTokenizer(flags.tokenizer, {
            ...(flags.modelsDir ? { modelsDir: flags.modelsDir } : {}),
          })
        : undefined;
      const client = createChatClient({ model: flags.readerModel, apiKey, ...clientOptions });
      prepareOutputFile(flags.out);
      const detector = flags.abstention ? await createDetector(flags) : undefined;
      let embedder: Embedder | undefined;
      if (flags.history === 'retrieval' && !flags.retrievalLog && needsEmbedder(flags.retriever)) {
        embedder = await loadEmbedder({
          modelId: flags.embeddingModel,
          ...(flags.modelsDir ? { modelsDir: flags.modelsDir } : {}),
        }).catch((error: unknown) => {
          throw explainMissingModel(error, '--retriever fulltext, which needs no model');
        });
      }
      let progress: Progress | undefined;
      const run = await runReader({
        client,
        dataPath,
        outPath: flags.out,
        method: flags.reading,
        history: {
          source: flags.history,
          level: flags.level,
          format: flags.historyFormat,
          retriever: flags.retriever,
          ...(topK !== undefined ? { topK } : {}),
          ...(embedder ? { embedder } : {}),
          ...(flags.assistantTurns ? { assistantTurns: true } : {}),
          ...(flags.userOnly ? { userOnly: true } : {}),
          ...(flags.cleanTurns ? { cleanTurns: true } : {}),
        },
        ...(flags.retrievalLog ? { retrievalLog: flags.retrievalLog } : {}),
        ...(contextLimit !== undefined ? { contextLimit } : {}),
        ...(tokenizer ? { tokenizer } : {}),
        ...(flags.modelsDir ? { modelsDir: flags.modelsDir } : {}),
        ...(detector ? { detector } : {}),
        ...(maxTokens !== undefined ? { maxTokens } : {}),
        ...(flags.ids ? { questionIds: flags.ids } : {}),
        ...(limit !== undefined ? { limit } : {}),
        concurrency,
        signal: interruptSignal(),
        onProgress: ({ total }) => {
          progress ??= new Progress('generate', total);
          progress.tick();
        },
      });
      progress?.finish();
      if (run.interrupted) {
        process.stderr.write(`${interruptedLine(run, 'answer(s)')}\n`);
        process.exitCode = 130;
        return;
      }
      if (flags.format === 'json') process.stdout.write(`${JSON.stringify(run)}\n`);
      else process.stdout.write(`${summary(run)}\n`);
      if (run.missingIds.length) {
        process.stderr.write(
          `note: ${run.missingIds.length} id(s) given with --ids are not in the data: ${formatIdList(run.missingIds)}\n`,
        );
      }
      if (run.failures.length) {
        process.stderr.write(`${failureLine(run.failures, 'question(s) were not answered')}\n`);
        process.exitCode = 1;
      }
    });
}

function summary(run: ReaderRun): string {
  return formatTable(
    [{ header: 'generation' }, { header: 'value', align: 'right' }],
    [
      ['answered now', String(run.written)],
      ['already in the output', String(run.alreadyDone)],
      ['failed', String(run.failures.length)],
      ['history cut to the context limit', String(run.truncated)],
      ['tokens this run', formatUsage(run.usage)],
      ['tokens in the output', formatUsage(run.outputUsage)],
      ['output', run.outPath],
    ],
  );
}
