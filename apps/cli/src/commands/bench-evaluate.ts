import {
  DEFAULT_JUDGE_MODEL,
  type EvaluationRun,
  resolveJudgeModel,
  runEvaluation,
} from '@qualm/benchmark';
import { createChatClient } from '@qualm/judge';
import { type Command, Option } from 'commander';
import {
  addBaseUrlOption,
  addRenamedModelOption,
  addRequestOptions,
  type ChatClientFlags,
  readChatClientFlags,
  requireApiKey,
} from '../chat-client-options.js';
import { interruptSignal } from '../interrupt.js';
import { formatIdList, formatTable, prepareOutputFile, requireModelName } from '../io.js';
import { Progress } from '../progress.js';
import { failureLine, formatUsage, interruptedLine } from '../run-summary.js';
import { formatScore, type MetricsFormat, metricsFormats, scoreNotes } from './bench-metrics.js';
import { longmemevalCommand } from './longmemeval-group.js';

interface EvaluateFlags extends ChatClientFlags {
  run: string;
  data: string;
  out?: string;
  judgeModel: string;
  format: MetricsFormat;
}

const example = `
Judges each hypothesis as the official evaluate_qa.py does: the prompt of the question's type
(the abstention prompt for ids containing _abs), temperature 0, a reply of at most 10 tokens, and
the label is whether the reply contains "yes". Writes the official eval-results lines (the input
line with autoeval_label: {model, label}) as they finish, so the order on disk may differ from the
input; a rerun with the same --out judges only what is missing. Prints the metrics at the end
(--format official: stdout holds exactly what print_qa_metrics.py prints; the false-abstention
rate and the summary of the run go to stderr).

The request is the harness's: one user message, n 1, temperature 0, max_tokens 10
(--max-tokens-parameter max_completion_tokens for endpoints that want the newer name). The
harness retries a failed call with backoff until it gets an answer; here a call is tried
--max-attempts times (3 by default; connection errors, timeouts, 408, 409, 429 and 5xx are
retried, with backoff from --retry-delay and the server's retry-after), and an answer still not
judged is reported and left out of the output, so a rerun judges it.

The API key is read from OPENAI_API_KEY (any non-empty value for a local server that needs none);
the endpoint from --base-url, else OPENAI_BASE_URL, else OpenAI. --judge-model takes the harness's
short names (gpt-4o, gpt-4o-mini) or any model id.

Nothing listening at the endpoint, an unknown host or a rejected key stops the run before the
first answer (exit 2). An answer the endpoint failed on during the run (a dropped connection,
rate-limited, timing out, a broken reply) is not written: the run exits 1 and a rerun judges it.
Ctrl-C cancels the calls under way and says how many labels were written; the same command
continues. Exit status: 0, 1 when answers were left out, 2 on bad input or set-up, 130 when
interrupted.

Examples:
  export OPENAI_API_KEY=...
  qualm bench longmemeval evaluate --data longmemeval_oracle.json --run hypotheses.jsonl
  qualm bench longmemeval evaluate --data longmemeval_s_cleaned.json.gz --run hypotheses.jsonl \\
    --judge-model gpt-4o-mini --out hypotheses.eval-results.jsonl --format markdown`;

/** Registers `qualm bench longmemeval evaluate`. */
export function registerBenchEvaluate(program: Command): void {
  const command = longmemevalCommand(program)
    .command('evaluate')
    .description('Judge LongMemEval hypotheses with the official per-type prompts.')
    .requiredOption('--data <file>', 'LongMemEval file (oracle, S or M; plain or .gz)')
    .requiredOption('--run <file>', 'hypotheses, {question_id, hypothesis} JSON Lines')
    .addOption(
      new Option(
        '--out <file>',
        'eval-results output; a rerun continues it (its folder is created)',
      ).default(undefined, '<run>.eval-results-<judge model>'),
    )
    .option('--judge-model <model>', 'the model that judges the answers', DEFAULT_JUDGE_MODEL);
  addRenamedModelOption(command, '--judge-model');
  addBaseUrlOption(command);
  addRequestOptions(command, 'answers judged at the same time')
    .addOption(
      new Option('--format <format>', 'format of the metrics printed at the end')
        .choices([...metricsFormats])
        .default('table'),
    )
    .addHelpText('after', example)
    .action(async (flags: EvaluateFlags, command: Command) => {
      requireModelName(command, 'judgeModel', '--judge-model');
      const apiKey = requireApiKey();
      const { concurrency, clientOptions } = readChatClientFlags(flags);
      const client = createChatClient({
        model: resolveJudgeModel(flags.judgeModel),
        apiKey,
        ...clientOptions,
      });
      const outPath =
        flags.out ?? `${flags.run}.eval-results-${flags.judgeModel.replaceAll('/', '_')}`;
      prepareOutputFile(outPath);
      let progress: Progress | undefined;
      const run = await runEvaluation({
        client,
        dataPath: flags.data,
        runPath: flags.run,
        outPath,
        concurrency,
        signal: interruptSignal(),
        onProgress: ({ total }) => {
          progress ??= new Progress('evaluate', total);
          progress.tick();
        },
      });
      progress?.finish();
      if (run.interrupted) {
        process.stderr.write(`${interruptedLine(run, 'label(s)')}\n`);
        process.exitCode = 130;
        return;
      }
      process.stdout.write(formatScore(run.score, flags.format));
      // the official format's stdout is the official script's lines alone
      if (flags.format === 'table') process.stdout.write(`\n${summary(run)}\n`);
      else if (flags.format === 'official') process.stderr.write(`${summary(run)}\n`);
      for (const note of scoreNotes(run.score, flags.format)) process.stderr.write(`${note}\n`);
      if (run.missingIds.length) {
        process.stderr.write(
          `note: skipped ${run.missingIds.length} hypotheses whose ids are not in the data: ${formatIdList(run.missingIds)}\n`,
        );
      }
      if (run.failures.length) {
        process.stderr.write(`${failureLine(run.failures, 'answer(s) were not judged')}\n`);
        process.exitCode = 1;
      }
    });
}

function summary(run: EvaluationRun): string {
  return formatTable(
    [{ header: 'evaluation' }, { header: 'value', align: 'right' }],
    [
      ['judged now', String(run.written)],
      ['already in the output', String(run.alreadyDone)],
      ['failed', String(run.failures.length)],
      ['judge tokens', formatUsage(run.usage)],
      ['output', run.outPath],
    ],
  );
}
