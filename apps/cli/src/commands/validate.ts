import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import {
  createValidator,
  getQualitySummary,
  type QualitySummary,
  type ResponseQuality,
  readLearnedModel,
  SIGNAL_TYPES,
  type SummarizableResult,
  type Validator,
  ValidatorError,
  type ValidatorOptions,
} from '@qualm/validator';
import { type Command, Option } from 'commander';
import { z } from 'zod';
import { CliError, CliErrorCode } from '../errors.js';
import {
  columnWidths,
  given,
  inputName,
  noteTerminalInput,
  parseNumberOption,
  readChunks,
  readJsonLines,
  rejectUselessFlags,
  tableLine,
} from '../io.js';
import { Progress } from '../progress.js';

interface ValidateFlags {
  jsonl?: boolean;
  field: string;
  idField?: string;
  format: 'table' | 'json' | 'jsonl';
  strict?: boolean;
  minLength?: string;
  leadLength?: string;
  patterns?: string;
  summary?: boolean;
  failOnEscalate?: boolean;
  skipInvalid?: boolean;
  learned?: boolean;
  model?: string;
}

/** One assessed response and where it came from. */
interface Row {
  id: string | number | undefined;
  line: number | undefined;
  result: ResponseQuality;
}

const example = `
A plain-text input is one response, read as a stream. With --jsonl, each line is a JSON object
whose --field holds the response text; --id-field names a field to report each result by (when no
line has that field, a note on stderr says so: a misspelt name).

An empty input (a file of 0 bytes, or nothing on stdin) is no response, as an empty --jsonl file
holds none: exit 2, nothing to score. A plain-text response of blanks is text, and is scored as an
empty response; so is {"response": ""} in JSON Lines.

Examples:
  qualm validate answer.txt
  qualm validate examples/responses.jsonl --jsonl --id-field id --summary
  cat responses.jsonl | qualm validate - --jsonl --format jsonl --fail-on-escalate
  qualm validate answers.jsonl --jsonl --patterns my-patterns.json --strict
  qualm validate answers.jsonl --jsonl --learned
  qualm validate answers.jsonl --jsonl --model support.qlm

--patterns FILE is JSON mapping signal types to lists of patterns, each a regular-expression
source (matched in any case) or {"pattern": "...", "weight": 0.3}:
  {"refusal": ["\\\\bno can do\\\\b"], "low_confidence": [{"pattern": "ballpark", "weight": 0.2}]}
Patterns that can backtrack catastrophically are refused.

Output streams whatever the size of the input: --format jsonl writes one result per input line, in
order (the --summary then goes to stderr); json writes one document; the table sizes its columns on
the first 1,000 rows. Binary input (an executable, an image) is refused.

Exit status: 0, or 1 with --fail-on-escalate when any response escalates, 2 on bad input (a
missing, empty or binary file, a broken line, a JSON Lines input without responses).`;

const patternEntry = z.union([
  z.string().min(1),
  z
    .object({
      pattern: z.string().min(1),
      weight: z.number().min(0).max(1).optional(),
      region: z.enum(['anywhere', 'lead']).optional(),
    })
    .strict(),
]);
const patternsFile = z.partialRecord(z.enum(SIGNAL_TYPES), z.array(patternEntry));

function formatIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(top)'}: ${issue.message}`)
    .join('; ');
}

/** Reads and checks a --patterns file. */
function readPatterns(path: string): ValidatorOptions['customPatterns'] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(
      code === 'ENOENT' ? CliErrorCode.FILE_NOT_FOUND : CliErrorCode.INVALID_ARGUMENT,
      code === 'ENOENT' ? `patterns file not found: ${path}` : `cannot read ${path}: ${code}`,
      { cause: error },
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError(
      CliErrorCode.INVALID_INPUT,
      `${path} is not valid JSON (${(error as Error).message})`,
      { cause: error },
    );
  }
  const parsed = patternsFile.safeParse(value);
  if (!parsed.success) {
    throw new CliError(
      CliErrorCode.INVALID_INPUT,
      `${path}: ${formatIssues(parsed.error)} (expected {"<signal type>": [pattern, …]} with types ${SIGNAL_TYPES.join(', ')})`,
    );
  }
  return parsed.data;
}

