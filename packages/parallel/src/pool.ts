import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createValidator, type ValidatorOptions } from '@qualm/validator';
import { Piscina } from 'piscina';
import { type ChunkOutcome, countLineBreaks, type LineOptions, validateChunk } from './chunk.js';
import { ParallelError, ParallelErrorCode } from './errors.js';
import type { WorkerSetup, WorkerTask } from './worker.js';

/** Options of {@link validateJsonLines}. */
export interface ValidateJsonLinesOptions extends LineOptions {
  /** Validator options: plain data (patterns as sources), since they travel to the workers. */
  validator?: ValidatorOptions;
  /**
   * Threads that validate (default: the machine's cores). 1 validates on the calling thread; an
   * input that fits in one chunk is validated there too, without starting threads.
   */
  workers?: number;
  /** Bytes of input per task (default 1 MiB); a line longer than this makes its chunk longer. */
  chunkBytes?: number;
  /**
   * The longest line read (default 256 MiB): a longer one ends the run with a LINE_TOO_LONG error
   * naming it, rather than a string too long for the JavaScript engine (about 512 MiB).
   */
  maxLineBytes?: number;
  /** The input's name in error messages (default `input`). */
  source?: string;
  /**
   * The first line to validate (default 1): the lines before it are read past, not validated, and
   * the lines from it keep their numbers in the input, so a run stopped after line N goes on with
   * `fromLine: N + 1` and its records follow the first run's.
   */
  fromLine?: number;
}

/** One validated chunk, in input order, with line numbers counted over the whole input. */
export interface ValidatedChunk extends ChunkOutcome {
  /** Bytes of input the chunk held. */
  bytes: number;
}

const DEFAULT_CHUNK_BYTES = 1024 * 1024;
const DEFAULT_MAX_LINE_BYTES = 256 * 1024 * 1024;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/** The machine's cores, the default number of workers. */
export function defaultWorkers(): number {
  return availableParallelism();
}

/** Bytes of input that keep one worker busy long enough to pay for starting it. */
export const BYTES_PER_WORKER = 8 * 1024 * 1024;

/**
 * Workers for an input of a known size: one per 8 MiB, at least one and at most the machine's
 * cores. Each worker compiles its own validator and warms up its own regular expressions, which
 * costs about as much as validating a few MB; below that one thread is faster (on 2 cores, a 5 MB
 * log took 2.5 s on one worker and 3.3 s on two, a 30 MB log 7.5 s and 6 s).
 */
export function workersForSize(bytes: number, cores = defaultWorkers()): number {
  return Math.max(1, Math.min(cores, Math.floor(bytes / BYTES_PER_WORKER)));
}

/**
 * The most workers a run may start: 4 × the machine's cores. Each thread holds its own validator
 * and heap (about 100 MB), and past the cores more threads only share them.
 */
export function maxWorkers(): number {
  return 4 * availableParallelism();
}

/**
 * Validates a JSON Lines input (bytes, as a file stream gives them) on a pool of worker threads and
 * yields each chunk's results in input order. Memory stays bounded: at most two chunks per worker
 * are read ahead. Every number of workers gives the same results, byte for byte. The first line
 * that is not valid (unless `skipInvalid`) ends the run with an INVALID_INPUT error naming
 * `source:line`, after the chunk that holds the lines before it.
 */
