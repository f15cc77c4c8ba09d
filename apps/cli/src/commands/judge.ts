import {
  createChatClient,
  type EvaluationMode,
  evaluationModes,
  parseRubric,
  type Rubric,
  readVerificationItems,
  runVerificationBatch,
  type StructuredOutputMode,
  type Template,
  templateFromJsonSchema,
  type VerificationBatchRun,
  VerificationConfig,
  type VerificationRecord,
  type VerificationSummary,
} from '@qualm/judge';
import { type Command, Option } from 'commander';
import {
  addBaseUrlOption,
  addRenamedModelOption,
  addRequestOptions,
  type ChatClientFlags,
  readChatClientFlags,
  requireApiKey,
} from '../chat-client-options.js';
import { CliError, CliErrorCode, INTERRUPTED_EXIT_STATUS } from '../errors.js';
import { interruptSignal } from '../interrupt.js';
import {
  formatTable,
  given,
  noteTerminalInput,
  prepareOutputFile,
  readText,
  rejectUselessFlags,
  requireModelName,
} from '../io.js';
import { Progress } from '../progress.js';

const formats = ['table', 'json', 'jsonl'] as const;
type Format = (typeof formats)[number];
const structuredModes: readonly StructuredOutputMode[] = ['auto', 'json_schema', 'text'];

interface JudgeOptions extends ChatClientFlags {
  input: string;
  template?: string;
  rubric?: string;
  abstention?: boolean;
  sufficiency?: boolean;
  mode: EvaluationMode;
  judgeModel: string;
  answeringModel?: string;
  structuredOutput: StructuredOutputMode;
  instructionsAbstention?: string;
  instructionsSufficiency?: string;
  instructionsParsing?: string;
  format: Format;
  out?: string;
}

const example = `
Input lines are {"id", "question", "response"?, "expected"?, "trace"?}; the template is a JSON
Schema whose top level is an object. The API key is read from OPENAI_API_KEY.

Example:
  export OPENAI_API_KEY=...
  qualm judge --input examples/judge/input.jsonl --template examples/judge/template.schema.json \\
    --abstention --sufficiency --judge-model gpt-4o-mini --out judged.jsonl

With --out, results are appended as they finish and a rerun skips the ids already written. An
item the endpoint failed on (unreachable, rate-limited, timing out, a broken reply) is never
written: the run exits 1 and a rerun judges it again. An item whose result ended in an error (a
reply that never fit the schema after --max-attempts re-asks, a fail-safe check that errored, a
rubric not graded) is written with its error, but is not done: the run exits 1, stderr says how
many and the first error, and a rerun with the same --out judges it again and replaces its line.
Ctrl-C stops after the calls under way and says how many results were written; the same command
continues.

Flags that do nothing in the chosen mode are refused: --template in rubric_only mode, --rubric in
template_only mode, --sufficiency and --instructions-parsing in rubric_only mode, and
--instructions-abstention or --instructions-sufficiency without --abstention or --sufficiency.
--answering-model when every item has a response gets a note on stderr.

Exit status: 0 when every item was judged without an error, 1 when some could not be judged or
ended in errors, 2 on bad input or set-up (a missing key, a wrong endpoint URL, a rejected key),
130 when interrupted.`;

/** Registers `qualm judge`. */
export function registerJudge(program: Command): void {
  const command = program
    .command('judge')
    .description(
      'Check answers for abstention and sufficiency with an LLM judge, then parse them into a template and verify them.',
    )
    .requiredOption('--input <file>', 'JSON Lines file of items ("-" for stdin)')
    .option('--template <file>', 'JSON Schema of the answer template (needed unless rubric_only)')
    .option(
      '--rubric <file>',
      'rubric JSON {"traits": [{name, description, kind}]} for rubric modes',
    )
    .option('--abstention', 'run the abstention check before parsing')
    .option('--sufficiency', 'run the sufficiency check before parsing')
    .addOption(
      new Option('--mode <mode>', 'evaluation mode')
        .choices(evaluationModes)
        .default('template_only'),
    )
    .addOption(
      new Option('--judge-model <model>', 'model of the checks, parsing and rubric')
        .env('QUALM_JUDGE_MODEL')
        .default('gpt-4o-mini'),
    )
    .addOption(
      new Option(
        '--answering-model <model>',
        'model that answers items without a response',
      ).default(undefined, 'the judge model'),
    );
  addRenamedModelOption(command, '--judge-model');
  addBaseUrlOption(command);
  addRequestOptions(command, 'items verified at the same time')
    .addOption(
      new Option('--structured-output <mode>', 'how the judge is asked for JSON')
        .choices(structuredModes)
        .default('auto'),
    )
    .option('--instructions-abstention <text>', 'instructions appended to the abstention prompt')
    .option('--instructions-sufficiency <text>', 'instructions appended to the sufficiency prompt')
    .option('--instructions-parsing <text>', 'instructions appended to the parsing prompt')
    .addOption(new Option('--format <format>', 'output format').choices(formats).default('table'))
    .option(
      '--out <file>',
      'append results as JSON Lines; a rerun skips the ids there (its folder is created)',
    )
    .addHelpText('after', example)
    .action(async (options: JudgeOptions, command: Command) => {
      await runJudge(options, command);
    });
}