function validatorFrom(flags: ValidateFlags): Validator {
  const options: ValidatorOptions = {};
  if (flags.strict) options.strictMode = true;
  if (flags.minLength !== undefined) {
    options.minLength = parseNumberOption('--min-length', flags.minLength, {
      min: 0,
      integer: true,
    });
  }
  if (flags.leadLength !== undefined) {
    options.leadLength = parseNumberOption('--lead-length', flags.leadLength, {
      min: 0,
      integer: true,
    });
  }
  if (flags.model !== undefined && flags.learned) {
    throw new CliError(CliErrorCode.INVALID_ARGUMENT, '--learned and --model: give one of them');
  }
  // a model file is read here, so that a bad one stops the run before any input is read
  if (flags.model !== undefined) options.learned = { model: readLearnedModel(flags.model) };
  else if (flags.learned) options.learned = true;
  if (flags.patterns === undefined) return createValidator(options);
  const customPatterns = readPatterns(flags.patterns);
  if (customPatterns !== undefined) options.customPatterns = customPatterns;
  try {
    return createValidator(options);
  } catch (error) {
    if (error instanceof ValidatorError) {
      throw new CliError(CliErrorCode.INVALID_INPUT, `${flags.patterns}: ${error.message}`, {
        cause: error,
      });
    }
    throw error;
  }
}

const lineShape = (field: string, idField: string | undefined) =>
  z.object({
    [field]: z.string({ error: `the field "${field}" must hold the response text as a string` }),
    ...(idField !== undefined
      ? {
          [idField]: z
            .union([z.string(), z.number()], {
              error: `the field "${idField}" must be a string or a number`,
            })
            .optional(),
        }
      : {}),
  });

/** Streams a plain-text input into the streaming validator: one response. */
async function validateText(
  validator: Validator,
  path: string | undefined,
  onRow: (row: Row) => Promise<void> | undefined,
): Promise<void> {
  const stream = validator.stream();
  let bytes = 0;
  for await (const chunk of readChunks(path)) {
    bytes += chunk.length;
    stream.push(new Uint8Array(chunk));
  }
  if (bytes === 0) {
    // no bytes at all is no response, as an empty --jsonl file holds none: most often a missing
    // file argument or an empty pipe; a response of blanks is text, scored as an empty response
    throw new CliError(
      CliErrorCode.NOTHING_TO_DO,
      `${inputName(path)} is empty: no response to score${path === undefined ? ' (give a file, or pipe the response in)' : ''}`,
    );
  }
  await onRow({ id: undefined, line: undefined, result: stream.end() });
}

/** Validates each line of a JSON Lines input as it is read. */
async function validateLines(
  validator: Validator,
  path: string | undefined,
  flags: ValidateFlags,
  onRow: (row: Row) => Promise<void> | undefined,
): Promise<{ rows: number; skipped: number; withId: number }> {
  const source = inputName(path);
  const skipped = { count: 0 };
  let withId = 0;
  const shape = lineShape(flags.field, flags.idField);
  const progress = new Progress('validate', undefined);
  for await (const { lineNumber, value } of readJsonLines(path, {
    skipInvalid: flags.skipInvalid ?? false,
    skipped,
  })) {
    const parsed = shape.safeParse(value);
    if (!parsed.success) {
      if (flags.skipInvalid) {
        skipped.count += 1;
        continue;
      }
      throw new CliError(
        CliErrorCode.INVALID_INPUT,
        `${source}:${lineNumber} ${formatIssues(parsed.error)}`,
      );
    }
    const record = parsed.data as Record<string, unknown>;
    const id = flags.idField !== undefined ? record[flags.idField] : undefined;
    if (id !== undefined) withId += 1;
    const written = onRow({
      id: typeof id === 'string' || typeof id === 'number' ? id : undefined,
      line: lineNumber,
      result: validator.validate(record[flags.field] as string),
    });
    progress.tick();
    // a slow reader of the output holds the input back, so memory stays flat
    if (written) await written;
  }
  progress.finish();
  if (progress.count === 0) {
    throw new CliError(
      CliErrorCode.NOTHING_TO_DO,
      `${source} holds no responses${skipped.count > 0 ? ` (${skipped.count} invalid line${skipped.count === 1 ? '' : 's'} skipped)` : ''}: each line should be a JSON object with the text in "${flags.field}"`,
    );
  }
  return { rows: progress.count, skipped: skipped.count, withId };
}