export async function* validateJsonLines(
  input: AsyncIterable<Uint8Array | string>,
  options: ValidateJsonLinesOptions = {},
): AsyncGenerator<ValidatedChunk> {
  const workers = options.workers ?? defaultWorkers();
  const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  atLeastOne('workers', workers);
  if (workers > maxWorkers()) {
    throw new ParallelError(
      ParallelErrorCode.INVALID_OPTIONS,
      `workers must be at most ${maxWorkers()} (4 × the machine's ${availableParallelism()} cores), got ${workers}`,
    );
  }
  atLeastOne('chunkBytes', chunkBytes);
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  atLeastOne('maxLineBytes', maxLineBytes);
  const fromLine = options.fromLine ?? 1;
  // a line number is counted on: past 2^53 it could no longer be told from the next
  atLeastOne('fromLine', fromLine, Number.isSafeInteger);
  const source = options.source ?? 'input';
  const lineOptions: LineOptions = {
    field: options.field ?? 'response',
    ...(options.idField !== undefined ? { idField: options.idField } : {}),
    skipInvalid: options.skipInvalid ?? false,
    output: options.output ?? 'jsonl',
  };
  // the calling thread's validator also checks the options before any thread starts
  const validator = createValidator(options.validator);
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const encoder = new TextEncoder();
  const inline = (task: WorkerTask): ChunkOutcome =>
    validateChunk(validator, decoder.decode(task.bytes), {
      ...lineOptions,
      last: task.last,
      linesBefore: task.linesBefore,
    });

  let pool: Piscina | undefined;
  const waiting = new Set<(error: unknown) => void>();
  const pending: Promise<ChunkOutcome>[] = [];
  const sizes: number[] = [];
  // lines of the chunks dispatched so far: each chunk numbers its lines from there
  let linesDispatched = fromLine - 1;

  const dispatch = (task: WorkerTask) => {
    sizes.push(task.bytes.byteLength);
    // one worker is this thread; so is an input that fits in one chunk (no thread is started)
    if (workers === 1 || (task.last && pool === undefined)) {
      pending.push(Promise.resolve(inline(task)));
      return;
    }
    if (pool === undefined) {
      const execArgv = withoutConditions(process.execArgv);
      try {
        pool = new Piscina({
          filename: workerFile(),
          minThreads: workers,
          maxThreads: workers,
          // the workers run built code: a source condition of the parent (tests, tsx) would send
          // their imports to TypeScript files; other flags are inherited as Node does by default
          ...(execArgv.length < process.execArgv.length ? { execArgv } : {}),
          workerData: {
            validator: options.validator ?? {},
            lines: lineOptions,
          } satisfies WorkerSetup,
        });
      } catch (error) {
        throw new ParallelError(
          ParallelErrorCode.WORKER_FAILED,
          `the validation workers could not start: ${(error as Error).message}`,
          { cause: error },
        );
      }
      // a worker that cannot start or crashes fails the run instead of leaving it waiting
      pool.once('error', (error: unknown) => {
        for (const reject of waiting) reject(error);
      });
    }
    const run = pool.run(task, { transferList: [task.bytes.buffer as ArrayBuffer] });
    // not Promise.race with a promise that never settles: each race would stay reachable from it
    const outcome = new Promise<ChunkOutcome>((resolve, reject) => {
      waiting.add(reject);
      run.then(resolve, reject).finally(() => waiting.delete(reject));
    }).catch((error: unknown) => {
      throw new ParallelError(
        ParallelErrorCode.WORKER_FAILED,
        `a validation worker failed: ${(error as Error).message}`,
        { cause: error },
      );
    }) as Promise<ChunkOutcome>;
    // a failure is reported when its turn comes, not as an unhandled rejection before
    outcome.catch(() => {});
    pending.push(outcome);
  };

  // the next chunk in input order
  const next = async (): Promise<ValidatedChunk> => {
    const outcome = await pending.shift()!;
    return { ...outcome, bytes: sizes.shift()! };
  };

  const emit = function* (chunk: ValidatedChunk): Generator<ValidatedChunk> {
    yield chunk;
    if (chunk.failure) {
      throw new ParallelError(
        ParallelErrorCode.INVALID_INPUT,
        `${source}:${chunk.failure.line} ${chunk.failure.problem}`,
      );
    }
  };

  try {
    // what is held never contains a line break before its last piece: each cut takes them all
    const pieces: Uint8Array[] = [];
    let held = 0;
    // bytes of the line under way: those after the last line break held
    let lineBytes = 0;
    const from = fromLine > 1 ? afterLines(input, fromLine - 1) : input;
    for await (const piece of from) {
      const bytes = typeof piece === 'string' ? encoder.encode(piece) : piece;
      if (bytes.byteLength === 0) continue;
      pieces.push(bytes);
      held += bytes.byteLength;
      // each search once: the piece's line breaks (a \r is sought again only where there is one)
      const lastNewline = bytes.lastIndexOf(NEWLINE);
      const firstReturn = bytes.indexOf(CARRIAGE_RETURN);
      const firstBreak = earliest(lastNewline === -1 ? -1 : bytes.indexOf(NEWLINE), firstReturn);
      const lastBreak =
        firstReturn === -1
          ? lastNewline
          : Math.max(lastNewline, bytes.lastIndexOf(CARRIAGE_RETURN));
      // the line under way, up to this piece's first break (where it ends) or through the piece
      const ended = firstBreak !== -1;
      if (lineBytes + (ended ? firstBreak : bytes.byteLength) > maxLineBytes) {
        // the lines before it are validated and given first, as before a line that is not valid
        while (pending.length > 0) yield* emit(await next());
        const line = linesDispatched + lineBreaksIn(ended ? pieces.slice(0, -1) : pieces) + 1;
        throw new ParallelError(
          ParallelErrorCode.LINE_TOO_LONG,
          `${source}:${line} is longer than ${megabytes(maxLineBytes)}: too long to read as one JSON value`,
        );
      }
      lineBytes = ended ? bytes.byteLength - lastBreak - 1 : lineBytes + bytes.byteLength;
      if (held < chunkBytes) continue;
      const at = lastNewline;
      // a line longer than a chunk waits for its end
      if (at === -1) continue;
      // one copy: the chunk's own buffer, which moves to a worker; the rest stays a view
      const rest = bytes.subarray(at + 1);
      pieces[pieces.length - 1] = bytes.subarray(0, at + 1);
      const chunk = join(pieces, held - rest.byteLength);
      pieces.length = 0;
      held = rest.byteLength;
      if (held > 0) pieces.push(rest);
      const linesBefore = linesDispatched;
      // counted before the chunk's buffer moves to a worker
      linesDispatched += countLineBreaks(chunk);
      dispatch({ bytes: chunk, last: false, linesBefore });
      while (pending.length > 2 * workers) yield* emit(await next());
    }
    if (held > 0) dispatch({ bytes: join(pieces, held), last: true, linesBefore: linesDispatched });
    while (pending.length > 0) yield* emit(await next());
  } finally {
    // an early stop (an error, a consumer that breaks) leaves nothing running
    await Promise.allSettled(pending);
    await pool?.destroy();
  }
}