async function runJudge(options: JudgeOptions, command: Command): Promise<void> {
  const { mode, format, structuredOutput } = options;
  const usesTemplate = mode !== 'rubric_only';
  const usesRubric = mode !== 'template_only';
  const modeNote = `with --mode ${mode}${given(command, 'mode') ? '' : ' (the default)'}`;
  rejectUselessFlags(command, [
    { option: 'template', flag: '--template', applies: usesTemplate, because: modeNote },
    { option: 'rubric', flag: '--rubric', applies: usesRubric, because: modeNote },
    {
      option: 'sufficiency',
      flag: '--sufficiency',
      applies: usesTemplate,
      because: `${modeNote}: the check needs a template`,
    },
    {
      option: 'instructionsParsing',
      flag: '--instructions-parsing',
      applies: usesTemplate,
      because: `${modeNote}: nothing is parsed`,
    },
    {
      option: 'instructionsAbstention',
      flag: '--instructions-abstention',
      applies: options.abstention === true,
      because: 'without --abstention',
    },
    {
      option: 'instructionsSufficiency',
      flag: '--instructions-sufficiency',
      applies: options.sufficiency === true,
      because: 'without --sufficiency',
    },
  ]);
  requireModelName(command, 'judgeModel', '--judge-model');
  requireModelName(command, 'answeringModel', '--answering-model');
  const { concurrency, clientOptions: endpointOptions } = readChatClientFlags(options);
  const config = new VerificationConfig({
    abstentionEnabled: options.abstention === true,
    sufficiencyEnabled: options.sufficiency === true,
    evaluationMode: mode,
    promptConfig: {
      abstention: options.instructionsAbstention,
      sufficiency: options.instructionsSufficiency,
      parsing: options.instructionsParsing,
    },
  });

  const apiKey = requireApiKey('ignores it');
  if (options.out !== undefined) prepareOutputFile(options.out);

  let template: Template | undefined;
  if (config.usesTemplate) {
    if (options.template === undefined) {
      throw new CliError(CliErrorCode.INVALID_ARGUMENT, `--template is required in ${mode} mode`);
    }
    template = templateFromJsonSchema(await readJsonFile(options.template), {
      source: options.template,
    });
  }
  let rubric: Rubric | undefined;
  if (config.usesRubric) {
    if (options.rubric === undefined) {
      throw new CliError(CliErrorCode.INVALID_ARGUMENT, `--rubric is required in ${mode} mode`);
    }
    rubric = parseRubric(await readJsonFile(options.rubric), options.rubric);
  }

  noteTerminalInput(options.input, 'items');
  const items = await readVerificationItems(options.input, { template });
  if (
    options.answeringModel !== undefined &&
    items.every((item) => item.response !== undefined || item.trace !== undefined)
  ) {
    process.stderr.write(
      `qualm: note: --answering-model is not used: every item of ${options.input === '-' ? 'stdin' : options.input} has a response\n`,
    );
  }
  const clientOptions = { ...endpointOptions, apiKey, structuredOutput };
  const judge = createChatClient({ ...clientOptions, model: options.judgeModel });
  const answering = createChatClient({
    ...clientOptions,
    model: options.answeringModel ?? options.judgeModel,
  });

  let progress: Progress | undefined;
  const run = await runVerificationBatch({
    items,
    judge,
    answering,
    config,
    template,
    rubric,
    concurrency,
    signal: interruptSignal(),
    ...(options.out !== undefined ? { out: options.out, outLabel: '--out' } : {}),
    onProgress: ({ total }) => {
      progress ??= new Progress('judge', total);
      progress.tick();
    },
  });
  progress?.finish();

  if (!run.interrupted || options.out !== undefined) printOutput(format, run, options.out);
  if (run.interrupted) {
    process.stderr.write(
      options.out !== undefined
        ? `qualm: interrupted: ${run.written} of ${run.total} result(s) appended to ${options.out}; run the same command again to judge the rest\n`
        : `qualm: interrupted after ${run.written} of ${run.total} item(s); nothing was kept (give --out to keep results and continue later)\n`,
    );
    process.exitCode = INTERRUPTED_EXIT_STATUS;
    return;
  }
  if (run.failures.length > 0) {
    const first = run.failures[0];
    const next = options.out
      ? 'they were not written, so rerunning the same command retries them'
      : 'rerun to retry them';
    process.stderr.write(
      `qualm: ${run.failures.length} item(s) could not be judged because the endpoint failed (first ${first?.id}: ${first?.code}: ${first?.message}); ${next}\n`,
    );
    process.exitCode = 1;
  }
  if (run.errored.length > 0) {
    const first = run.errored[0];
    const next = options.out
      ? `their results were written with the error to ${options.out}; rerunning the same command judges them again`
      : 'rerun to judge them again';
    process.stderr.write(
      `qualm: ${run.errored.length} item(s) ended in errors (first ${first?.id}: ${first?.code}: ${first?.message}); ${next}\n`,
    );
    process.exitCode = 1;
  }
}

