import { once } from 'node:events';
import { basename } from 'node:path';
import {
  createChatClient,
  type EvaluationMode,
  evaluationModes,
  parseRubric,
  type Rubric,
  type RubricScores,
  type RunFailure,
  readVerificationItems,
  resultPassed,
  runVerificationBatch,
  type StructuredOutputMode,
  stageOrder,
  type Template,
  templateFromJsonSchema,
  type VerificationBatchRun,
  VerificationConfig,
  type VerificationInputItem,
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
  columnWidths,
  formatTable,
  given,
  noteTerminalInput,
  parseNumberOption,
  prepareOutputFile,
  readText,
  rejectUselessFlags,
  requireModelName,
  tableLine,
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
  stopAfterFailures: string;
}

const example = `
Input lines are {"id", "question", "response"?, "expected"?, "trace"?}; the template is a JSON
Schema whose top level is an object. The API key is read from OPENAI_API_KEY.

Example:
  export OPENAI_API_KEY=...
  qualm judge --input examples/judge/input.jsonl --template examples/judge/template.schema.json \\
    --abstention --sufficiency --judge-model gpt-4o-mini --out judged.jsonl

Without --out, results are printed in input order as each finishes, so a reader that stops early
(| head) ends the run. The table's pass column is the template result; in the rubric modes, an
item without one (rubric_only, or no expected values) passes when the rubric graded every yes/no
trait yes, and the rubric column shows each trait's grade (1-5 scores are shown, not judged). The
pass rate counts both, in the table and as passRate in the JSON summary.

With --out, results are appended as they finish and a rerun skips the ids already written; the
summary then shows this run and the whole file apart.
Before the first item, one GET /models checks the endpoint: nothing listening there, an unknown
host or a rejected key stops the run at once with exit 2; no answer within --timeout stops it
after that one wait with exit 1 (the server is there but not answering). An item the endpoint
failed on during the run (a dropped connection, rate-limited, timing out, a broken reply) is never
written: the run exits 1, names it on stderr and in the summary, and a rerun judges it again.
When --stop-after-failures items in a row (5 unless given) failed that way, the run stops there
rather than send every other item to an endpoint that is down; a rerun with the same --out goes
on. An item whose result ended in an error (a reply that never fit the schema after
--max-attempts re-asks, a fail-safe check that errored, a rubric not graded) is written with its
error, but is not done: the run exits 1, stderr says how many and the first error, and a rerun
with the same --out judges it again and replaces its line. Ctrl-C cancels the calls under way (a
rerun judges their items) and says how many results were written; the same command continues.

Flags that do nothing in the chosen mode are refused: --template in rubric_only mode, --rubric in
template_only mode, --sufficiency and --instructions-parsing in rubric_only mode, and
--instructions-abstention or --instructions-sufficiency without --abstention or --sufficiency.
--answering-model when every item has a response gets a note on stderr.

Exit status: 0 when every item was judged without an error, 1 when some could not be judged or
ended in errors (or the run stopped because the endpoint kept failing or never answered its
check), 2 on bad input or set-up (a missing key, a wrong endpoint URL, nothing listening at the
endpoint, a rejected key), 130 when interrupted.`;

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
    .option(
      '--stop-after-failures <n>',
      'stop the run when this many items in a row failed because the endpoint is down (0: never)',
      '5',
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
  const stopAfterEndpointFailures = parseNumberOption(
    '--stop-after-failures',
    options.stopAfterFailures,
    { min: 0, integer: true },
  );
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

  const batch = {
    judge,
    answering,
    config,
    template,
    rubric,
    concurrency,
    stopAfterEndpointFailures,
    signal: interruptSignal(),
  };
  const watch = watchProgress();
  let run: VerificationBatchRun;
  try {
    if (options.out !== undefined) {
      run = await runVerificationBatch({
        ...batch,
        ...watch.callbacks,
        items,
        out: options.out,
        outLabel: '--out',
      });
      watch.progress.finish();
      printOutFileSummary(format, run, options.out);
    } else {
      // the results go out as they come, so a reader that stops early (| head) ends the run
      const sink = resultSink(format, items, rubric);
      const inOrder = inputOrder(sink.take);
      run = await runVerificationBatch({
        ...batch,
        ...watch.callbacks,
        items,
        onRecord: (record, index) => {
          watch.callbacks.onRecord(record, index);
          return inOrder.finished(index, record);
        },
        onFailure: (failure, index) => {
          watch.callbacks.onFailure(failure, index);
          return inOrder.finished(index, undefined);
        },
      });
      watch.progress.finish();
      // an interrupted or stopped run leaves gaps: the results finished after one still go out,
      // in order
      await inOrder.flush();
      sink.end(run);
    }
  } finally {
    watch.progress.stop();
  }

  if (run.interrupted) {
    process.stderr.write(
      options.out !== undefined
        ? `qualm: interrupted: ${run.written} of ${run.total} result(s) appended to ${options.out}; run the same command again to judge the rest\n`
        : `qualm: interrupted: ${run.written} of ${run.total} result(s) printed; nothing was kept for a rerun (give --out to keep results and continue later)\n`,
    );
    process.exitCode = INTERRUPTED_EXIT_STATUS;
    return;
  }
  if (run.endpointStop) {
    const { inARow, last } = run.endpointStop;
    const kept =
      options.out !== undefined
        ? `${run.written} result(s) appended to ${options.out}, ${run.notJudged.length} item(s) not judged; run the same command again to judge them once the endpoint answers`
        : `${run.written} result(s) printed, ${run.notJudged.length} item(s) not judged; nothing was kept for a rerun (give --out to keep results and continue later)`;
    process.stderr.write(
      `qualm: stopped early: the endpoint kept failing (${inARow} items in a row, the last ${last.id}: ${last.code}: ${last.message}); ${kept}\n`,
    );
    process.exitCode = 1;
  } else if (run.failures.length > 0) {
    const first = run.failures[0];
    const next = options.out
      ? 'they were not written, so rerunning the same command retries them'
      : 'rerun to retry them';
    process.stderr.write(
      `qualm: ${run.failures.length} item(s) could not be judged because the endpoint failed: ${someIds(run.notJudged)} (first error: ${first?.code}: ${first?.message}); ${next}\n`,
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

/** Ids named in one line: the first five, then how many more. */
function someIds(ids: readonly string[], shown = 5): string {
  const named = ids.slice(0, shown).join(', ');
  return ids.length > shown ? `${named} and ${ids.length - shown} more` : named;
}

/**
 * The progress of a run on stderr, and the callbacks that feed it: judged and failed items are
 * counted apart, and while calls are pending the line also comes on its timer, saying how many
 * items wait for the endpoint and for how long, so a hanging endpoint does not look like a hung
 * run.
 */
function watchProgress() {
  // when each item under way started, by its position in the input
  const started = new Map<number, number>();
  let checking = true;
  const pending = () => {
    if (checking) return 'checking the endpoint (GET /models)';
    if (started.size === 0) return undefined;
    const longest = Math.round((Date.now() - Math.min(...started.values())) / 1000);
    return `${started.size} item(s) waiting for the endpoint, the longest ${longest}s`;
  };
  const progress = new Progress('judge', undefined, { pending });
  const ended = (index: number) => started.delete(index);
  return {
    progress,
    callbacks: {
      onStart: (index: number, { total }: { total: number }) => {
        checking = false;
        progress.setTotal(total);
        started.set(index, Date.now());
      },
      onRecord: (_record: VerificationRecord, index: number) => {
        ended(index);
        progress.tick();
      },
      onFailure: (_failure: RunFailure, index: number) => {
        ended(index);
        progress.fail();
      },
    },
  };
}

/**
 * Hands records to `take` in input order as the batch finishes them in any order: a record waits
 * until every earlier item is done (with a record, or left out). While `take` waits for room in
 * the output, the records after it queue behind it and `finished` returns that wait, so the batch
 * holds the item's slot until the output has room.
 */
function inputOrder(take: (record: VerificationRecord) => Promise<void> | undefined) {
  // records finished ahead of an earlier item, by input position (undefined: left out)
  const waiting = new Map<number, VerificationRecord | undefined>();
  const ready: VerificationRecord[] = [];
  let next = 0;
  let waitingForRoom: Promise<void> | undefined;
  // hands out the ready records; while the output is full, the rest wait for its room
  const handOut = (): Promise<void> | undefined => {
    if (waitingForRoom) return waitingForRoom;
    while (ready.length > 0) {
      const room = take(ready.shift() as VerificationRecord);
      if (room) {
        waitingForRoom = room.then(() => {
          waitingForRoom = undefined;
          return handOut();
        });
        return waitingForRoom;
      }
    }
    return undefined;
  };
  return {
    finished(index: number, record: VerificationRecord | undefined): Promise<void> | undefined {
      waiting.set(index, record);
      while (waiting.has(next)) {
        const done = waiting.get(next);
        waiting.delete(next);
        next += 1;
        if (done) ready.push(done);
      }
      return handOut();
    },
    /** Hands out what still waits behind items that never finished (an interrupted run). */
    async flush(): Promise<void> {
      for (const index of [...waiting.keys()].sort((left, right) => left - right)) {
        const done = waiting.get(index);
        if (done) ready.push(done);
      }
      waiting.clear();
      await handOut();
    },
  };
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

/** The grades of an item as `direct yes, clarity 4`; `error` when the rubric was not graded. */
function rubricCell(record: Record<string, unknown>, rubric: Rubric): string {
  if (record.rubricError) return 'error';
  const scores = record.rubricScores as RubricScores | null | undefined;
  if (!scores) return '-';
  return rubric.traits
    .map((trait) => {
      const grade = scores[trait.name];
      return `${trait.name} ${typeof grade === 'boolean' ? flag(grade) : (grade ?? '-')}`;
    })
    .join(', ');
}

/** The rows of a summary column: rates and totals over a set of results. */
function summaryCells(summary: VerificationSummary): string[] {
  const passed = summary.passed + summary.rubricPassed;
  const judged = summary.verified + summary.rubricJudged;
  return [
    `${percent(summary.abstentionRate)} (${summary.abstentionDetected}/${summary.abstentionChecked})`,
    `${percent(summary.insufficiencyRate)} (${summary.insufficient}/${summary.sufficiencyChecked})`,
    `${percent(summary.passRate)} (${passed}/${judged})`,
    String(summary.checkErrors),
    String(summary.errors),
  ];
}

const rateMeasures = [
  'abstention rate',
  'insufficiency rate',
  'pass rate',
  'check errors (fail-safe)',
  'errors',
];

/**
 * The summary table of a run: what this run did (its results, the items it could not judge, the
 * calls and tokens it spent), and with --out, beside it, the same over everything in the file. A
 * line under the table names the items not judged.
 */
function summaryTable(run: VerificationBatchRun, out?: string): string {
  const { runSummary, usage } = run;
  const thisRun = [
    String(run.total),
    String(run.written),
    String(run.notJudged.length),
    ...summaryCells(runSummary),
    `${usage.calls} (${usage.requests} requests)`,
    String(usage.totalTokens),
  ];
  const measures = ['items', 'judged', 'not judged', ...rateMeasures, 'LLM calls', 'tokens'];
  let table: string;
  if (out === undefined) {
    table = formatTable(
      [{ header: 'measure' }, { header: 'value', align: 'right' }],
      measures.map((measure, index) => [measure, thisRun[index] ?? '']),
    );
  } else {
    const { summary } = run;
    const file = [
      String(run.total + run.alreadyDone),
      String(summary.total),
      '-',
      ...summaryCells(summary),
      `${summary.llmCalls} (${summary.usage.requests} requests)`,
      String(summary.usage.totalTokens),
    ];
    table = formatTable(
      [
        { header: 'measure' },
        { header: 'this run', align: 'right' },
        { header: `in ${basename(out)}`, align: 'right' },
      ],
      measures.map((measure, index) => [measure, thisRun[index] ?? '', file[index] ?? '']),
    );
  }
  return run.notJudged.length > 0 ? `${table}\nnot judged: ${someIds(run.notJudged)}` : table;
}

/** What a run did, for --format json: its own counts, apart from the summary of the results. */
function runReport(run: VerificationBatchRun) {
  const listed = 20;
  return {
    items: run.total,
    judged: run.written,
    errored: run.errored.length,
    notJudged: run.notJudged.length,
    notJudgedIds: run.notJudged.slice(0, listed),
    moreNotJudged: Math.max(0, run.notJudged.length - listed),
    stoppedEarly: run.endpointStop !== undefined,
    interrupted: run.interrupted,
    llmCalls: run.usage.calls,
    requests: run.usage.requests,
    tokens: run.usage.totalTokens,
  };
}

/** What the results go to without --out: one record at a time, then the summary. */
interface ResultSink {
  /** Takes a record; a promise when the output is full and the next should wait for room. */
  take(record: VerificationRecord): Promise<void> | undefined;
  /** Ends the output with the summary (the output stays whole when the run was interrupted). */
  end(run: VerificationBatchRun): void;
}

/**
 * Where the results go without --out, as they come. On a terminal the live progress line shares
 * the screen, so the output waits for the end of the run there; elsewhere it streams.
 */
function resultSink(
  format: Format,
  items: readonly VerificationInputItem[],
  rubric: Rubric | undefined,
): ResultSink {
  const held: string[] | undefined = process.stdout.isTTY ? [] : undefined;
  const emit = (text: string): Promise<void> | undefined => {
    if (held) held.push(text);
    // when the write filled the output, the next record waits until it has room again
    else if (!process.stdout.write(text)) return once(process.stdout, 'drain').then(() => {});
    return undefined;
  };
  const finish = (text: string) => process.stdout.write(`${held?.join('') ?? ''}${text}`);
  const summaryOf = (run: VerificationBatchRun) => summaryTable(run);
  if (format === 'jsonl') {
    return {
      take: (record) => emit(`${JSON.stringify(record)}\n`),
      end(run) {
        finish('');
        process.stderr.write(`${summaryOf(run)}\n`);
      },
    };
  }
  if (format === 'json') {
    // the bytes of JSON.stringify({results, summary}, null, 2), written one result at a time
    const indent = (text: string, spaces: string) => text.replaceAll('\n', `\n${spaces}`);
    let count = 0;
    return {
      take(record) {
        const opening = count === 0 ? '{\n  "results": [\n' : ',\n';
        count += 1;
        return emit(`${opening}    ${indent(JSON.stringify(record, null, 2), '    ')}`);
      },
      end(run) {
        const summary = indent(JSON.stringify(run.summary, null, 2), '  ');
        const report = indent(JSON.stringify(runReport(run), null, 2), '  ');
        finish(
          `${count === 0 ? '{\n  "results": []' : '\n  ]'},\n  "summary": ${summary},\n  "run": ${report}\n}\n`,
        );
      },
    };
  }
  // the columns are sized before the first result, from the ids and the values each column takes
  const columns = [
    { header: 'id' },
    { header: 'pass' },
    { header: 'failed stage' },
    { header: 'abstained' },
    { header: 'sufficient' },
    { header: 'calls', align: 'right' as const },
    ...(rubric ? [{ header: 'rubric' }] : []),
  ];
  const widths = columnWidths(columns, [
    ...items.map((item) => [item.id]),
    ...stageOrder.map((stage) => ['', '', stage]),
  ]);
  const line = (cells: readonly string[]) => emit(`${tableLine(columns, widths, cells)}\n`);
  let rows = 0;
  return {
    take(record) {
      if (rows === 0) {
        line(columns.map((column) => column.header));
        line(widths.map((width) => '-'.repeat(width)));
      }
      rows += 1;
      return line([
        record.id,
        flag(resultPassed(record)),
        String(record.failedStage ?? '-'),
        flag(record.abstentionDetected),
        flag(record.sufficiencyDetected),
        String(record.llmCalls),
        ...(rubric ? [rubricCell(record, rubric)] : []),
      ]);
    },
    end(run) {
      finish(`${rows > 0 ? '\n' : ''}${summaryOf(run)}\n`);
    },
  };
}

/**
 * With --out the results are in the file: stdout gets what this run did and the summary of
 * everything in the file, apart.
 */
function printOutFileSummary(format: Format, run: VerificationBatchRun, out: string): void {
  const note = `${run.written} result(s) appended to ${out}, ${run.alreadyDone} already there`;
  if (format === 'json') {
    const body = {
      summary: run.summary,
      written: run.written,
      skipped: run.alreadyDone,
      failed: run.failures.length,
      run: { ...runReport(run), summary: run.runSummary },
    };
    process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
    return;
  }
  const stream = format === 'jsonl' ? process.stderr : process.stdout;
  stream.write(`${summaryTable(run, out)}\n${note}\n`);
}
