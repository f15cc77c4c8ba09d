import { openResumableOutput, type ResumableOutput } from '@qualm/benchmark';
import {
  type AgentTrace,
  checkExpected,
  createChatClient,
  type EvaluationMode,
  evaluationModes,
  JudgeError,
  JudgeErrorCode,
  parseRubric,
  type Rubric,
  type StructuredOutputMode,
  type SummarizableResult,
  summarizeResults,
  type Template,
  templateFromJsonSchema,
  VerificationConfig,
  type VerificationItem,
  type VerificationResult,
  type VerificationSummary,
  verifyStream,
} from '@qualm/judge';
import { type Command, Option } from 'commander';
import { z } from 'zod';
import {
  addBaseUrlOption,
  addRequestOptions,
  type ChatClientFlags,
  checkEndpoint,
  readChatClientFlags,
  requireApiKey,
} from '../chat-client-options.js';
import { CliError, CliErrorCode } from '../errors.js';
import { formatTable, openInput, Progress, readJsonLines, readText } from '../io.js';

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
  model: string;
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
    --abstention --sufficiency --model gpt-4o-mini --out judged.jsonl

With --out, results are appended as they finish and a rerun skips the ids already written.`;

const inputLineSchema = z.object({
  id: z.union([z.string().min(1), z.number()]).transform(String),
  question: z.string().min(1, 'must not be empty'),
  response: z.string().optional(),
  expected: z.record(z.string(), z.unknown()).optional(),
  trace: z
    .object({
      messages: z.array(z.object({ role: z.string(), content: z.string().nullable() })),
      recursionLimitReached: z.boolean().optional(),
    })
    .optional(),
});

// results whose pipeline stopped on these could succeed on a rerun, so they are not written
const transientCodes = new Set<string>([
  JudgeErrorCode.JUDGE_UNAVAILABLE,
  JudgeErrorCode.TIMEOUT,
  JudgeErrorCode.RATE_LIMITED,
  JudgeErrorCode.ABORTED,
]);

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
    .option('--model <model>', 'judge model', process.env.QUALM_JUDGE_MODEL ?? 'gpt-4o-mini')
    .option(
      '--answering-model <model>',
      'model that answers items without a response (default: --model)',
    );
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
    .option('--out <file>', 'append results as JSON Lines; ids already in the file are skipped')
    .addHelpText('after', example)
    .action(async (options: JudgeOptions) => {
      await runJudge(options);
    });
}

async function runJudge(options: JudgeOptions): Promise<void> {
  const { mode, format, structuredOutput } = options;
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

  const items = await readItems(options.input, template);
  const output: ResumableOutput | undefined = options.out
    ? openResumableOutput(options.out, { keyField: 'id', label: '--out' })
    : undefined;
  // a copy, since the output adds each appended record to its own list
  const previous = [...(output?.records ?? [])] as ResultRecord[];
  const pending = items.filter((item) => !output?.doneIds.has(String(item.id)));

  const clientOptions = { ...endpointOptions, apiKey, structuredOutput };
  const judge = createChatClient({ ...clientOptions, model: options.model });
  const answering = createChatClient({
    ...clientOptions,
    model: options.answeringModel ?? options.model,
  });
  if (pending.length > 0) await checkEndpoint(judge);

  const progress = new Progress('judge', pending.length);
  const written: ResultRecord[] = [];
  const printed: ResultRecord[] = [];
  const incomplete: VerificationResult[] = [];
  const controller = new AbortController();
  for await (const result of verifyStream(pending, {
    judge,
    answering,
    config,
    template,
    rubric,
    concurrency,
    signal: controller.signal,
  })) {
    progress.tick();
    if (result.error?.code === JudgeErrorCode.AUTHENTICATION_FAILED) {
      // every other item would fail the same way: stop and say so once
      controller.abort();
      progress.finish();
      throw new JudgeError(JudgeErrorCode.AUTHENTICATION_FAILED, result.error.message);
    }
    const record = toRecord(result);
    const transient = result.error !== null && transientCodes.has(result.error.code);
    if (transient) incomplete.push(result);
    if (!output) printed.push(record);
    else if (!transient) {
      output.append(record);
      written.push(record);
    }
  }
  progress.finish();

  const summary = summarizeResults([...previous, ...written, ...printed]);
  printOutput({ format, printed, summary, out: options.out, written, previous });

  if (incomplete.length > 0) {
    const first = incomplete[0]?.error;
    const what = options.out
      ? 'were not written; rerun the same command to retry them'
      : 'could not be judged';
    process.stderr.write(
      `qualm: ${incomplete.length} item(s) ${what} because the endpoint failed (${first?.code}: ${first?.message})\n`,
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

async function readItems(
  path: string,
  template: Template | undefined,
): Promise<VerificationItem[]> {
  const source = path === '-' ? 'stdin' : path;
  const items: VerificationItem[] = [];
  const seen = new Map<string, number>();
  for await (const { lineNumber, value } of readJsonLines(openInput(path), { source })) {
    const parsed = inputLineSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue && issue.path.length > 0 ? issue.path.join('.') : 'line';
      throw new CliError(
        CliErrorCode.INVALID_INPUT,
        `${source}:${lineNumber} ${field}: ${issue?.message ?? 'invalid'}`,
      );
    }
    const line = parsed.data;
    const earlier = seen.get(line.id);
    if (earlier !== undefined) {
      throw new CliError(
        CliErrorCode.INVALID_INPUT,
        `${source}:${lineNumber} id "${line.id}" was already used on line ${earlier}`,
      );
    }
    seen.set(line.id, lineNumber);
    if (template && line.expected) {
      const problem = checkExpected(template.schema, line.expected);
      if (problem !== undefined) {
        throw new CliError(
          CliErrorCode.INVALID_INPUT,
          `${source}:${lineNumber} expected values do not fit the template: ${problem}`,
        );
      }
    }
    items.push({
      id: line.id,
      question: line.question,
      response: line.response,
      expected: line.expected,
      trace: line.trace as AgentTrace | undefined,
    });
  }
  return items;
}

/** A result as a line of the output. */
interface ResultRecord extends SummarizableResult {
  id: string;
  verifyResult: boolean | null;
  error: { stage: string; code: string; message: string } | null;
  [key: string]: unknown;
}

function toRecord(result: VerificationResult): ResultRecord {
  const stageUsage: Record<string, { llmCalls: number; totalTokens: number }> = {};
  for (const stage of result.stages) {
    if (stage.usage.requests > 0) {
      stageUsage[stage.stage] = { llmCalls: stage.llmCalls, totalTokens: stage.usage.totalTokens };
    }
  }
  return {
    id: result.id ?? '',
    verifyResult: result.verifyResult,
    failedStage: result.failedStage,
    error: result.error,
    abstentionCheckPerformed: result.abstentionCheckPerformed,
    abstentionDetected: result.abstentionDetected,
    abstentionReasoning: result.abstentionReasoning,
    abstentionOverrideApplied: result.abstentionOverrideApplied,
    abstentionError: result.abstentionError,
    sufficiencyCheckPerformed: result.sufficiencyCheckPerformed,
    sufficiencyDetected: result.sufficiencyDetected,
    sufficiencyReasoning: result.sufficiencyReasoning,
    sufficiencyOverrideApplied: result.sufficiencyOverrideApplied,
    sufficiencyError: result.sufficiencyError,
    sufficiencyMissingFields: result.sufficiencyMissingFields,
    parsed: result.parsed,
    verifyMismatches: result.verifyMismatches,
    ...(result.evaluationMode !== 'template_only'
      ? { rubricScores: result.rubricScores, rubricError: result.rubricError }
      : {}),
    llmCalls: result.llmCalls,
    usage: result.usage,
    stageUsage,
  };
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

function printOutput(context: {
  format: Format;
  printed: ResultRecord[];
  written: ResultRecord[];
  previous: ResultRecord[];
  summary: VerificationSummary;
  out: string | undefined;
}): void {
  const { format, printed, summary, out } = context;
  const note = out
    ? `${context.written.length} result(s) appended to ${out}, ${context.previous.length} already there`
    : undefined;
  if (format === 'json') {
    const body = out
      ? { summary, written: context.written.length, skipped: context.previous.length }
      : { results: printed, summary };
    process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
    return;
  }
  if (format === 'jsonl') {
    for (const record of printed) process.stdout.write(`${JSON.stringify(record)}\n`);
    process.stderr.write(`${summaryTable(summary)}\n`);
    if (note) process.stderr.write(`${note}\n`);
    return;
  }
  if (printed.length > 0) {
    const rows = printed.map((record) => [
      record.id,
      flag(record.verifyResult),
      String(record.failedStage ?? '-'),
      flag(record.abstentionDetected),
      flag(record.sufficiencyDetected),
      String(record.llmCalls),
    ]);
    process.stdout.write(
      `${formatTable(
        [
          { header: 'id' },
          { header: 'pass' },
          { header: 'failed stage' },
          { header: 'abstained' },
          { header: 'sufficient' },
          { header: 'calls', align: 'right' },
        ],
        rows,
      )}\n\n`,
    );
  }
  process.stdout.write(`${summaryTable(summary)}\n`);
  if (note) process.stdout.write(`${note}\n`);
}