async function readJsonFile(path: string): Promise<unknown> {
  const text = await readText(path);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliError(
      CliErrorCode.INVALID_INPUT,
      `${path} is not valid JSON (${(error as Error).message})`,
    );
  }
}

const percent = (rate: number | null) => (rate === null ? '-' : `${(rate * 100).toFixed(1)}%`);
const flag = (value: boolean | null | undefined) =>
  value === null || value === undefined ? '-' : value ? 'yes' : 'no';

function summaryTable(summary: VerificationSummary): string {
  return formatTable(
    [{ header: 'measure' }, { header: 'value', align: 'right' }],
    [
      ['items', String(summary.total)],
      [
        'abstention rate',
        `${percent(summary.abstentionRate)} (${summary.abstentionDetected}/${summary.abstentionChecked})`,
      ],
      [
        'insufficiency rate',
        `${percent(summary.insufficiencyRate)} (${summary.insufficient}/${summary.sufficiencyChecked})`,
      ],
      ['pass rate', `${percent(summary.passRate)} (${summary.passed}/${summary.verified})`],
      ['check errors (fail-safe)', String(summary.checkErrors)],
      ['errors', String(summary.errors)],
      ['LLM calls', String(summary.llmCalls)],
      ['tokens', String(summary.usage.totalTokens)],
    ],
  );
}

function printOutput(format: Format, run: VerificationBatchRun, out: string | undefined): void {
  const { records, summary } = run;
  const note = out
    ? `${run.written} result(s) appended to ${out}, ${run.alreadyDone} already there`
    : undefined;
  if (format === 'json') {
    const body = out
      ? { summary, written: run.written, skipped: run.alreadyDone, failed: run.failures.length }
      : { results: records, summary };
    process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
    return;
  }
  if (format === 'jsonl') {
    for (const record of records) process.stdout.write(`${JSON.stringify(record)}\n`);
    process.stderr.write(`${summaryTable(summary)}\n`);
    if (note) process.stderr.write(`${note}\n`);
    return;
  }
  if (records.length > 0) process.stdout.write(`${resultsTable(records)}\n\n`);
  process.stdout.write(`${summaryTable(summary)}\n`);
  if (note) process.stdout.write(`${note}\n`);
}

function resultsTable(records: readonly VerificationRecord[]): string {
  return formatTable(
    [
      { header: 'id' },
      { header: 'pass' },
      { header: 'failed stage' },
      { header: 'abstained' },
      { header: 'sufficient' },
      { header: 'calls', align: 'right' },
    ],
    records.map((record) => [
      record.id,
      flag(record.verifyResult),
      String(record.failedStage ?? '-'),
      flag(record.abstentionDetected),
      flag(record.sufficiencyDetected),
      String(record.llmCalls),
    ]),
  );
}