/** The fields of a result that `--format jsonl` writes. */
function jsonlRecord(row: Row) {
  return {
    ...(row.id !== undefined ? { id: row.id } : {}),
    score: row.result.score,
    shouldEscalate: row.result.shouldEscalate,
    signals: row.result.signals.map(
      ({ type, evidence, weight, position, source, probability }) => ({
        type,
        evidence,
        weight,
        position,
        source,
        probability,
      }),
    ),
    reason: row.result.reason,
    assessmentConfidence: row.result.assessmentConfidence,
  };
}

function shorten(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

/**
 * Where results go as they are made: one row at a time (a promise when the output is full and
 * the next row should wait for it to drain), then the end of the output.
 */
interface ResultSink {
  take(row: Row): Promise<void> | undefined;
  /** Ends the output; `summary` is what the document or the table ends with, if anything. */
  end(summary: string | undefined, document: Record<string, unknown> | undefined): void;
}

const write = (text: string) => process.stdout.write(text);

// writes, and when that filled the output, resolves once it has room again: the caller waits
const writeAndWait = (text: string): Promise<void> | undefined =>
  write(text) ? undefined : once(process.stdout, 'drain').then(() => undefined);

function jsonlSink(): ResultSink {
  return {
    take: (row) => writeAndWait(`${JSON.stringify(jsonlRecord(row))}\n`),
    end: (summary) => {
      if (summary !== undefined) process.stderr.write(`${summary}\n`);
    },
  };
}

// the same bytes as JSON.stringify({results, summary}, null, 2), written one result at a time
function jsonSink(): ResultSink {
  let count = 0;
  const indent = (text: string, spaces: string) => text.replaceAll('\n', `\n${spaces}`);
  return {
    take(row) {
      const result = {
        ...(row.id !== undefined ? { id: row.id } : {}),
        ...(row.line !== undefined ? { line: row.line } : {}),
        ...row.result,
      };
      const written = writeAndWait(
        `${count === 0 ? '{\n  "results": [\n' : ',\n'}    ${indent(JSON.stringify(result, null, 2), '    ')}`,
      );
      count += 1;
      return written;
    },
    end(_summary, document) {
      write(count === 0 ? '{\n  "results": []' : '\n  ]');
      if (document) write(`,\n  "summary": ${indent(JSON.stringify(document, null, 2), '  ')}`);
      write('\n}\n');
    },
  };
}

// the first rows set the column widths; after them, rows stream with those widths
const tableSizingRows = 1_000;

function tableSink(idHeader: string): ResultSink {
  const columns = [
    { header: idHeader },
    { header: 'score', align: 'right' as const },
    { header: 'escalate' },
    { header: 'signals' },
  ];
  let number = 0;
  let widths: number[] | undefined;
  const waiting: string[][] = [];
  const cells = (row: Row) => [
    String(row.id ?? row.line ?? number),
    row.result.score.toFixed(2),
    row.result.shouldEscalate ? 'yes' : 'no',
    shorten(
      row.result.signals.map((signal) => `${signal.type} "${signal.evidence}"`).join(', ') || '-',
      90,
    ),
  ];
  const start = () => {
    widths = columnWidths(columns, waiting);
    const sized = widths;
    write(
      `${tableLine(
        columns,
        sized,
        columns.map((column) => column.header),
      )}\n`,
    );
    write(
      `${tableLine(
        columns,
        sized,
        sized.map((width) => '-'.repeat(width)),
      )}\n`,
    );
    for (const waitingCells of waiting) write(`${tableLine(columns, sized, waitingCells)}\n`);
    waiting.length = 0;
  };
  return {
    take(row) {
      number += 1;
      if (widths) return writeAndWait(`${tableLine(columns, widths, cells(row))}\n`);
      waiting.push(cells(row));
      if (waiting.length >= tableSizingRows) start();
      return undefined;
    },
    end(summary) {
      if (!widths) start();
      if (summary !== undefined) write(`\n${summary}\n`);
    },
  };
}

function summaryText(summary: QualitySummary, skipped: number): string {
  const issues =
    summary.commonIssues.map((issue) => `${issue.type} ${issue.count}`).join(', ') || 'none';
  return [
    `responses: ${summary.total}${skipped > 0 ? ` (${skipped} invalid lines skipped)` : ''}`,
    `escalated: ${summary.escalated} (${(summary.escalationRate * 100).toFixed(1)}%)`,
    `average score: ${summary.averageScore.toFixed(3)}`,
    `common issues: ${issues}`,
  ].join('\n');
}

/** Registers `qualm validate`. */
export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description(
      'Score responses for refusals, hedging, tool errors, empty and incomplete answers.',
    )
    .argument('[file]', 'a text file (one response) or, with --jsonl, JSON Lines; - for stdin')
    .option('--jsonl', 'read one JSON object per line')
    .option('--field <name>', 'with --jsonl: the field holding the response text', 'response')
    .option('--id-field <name>', 'with --jsonl: a field identifying each response')
    .addOption(
      new Option('--format <format>', 'output format')
        .choices(['table', 'json', 'jsonl'])
        .default('table'),
    )
    .option('--strict', 'escalate below a score of 0.75 instead of 0.7')
    .addOption(
      new Option('--min-length <n>', 'shorter trimmed responses are empty').default(
        undefined,
        '20',
      ),
    )
    .addOption(
      new Option('--lead-length <n>', 'characters of opening where refusals count').default(
        undefined,
        '400',
      ),
    )
    .option('--patterns <file>', 'JSON file of extra patterns per signal type')
    .option('--learned', 'add the learned signal of the model that ships with qualm')
    .option('--model <file>', 'add the learned signals of a model made by qualm train')
    .option('--summary', 'print the average score, escalation rate and common issues')
    .option('--fail-on-escalate', 'exit 1 when any response escalates (for CI gates)')
    .option('--skip-invalid', 'with --jsonl: skip lines that are not valid and count them')
    .addHelpText('after', example)
    .action(async (file: string | undefined, flags: ValidateFlags, command: Command) => {
      const jsonl = { applies: flags.jsonl === true, because: 'without --jsonl' };
      rejectUselessFlags(command, [
        { option: 'field', flag: '--field', ...jsonl },
        { option: 'idField', flag: '--id-field', ...jsonl },
        { option: 'skipInvalid', flag: '--skip-invalid', ...jsonl },
      ]);
      const validator = validatorFrom(flags);
      noteTerminalInput(file, 'responses');
      const sink =
        flags.format === 'jsonl'
          ? jsonlSink()
          : flags.format === 'json'
            ? jsonSink()
            : tableSink(given(command, 'idField') ? 'id' : '#');
      // only what the summary needs is kept of each result, and only when a summary is asked for
      const tallies: SummarizableResult[] = [];
      let escalated = 0;
      const take = (row: Row): Promise<void> | undefined => {
        if (row.result.shouldEscalate) escalated += 1;
        if (flags.summary) {
          tallies.push({
            score: row.result.score,
            shouldEscalate: row.result.shouldEscalate,
            signals: row.result.signals.map(({ type }) => ({ type })),
          });
        }
        return sink.take(row);
      };
      let rows = 1;
      let skipped = 0;
      let withId = 0;
      if (flags.jsonl) {
        ({ rows, skipped, withId } = await validateLines(validator, file, flags, take));
      } else await validateText(validator, file, take);
      const summary = flags.summary ? getQualitySummary(tallies) : undefined;
      sink.end(
        summary ? summaryText(summary, skipped) : undefined,
        summary ? { ...summary, skipped } : undefined,
      );
      if (flags.idField !== undefined && withId === 0) {
        process.stderr.write(
          `qualm: no line has the field "${flags.idField}" given with --id-field, so no result has an id (the table shows line numbers)\n`,
        );
      }
      if (skipped > 0 && !flags.summary) {
        process.stderr.write(`qualm: skipped ${skipped} invalid line${skipped === 1 ? '' : 's'}\n`);
      }
      if (flags.failOnEscalate && escalated > 0) {
        process.stderr.write(
          `qualm: ${escalated} of ${rows} responses escalate (--fail-on-escalate)\n`,
        );
        process.exitCode = 1;
      }
    });
}
