import { once } from 'node:events';
import { readFileSync, statSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { printable, withoutByteOrderMark } from '@qualm/errors';
import {
  defaultWorkers,
  maxWorkers,
  ParallelError,
  ParallelErrorCode,
  SummaryAccumulator,
  summarizeResultFiles,
  validateJsonLines,
  validationRecord,
  workersForSize,
} from '@qualm/parallel';
import {
  createValidator,
  type QualitySummary,
  type ResponseQuality,
  readLearnedModel,
  SIGNAL_TYPES,
  type Signal,
  type Validator,
  ValidatorError,
  type ValidatorOptions,
} from '@qualm/validator';
import { type Command, Option } from 'commander';
import { z } from 'zod';
import { CliError, CliErrorCode, INTERRUPTED_EXIT_STATUS } from '../errors.js';
import { interruptSignal } from '../interrupt.js';
import {
  columnWidths,
  given,
  inputName,
  noteTerminalInput,
  parseNumberOption,
  readChunks,
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
  workers?: string;
  fromLine?: string;
  summaryOf?: string[];
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
line has that field, a note on stderr says so: a misspelt name). Without --jsonl, an input that
looks like JSON Lines (a .jsonl or .ndjson file, or one whose first two non-empty lines are JSON
objects) is refused, exit 2, rather than scored as one response; a single JSON document (an answer
written in JSON) is text, scored as one response (from stdin if its file is named .jsonl).

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
  qualm validate big.jsonl --jsonl --format jsonl --workers 8 > results.jsonl
  qualm validate big.jsonl --jsonl --format jsonl --from-line 120001 >> results.jsonl
  qualm validate --summary-of results-*.jsonl

--patterns FILE is JSON mapping signal types to lists of patterns, each a regular-expression
source (matched in any case) or {"pattern": "...", "weight": 0.3}:
  {"refusal": ["\\\\bno can do\\\\b"], "low_confidence": [{"pattern": "ballpark", "weight": 0.2}]}
Patterns that can backtrack catastrophically are refused.

With --jsonl, the lines are validated on --workers threads (default: one per 8 MiB of the file, up
to the machine's cores, and all the cores for stdin) and the output is the same, byte for byte, on
any number of them; an input under 1 MiB stays on one thread.
For a log too big for one machine, validate each shard with --format jsonl anywhere, then sum the
result files up with --summary-of: the summary of one run over the shards in the order given.

Output streams whatever the size of the input: --format jsonl writes one record per response, in
order, with its id and input line (the --summary then goes to stderr); json writes one document;
the table sizes its columns on the first 1,000 rows. The table names each signal by its type and
the text that fired it, and a signal of the learned layer (--learned, --model) with its
probability, as in refusal (learned 0.97) "That is a matter for…"; a control character of the input
is shown escaped there (\\u001b), never written to the terminal. Binary input (an executable, an
image) is refused.

Exit status: 0, or 1 with --fail-on-escalate when any response escalates, 2 on bad input (a
missing, empty or binary file, a broken line, a line over 256 MiB, a JSON Lines input without
responses; a broken line stops the output after the lines before it, so a json document is left
unclosed, and --skip-invalid goes past it), 130 when
interrupted: Ctrl-C lets the responses under way finish, closes the output whole and says up to
which input line results were written and how to go on: the same command with --from-line N + 1
(on stdin, with the whole input piped again: lines count from its start),
its --format jsonl output appended to the first run's, gives the records one whole run would have
given, numbered by their lines in the whole input. A run's --summary counts the responses it
validated; qualm validate --summary-of on the appended records sums up the whole input.`;

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

function validatorFrom(flags: ValidateFlags): { validator: Validator; options: ValidatorOptions } {
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
  if (flags.model !== undefined && flags.model.trim() === '') {
    throw new CliError(
      CliErrorCode.INVALID_ARGUMENT,
      '--model is empty: give the path of a model file',
    );
  }
  if (flags.model === '-') {
    throw new CliError(
      CliErrorCode.INVALID_ARGUMENT,
      '--model - : a model is not read from stdin; give the path of a model file',
    );
  }
  // a model file is read here, so that a bad one stops the run before any input is read
  if (flags.model !== undefined) options.learned = { model: readLearnedModel(flags.model) };
  else if (flags.learned) options.learned = true;
  if (flags.patterns === undefined) return { validator: createValidator(options), options };
  const customPatterns = readPatterns(flags.patterns);
  if (customPatterns !== undefined) options.customPatterns = customPatterns;
  try {
    return { validator: createValidator(options), options };
  } catch (error) {
    if (error instanceof ValidatorError) {
      throw new CliError(CliErrorCode.INVALID_INPUT, `${flags.patterns}: ${error.message}`, {
        cause: error,
      });
    }
    throw error;
  }
}

// the first two non-empty lines of a JSON Lines input are JSON objects; one object alone is a
// response written in JSON, scored as text
const jsonLinesEvidence = 2;
// the start of a plain-text input is kept at most this long to tell whether it is JSON Lines
const sniffBytes = 1 << 20;

function isJsonObject(line: string): boolean {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/**
 * Whether the start of an input looks like JSON Lines: its first non-empty lines each a JSON
 * object. Undefined while `head` is not enough to say (`ended`: the input holds no more).
 */
function looksLikeJsonLines(head: string, ended: boolean): boolean | undefined {
  const text = withoutByteOrderMark(head);
  const start = text.trimStart();
  if (start === '') return ended ? false : undefined;
  if (!start.startsWith('{')) return false;
  const lines = text.split('\n');
  // a last line the input has not finished yet may be cut short
  if (!ended) lines.pop();
  let objects = 0;
  for (const line of lines) {
    if (line.trim() === '') continue;
    if (!isJsonObject(line)) return false;
    objects += 1;
    if (objects >= jsonLinesEvidence) return true;
  }
  return ended ? false : undefined;
}

const passJsonl = 'pass --jsonl to score each line as a response';

/**
 * Streams a plain-text input into the streaming validator: one response. An input that looks like
 * JSON Lines is refused: scored as one response, a whole log would pass a gate as one text.
 */
async function validateText(
  validator: Validator,
  path: string | undefined,
  onRow: (row: Row) => Promise<void> | undefined,
): Promise<void> {
  const stream = validator.stream();
  let bytes = 0;
  let head: Buffer[] | undefined = [];
  const refuse = () => {
    throw new CliError(
      CliErrorCode.INVALID_ARGUMENT,
      `${inputName(path)} looks like JSON Lines (its first lines are JSON objects): ${passJsonl}`,
    );
  };
  for await (const chunk of readChunks(path)) {
    bytes += chunk.length;
    if (head) {
      head.push(chunk);
      const verdict = looksLikeJsonLines(Buffer.concat(head).toString('utf8'), false);
      if (verdict === true) refuse();
      if (verdict === false || bytes > sniffBytes) head = undefined;
    }
    stream.push(new Uint8Array(chunk));
  }
  if (head && looksLikeJsonLines(Buffer.concat(head).toString('utf8'), true)) refuse();
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

/** What the run keeps of its results: only counts, whatever the size of the input. */
interface Tally {
  summary: SummaryAccumulator;
  escalated: number;
}

/**
 * Validates the lines of a JSON Lines input on a pool of worker threads, in input order. With
 * `--format jsonl` the workers write the records and they go out as they come; other formats get
 * each result as a row.
 */
async function validateLines(
  path: string | undefined,
  flags: ValidateFlags,
  options: { validator: ValidatorOptions; workers: number; fromLine: number },
  sink: ResultSink,
  tally: Tally,
): Promise<{ rows: number; skipped: number; withId: number; interruptedAfterLine?: number }> {
  const source = inputName(path);
  let skipped = 0;
  let withId = 0;
  // lines are numbered in the whole input, those before --from-line included
  let lines = options.fromLine - 1;
  let interruptedAfterLine: number | undefined;
  // Ctrl-C lets the chunk under way finish and go out whole, then the output is closed
  const interrupted = interruptSignal('the responses under way are finished and written');
  const progress = new Progress('validate', undefined);
  try {
    for await (const chunk of validateJsonLines(readChunks(path), {
      field: flags.field,
      ...(flags.idField !== undefined ? { idField: flags.idField } : {}),
      skipInvalid: flags.skipInvalid ?? false,
      output: flags.format === 'jsonl' ? 'jsonl' : 'rows',
      validator: options.validator,
      workers: options.workers,
      source,
      fromLine: options.fromLine,
    })) {
      tally.summary.addPacked(chunk.scores, chunk.flags);
      for (const flag of chunk.flags) tally.escalated += flag & 1;
      skipped += chunk.skipped;
      withId += chunk.withId;
      progress.tick(chunk.scores.length);
      // a slow reader of the output holds the input back, so memory stays flat
      if (flags.format === 'jsonl') await writeBytesAndWait(chunk.jsonl);
      for (const row of chunk.rows) {
        const written = sink.take(row);
        if (written) await written;
      }
      lines += chunk.lines;
      if (interrupted.aborted) {
        interruptedAfterLine = lines;
        break;
      }
    }
  } catch (error) {
    // a line that is not valid stops the run after the lines before it: say how to go past it
    if (
      ParallelError.isInstance(error) &&
      error.code === ParallelErrorCode.INVALID_INPUT &&
      !flags.skipInvalid
    ) {
      throw new CliError(
        CliErrorCode.INVALID_INPUT,
        `${error.message}; the output stops before it (--skip-invalid skips such lines)`,
        { cause: error },
      );
    }
    throw error;
  }
  progress.finish();
  if (progress.count === 0) {
    throw new CliError(
      CliErrorCode.NOTHING_TO_DO,
      options.fromLine > 1 && skipped === 0
        ? `${source} holds no responses from line ${options.fromLine} on (--from-line): it ends before that line, or only blank lines follow`
        : `${source} holds no responses${options.fromLine > 1 ? ` from line ${options.fromLine} on` : ''}${skipped > 0 ? ` (${skippedLines(skipped)})` : ''}: each line should be a JSON object with the text in "${flags.field}"`,
    );
  }
  return {
    rows: progress.count,
    skipped,
    withId,
    ...(interruptedAfterLine !== undefined ? { interruptedAfterLine } : {}),
  };
}

/**
 * A signal as the table shows it: its type and evidence, and a learned signal's probability next
 * to its type (before the evidence, which may be cut short).
 */
function signalCell(signal: Signal): string {
  const learned =
    signal.source === 'learned' ? ` (learned ${(signal.probability ?? 0).toFixed(2)})` : '';
  return `${signal.type}${learned} "${signal.evidence}"`;
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

const writeBytesAndWait = async (bytes: Uint8Array): Promise<void> => {
  if (bytes.byteLength > 0 && !process.stdout.write(bytes)) await once(process.stdout, 'drain');
};

// the records of --format jsonl, as @qualm/parallel writes them (a plain text's record too)
function jsonlSink(): ResultSink {
  return {
    take: (row) =>
      writeAndWait(`${JSON.stringify(validationRecord(row.id, row.result, row.line))}\n`),
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
  // the input's own text is escaped (\u001b for ESC), so a cell cannot move the cursor or colour
  // the terminal; the jsonl and json formats are escaped by JSON already
  const cells = (row: Row) => [
    printable(String(row.id ?? row.line ?? number)),
    row.result.score.toFixed(2),
    row.result.shouldEscalate ? 'yes' : 'no',
    printable(row.result.signals.map(signalCell).join(', ') || '-', 90),
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

/** A summary with its average score rounded to 4 decimals, for the JSON output. */
function rounded(summary: QualitySummary): QualitySummary {
  return { ...summary, averageScore: Math.round(summary.averageScore * 10_000) / 10_000 };
}

/** "1 invalid line skipped", "3 invalid lines skipped" */
const skippedLines = (count: number) => `${count} invalid line${count === 1 ? '' : 's'} skipped`;

function summaryText(summary: QualitySummary, skipped: number, fromLine = 1): string {
  const issues =
    summary.commonIssues.map((issue) => `${issue.type} ${issue.count}`).join(', ') || 'none';
  const notes = [
    ...(fromLine > 1 ? [`from line ${fromLine} on`] : []),
    ...(skipped > 0 ? [skippedLines(skipped)] : []),
  ];
  return [
    `responses: ${summary.total}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`,
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
      new Option(
        '--lead-length <n>',
        'characters of opening where refusals count (a part declined after an answer counts further on)',
      ).default(undefined, '400'),
    )
    .option('--patterns <file>', 'JSON file of extra patterns per signal type')
    .option('--learned', 'add the learned signal of the model that ships with qualm')
    .option('--model <file>', 'add the learned signals of a model made by qualm train')
    .option('--summary', 'print the average score, escalation rate and common issues')
    .option('--fail-on-escalate', 'exit 1 when any response escalates (for CI gates)')
    .option('--skip-invalid', 'with --jsonl: skip lines that are not valid and count them')
    .option(
      '--from-line <n>',
      'with --jsonl: validate from input line N on, numbered as in the whole input (to go on after Ctrl-C)',
    )
    .addOption(
      new Option(
        '--workers <n>',
        'with --jsonl: threads that validate, at most 4 × the cores',
      ).default(
        undefined,
        `one per 8 MiB of FILE, up to the ${defaultWorkers()} cores; all of them for stdin`,
      ),
    )
    .option(
      '--summary-of <results...>',
      'sum up result files of --format jsonl (one per shard) instead of validating',
    )
    .addHelpText('after', example)
    .action(async (file: string | undefined, flags: ValidateFlags, command: Command) => {
      if (flags.summaryOf !== undefined) {
        await summarizeResults(file, flags, command);
        return;
      }
      const jsonl = { applies: flags.jsonl === true, because: 'without --jsonl' };
      rejectUselessFlags(command, [
        { option: 'field', flag: '--field', ...jsonl },
        { option: 'idField', flag: '--id-field', ...jsonl },
        { option: 'skipInvalid', flag: '--skip-invalid', ...jsonl },
        { option: 'workers', flag: '--workers', ...jsonl },
        { option: 'fromLine', flag: '--from-line', ...jsonl },
      ]);
      const fromLine =
        flags.fromLine === undefined
          ? 1
          : parseNumberOption('--from-line', flags.fromLine, {
              min: 1,
              max: Number.MAX_SAFE_INTEGER,
              integer: true,
            });
      const workers =
        flags.workers === undefined
          ? workersForInput(file)
          : parseNumberOption('--workers', flags.workers, {
              min: 1,
              max: maxWorkers(),
              integer: true,
            });
      if (!flags.jsonl && file !== undefined && /\.(jsonl|ndjson)$/i.test(file)) {
        throw new CliError(
          CliErrorCode.INVALID_ARGUMENT,
          `${file} looks like JSON Lines (its name ends in ${extname(file)}): ${passJsonl}`,
        );
      }
      const { validator, options } = validatorFrom(flags);
      noteTerminalInput(file, 'responses');
      const sink =
        flags.format === 'jsonl'
          ? jsonlSink()
          : flags.format === 'json'
            ? jsonSink()
            : tableSink(given(command, 'idField') ? 'id' : '#');
      // only counts are kept of the results, whatever the size of the input
      const tally: Tally = { summary: new SummaryAccumulator(), escalated: 0 };
      let rows = 1;
      let skipped = 0;
      let withId = 0;
      let interruptedAfterLine: number | undefined;
      if (flags.jsonl) {
        ({ rows, skipped, withId, interruptedAfterLine } = await validateLines(
          file,
          flags,
          { validator: options, workers, fromLine },
          sink,
          tally,
        ));
      } else {
        await validateText(validator, file, (row) => {
          tally.summary.add(
            row.result.score,
            row.result.shouldEscalate,
            row.result.signals.map((signal) => signal.type),
          );
          if (row.result.shouldEscalate) tally.escalated += 1;
          return sink.take(row);
        });
      }
      const summary = flags.summary ? tally.summary.summary() : undefined;
      sink.end(
        summary ? summaryText(summary, skipped, fromLine) : undefined,
        summary
          ? { ...rounded(summary), skipped, ...(fromLine > 1 ? { fromLine } : {}) }
          : undefined,
      );
      if (flags.idField !== undefined && withId === 0) {
        process.stderr.write(
          `qualm: no line has the field "${flags.idField}" given with --id-field, so no result has an id (each carries its line number)\n`,
        );
      }
      if (skipped > 0 && !flags.summary) {
        process.stderr.write(`qualm: skipped ${skipped} invalid line${skipped === 1 ? '' : 's'}\n`);
      }
      if (interruptedAfterLine !== undefined) {
        // lines are counted from the start of the input: a pipe must be given again from its start
        const how =
          file === undefined || file === '-'
            ? 'pipe the whole input again, from its first line, into the same command with'
            : 'run the same command with';
        process.stderr.write(
          `qualm: interrupted: ${rows} response${rows === 1 ? '' : 's'} validated and written, up to line ${interruptedAfterLine} of ${inputName(file)}${flags.summary ? ' (the summary counts them alone)' : ''}; to go on, ${how} --from-line ${interruptedAfterLine + 1}${flags.format === 'jsonl' ? ` and append its output to this one${flags.summary ? ' (then --summary-of on the whole sums it all up)' : ''}` : ''}\n`,
        );
        process.exitCode = INTERRUPTED_EXIT_STATUS;
        return;
      }
      if (flags.failOnEscalate && tally.escalated > 0) {
        process.stderr.write(
          `qualm: ${tally.escalated} of ${rows} responses escalate (--fail-on-escalate)\n`,
        );
        process.exitCode = 1;
      }
    });
}

/** `qualm validate --summary-of FILE…`: the summary of result files, as one run over their inputs. */
async function summarizeResults(
  file: string | undefined,
  flags: ValidateFlags,
  command: Command,
): Promise<void> {
  if (file !== undefined) {
    throw new CliError(
      CliErrorCode.INVALID_ARGUMENT,
      `--summary-of reads result files in place of an input: drop ${file}, or add it to --summary-of`,
    );
  }
  const validating = { applies: false, because: 'with --summary-of (it reads results)' };
  rejectUselessFlags(command, [
    { option: 'jsonl', flag: '--jsonl', ...validating },
    { option: 'field', flag: '--field', ...validating },
    { option: 'idField', flag: '--id-field', ...validating },
    { option: 'skipInvalid', flag: '--skip-invalid', ...validating },
    { option: 'workers', flag: '--workers', ...validating },
    { option: 'fromLine', flag: '--from-line', ...validating },
    { option: 'strict', flag: '--strict', ...validating },
    { option: 'minLength', flag: '--min-length', ...validating },
    { option: 'leadLength', flag: '--lead-length', ...validating },
    { option: 'patterns', flag: '--patterns', ...validating },
    { option: 'learned', flag: '--learned', ...validating },
    { option: 'model', flag: '--model', ...validating },
  ]);
  const paths = flags.summaryOf ?? [];
  // a file given twice (overlapping globs) would count its results twice
  const seen = new Map<string, string>();
  for (const path of paths) {
    const key = path === '-' ? '-' : resolve(path);
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      throw new CliError(
        CliErrorCode.INVALID_ARGUMENT,
        `--summary-of names ${inputName(path)} twice${earlier === path ? '' : ` (as ${earlier})`}: its results would count twice`,
      );
    }
    seen.set(key, path);
  }
  const { summary, files } = await summarizeResultFiles(
    paths.map((path) => ({ name: inputName(path), content: readChunks(path) })),
  );
  if (flags.format === 'table') {
    process.stdout.write(
      `${files.map((entry) => `${entry.name}: ${entry.records} results`).join('\n')}\n\n${summaryText(summary, 0)}\n`,
    );
  } else {
    const document = { summary: rounded(summary), files };
    process.stdout.write(
      flags.format === 'json'
        ? `${JSON.stringify(document, null, 2)}\n`
        : `${JSON.stringify(document)}\n`,
    );
  }
  if (flags.failOnEscalate && summary.escalated > 0) {
    process.stderr.write(
      `qualm: ${summary.escalated} of ${summary.total} responses escalate (--fail-on-escalate)\n`,
    );
    process.exitCode = 1;
  }
}

/**
 * The default number of workers: one per 8 MiB of a file, up to the cores (each worker costs about
 * as much to start as a few MB take to validate); every core for stdin, whose size is unknown.
 */
function workersForInput(file: string | undefined): number {
  if (file === undefined || file === '-') return defaultWorkers();
  try {
    const stats = statSync(file);
    return stats.isFile() ? workersForSize(stats.size) : defaultWorkers();
  } catch {
    // a missing file is reported where it is opened, with the message every command gives
    return defaultWorkers();
  }
}