/** The earlier of two positions, -1 meaning none. */
function earliest(one: number, other: number): number {
  if (one === -1) return other;
  return other === -1 ? one : Math.min(one, other);
}

/** Line breaks in pieces read in turn, a \r\n cut between two pieces counted once. */
function lineBreaksIn(pieces: readonly Uint8Array[]): number {
  let count = 0;
  for (const [index, piece] of pieces.entries()) {
    count += countLineBreaks(piece);
    const before = pieces[index - 1];
    if (before !== undefined && before.at(-1) === CARRIAGE_RETURN && piece[0] === NEWLINE)
      count -= 1;
  }
  return count;
}

/** A size in MiB as a reader says it: "256 MiB", or bytes below 1 MiB. */
function megabytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

/** Refuses an option that is not a whole number of at least 1 (`whole` says what is whole). */
function atLeastOne(name: string, value: number, whole = Number.isInteger): void {
  if (!whole(value) || value < 1) {
    throw new ParallelError(
      ParallelErrorCode.INVALID_OPTIONS,
      `${name} must be a whole number of at least 1, got ${String(value)}`,
    );
  }
}

/**
 * The input after its first `count` line breaks, counted as {@link countLineBreaks} counts them (a
 * \r\n cut between two pieces is one). An input with fewer lines gives nothing.
 */
async function* afterLines(
  input: AsyncIterable<Uint8Array | string>,
  count: number,
): AsyncGenerator<Uint8Array> {
  const encoder = new TextEncoder();
  let left = count;
  // the last byte read past was a \r: a \n right after it belongs to the same break
  let afterReturn = false;
  for await (const piece of input) {
    let bytes = typeof piece === 'string' ? encoder.encode(piece) : piece;
    if (afterReturn && bytes.byteLength > 0) {
      afterReturn = false;
      if (bytes[0] === NEWLINE) bytes = bytes.subarray(1);
    }
    if (left === 0) {
      if (bytes.byteLength > 0) yield bytes;
      continue;
    }
    let at = 0;
    // the next \n and \r from `at`, each searched again only once passed
    let newline = bytes.indexOf(NEWLINE);
    let carriageReturn = bytes.indexOf(CARRIAGE_RETURN);
    while (left > 0 && (newline !== -1 || carriageReturn !== -1)) {
      if (carriageReturn === -1 || (newline !== -1 && newline < carriageReturn)) {
        at = newline + 1;
      } else {
        at = carriageReturn + 1;
        if (at === bytes.byteLength) afterReturn = true;
        else if (bytes[at] === NEWLINE) at += 1;
      }
      left -= 1;
      if (newline !== -1 && newline < at) newline = bytes.indexOf(NEWLINE, at);
      if (carriageReturn !== -1 && carriageReturn < at) {
        carriageReturn = bytes.indexOf(CARRIAGE_RETURN, at);
      }
    }
    if (left === 0 && at < bytes.byteLength) yield bytes.subarray(at);
  }
}

/** Node flags without `--conditions` / `-C` and their values, in either spelling. */
function withoutConditions(flags: readonly string[]): string[] {
  const kept: string[] = [];
  for (let index = 0; index < flags.length; index += 1) {
    const flag = flags[index]!;
    if (flag === '--conditions' || flag === '-C') index += 1;
    else if (!flag.startsWith('--conditions=') && !flag.startsWith('-C=')) kept.push(flag);
  }
  return kept;
}

function join(pieces: readonly Uint8Array[], length: number): Uint8Array {
  const joined = new Uint8Array(length);
  let offset = 0;
  for (const piece of pieces) {
    joined.set(piece, offset);
    offset += piece.byteLength;
  }
  return joined;
}

/** The built worker: beside this file once built; from the sources, the package's dist. */
function workerFile(): string {
  const sibling = fileURLToPath(new URL('./worker.js', import.meta.url));
  if (existsSync(sibling)) return sibling;
  const built = fileURLToPath(new URL('../dist/worker.js', import.meta.url));
  if (existsSync(built)) return built;
  throw new ParallelError(
    ParallelErrorCode.WORKER_FAILED,
    `the worker is not built (looked for ${sibling} and ${built}): run pnpm build`,
  );
}
