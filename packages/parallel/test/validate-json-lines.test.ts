import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { getQualitySummary } from '@qualm/validator';
import { afterAll, describe, expect, it } from 'vitest';
import {
  maxWorkers,
  ParallelError,
  SummaryAccumulator,
  type ValidatedChunk,
  type ValidateJsonLinesOptions,
  validateJsonLines,
  workersForSize,
} from '../src/index.js';

const folder = mkdtempSync(join(tmpdir(), 'qualm-parallel-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const answers = [
  'Bleed the radiator from the top valve until water, not air, comes out.',
  "I'm sorry, but I can't help with that request.",
  'I think the part number is probably 4417, but I am not entirely sure.',
  'Tool error: the inventory service timed out after 30 seconds.',
  'Ja, das Ventil sitzt links unten — drehen Sie es eine Vierteldrehung. 🔧',
  'Short.',
  'Step 1: remove the cover. Step 2: ...',
  '配管の圧力を確認してから、バルブをゆっくり開けてください。',
];
const breaks = ['\n', '\r\n', '\n', '\r', '\n\n'];

/** A log of many lines: several answers, ids, all three line breaks, blank lines. */
function makeLog(lines: number, extra: (index: number) => string | undefined = () => undefined) {
  let text = '';
  for (let index = 0; index < lines; index += 1) {
    text +=
      extra(index) ?? JSON.stringify({ id: index, response: answers[index % answers.length] });
    text += breaks[index % breaks.length];
  }
  return text;
}

async function run(
  input: AsyncIterable<Uint8Array | string>,
  options: ValidateJsonLinesOptions,
): Promise<{ output: string; chunks: ValidatedChunk[]; error?: unknown }> {
  const chunks: ValidatedChunk[] = [];
  let output = '';
  try {
    for await (const chunk of validateJsonLines(input, options)) {
      chunks.push(chunk);
      output += Buffer.from(chunk.jsonl).toString();
    }
  } catch (error) {
    return { output, chunks, error };
  }
  return { output, chunks };
}

/** Splits bytes into pieces of irregular sizes, as a pipe might deliver them. */
async function* pieces(bytes: Uint8Array, sizes: readonly number[]): AsyncGenerator<Uint8Array> {
  let offset = 0;
  for (let index = 0; offset < bytes.length; index += 1) {
    const size = sizes[index % sizes.length]!;
    yield bytes.subarray(offset, offset + size);
    offset += size;
  }
}

function summaryOf(chunks: readonly ValidatedChunk[]) {
  const accumulator = new SummaryAccumulator();
  for (const chunk of chunks) accumulator.addPacked(chunk.scores, chunk.flags);
  return accumulator.summary();
}

describe('validateJsonLines', () => {
  const log = Buffer.from(makeLog(3000));

  it('gives the same output, byte for byte, on 1, 2 and 3 workers and any chunk size', async () => {
    const single = await run(pieces(log, [4096]), { idField: 'id', workers: 1 });
    expect(single.error).toBeUndefined();
    expect(single.output.split('\n').filter(Boolean)).toHaveLength(3000);
    for (const [workers, chunkBytes, sizes] of [
      [2, 2048, [777, 5000, 13]],
      [3, 600, [64 * 1024]],
      [3, 1 << 20, [1]],
    ] as const) {
      const parallel = await run(pieces(log, sizes), { idField: 'id', workers, chunkBytes });
      expect(parallel.error).toBeUndefined();
      expect(parallel.output).toBe(single.output);
      expect(summaryOf(parallel.chunks)).toStrictEqual(summaryOf(single.chunks));
    }
  });

  it('numbers lines over the whole input as readline does, in rows and in jsonl records', async () => {
    const expected: { line: number; id: number }[] = [];
    let lineNumber = 0;
    for await (const text of createInterface({
      input: Readable.from([log]),
      crlfDelay: Number.POSITIVE_INFINITY,
    })) {
      lineNumber += 1;
      if (text.trim() !== '') expected.push({ line: lineNumber, id: JSON.parse(text).id });
    }
    const { chunks } = await run(pieces(log, [999]), {
      idField: 'id',
      workers: 2,
      chunkBytes: 1500,
      output: 'rows',
    });
    const rows = chunks.flatMap((chunk) => chunk.rows.map(({ line, id }) => ({ line, id })));
    expect(rows).toEqual(expected);
    expect(chunks.length).toBeGreaterThan(10);
    const records = await run(pieces(log, [999]), { idField: 'id', workers: 2, chunkBytes: 1500 });
    const numbered = records.output
      .split('\n')
      .filter(Boolean)
      .map((text) => {
        const { line, id } = JSON.parse(text) as { line: number; id: number };
        return { line, id };
      });
    expect(numbered).toEqual(expected);
  });

  it('from a line on, gives the records of the whole run from that line, numbered as there', async () => {
    const small = Buffer.from(makeLog(240));
    const whole = await run(pieces(small, [4096]), { idField: 'id', workers: 1 });
    const records = whole.output.split('\n').filter(Boolean);
    const lineOf = (record: string) => (JSON.parse(record) as { line: number }).line;
    const total = lineOf(records.at(-1) as string);
    // the log's breaks are \n, \r\n, \r and blank lines; pieces of one byte cut every \r\n
    for (const fromLine of [2, 3, 4, 5, 6, 7, 101, 102, total]) {
      const expected = records.filter((record) => lineOf(record) >= fromLine).join('\n');
      const settings: [workers: number, chunkBytes: number, sizes: number[]][] = [
        [1, 1 << 20, [1]],
      ];
      // a pool of threads is slower to start: tried on two of the lines
      if (fromLine === 6 || fromLine === 102) settings.push([2, 500, [333, 2, 9000]]);
      for (const [workers, chunkBytes, sizes] of settings) {
        const resumed = await run(pieces(small, sizes), {
          idField: 'id',
          workers,
          chunkBytes,
          fromLine,
        });
        expect(resumed.error).toBeUndefined();
        expect(resumed.output.trimEnd()).toBe(expected);
      }
    }
    // past the last line there is nothing to validate
    const past = await run(pieces(small, [4096]), { workers: 1, fromLine: total + 10 });
    expect(past.output).toBe('');
    expect(past.chunks).toHaveLength(0);
  });

  it('refuses a first line that is not a whole number of at least 1', async () => {
    for (const fromLine of [0, -3, 1.5, Number.NaN]) {
      const { error } = await run(pieces(log, [4096]), { workers: 1, fromLine });
      expect(error).toBeInstanceOf(ParallelError);
      expect((error as Error).message).toBe(
        `fromLine must be a whole number of at least 1, got ${String(fromLine)}`,
      );
    }
  });

  it('sums every score in input order, as getQualitySummary over the results', async () => {
    const { chunks } = await run(pieces(log, [5000]), {
      workers: 3,
      chunkBytes: 4000,
      output: 'rows',
    });
    const results = chunks.flatMap((chunk) => chunk.rows.map((row) => row.result));
    expect(summaryOf(chunks)).toStrictEqual(getQualitySummary(results));
  });

  it('stops at the first bad line with its number, after the lines before it, on any workers', async () => {
    const broken = Buffer.from(
      makeLog(2000, (index) => (index === 1234 ? '{"id": 1234' : undefined)),
    );
    const outcomes = [];
    for (const workers of [1, 2, 3]) {
      outcomes.push(
        await run(pieces(broken, [3000]), {
          idField: 'id',
          workers,
          chunkBytes: 2500,
          source: 'log.jsonl',
        }),
      );
    }
    for (const outcome of outcomes) {
      expect(ParallelError.isInstance(outcome.error)).toBe(true);
      expect((outcome.error as ParallelError).code).toBe('INVALID_INPUT');
      expect((outcome.error as Error).message).toMatch(/^log\.jsonl:\d+ is not valid JSON \(/);
      expect((outcome.error as Error).message).toBe((outcomes[0]!.error as Error).message);
      expect(outcome.output).toBe(outcomes[0]!.output);
    }
    expect(outcomes[0]!.output.split('\n').filter(Boolean)).toHaveLength(1234);
  });

  it('stops at a line longer than maxLineBytes with its number, after the lines before it', async () => {
    const long = JSON.stringify({ id: 'long', response: 'The valve sticks. '.repeat(400) });
    // the 301st record of a log whose breaks include \r\n, \r and a blank line every fifth record:
    // line 361, in pieces of every size
    const input = Buffer.from(makeLog(400, (index) => (index === 300 ? long : undefined)));
    for (const [workers, sizes] of [
      [1, [4096]],
      [2, [13, 777]],
      [3, [1]],
    ] as const) {
      const { output, error } = await run(pieces(input, sizes), {
        idField: 'id',
        workers,
        chunkBytes: 1500,
        maxLineBytes: 5000,
        source: 'log.jsonl',
        skipInvalid: true,
      });
      expect(ParallelError.isInstance(error)).toBe(true);
      expect((error as ParallelError).code).toBe('LINE_TOO_LONG');
      expect((error as Error).message).toBe(
        'log.jsonl:361 is longer than 5000 bytes: too long to read as one JSON value',
      );
      const records = output.split('\n').filter(Boolean);
      expect(records.length).toBeLessThanOrEqual(300);
      expect(records.length).toBeGreaterThan(0);
      expect(JSON.parse(records.at(-1)!).line).toBeLessThan(361);
    }
    const fits = await run(pieces(input, [4096]), { idField: 'id', maxLineBytes: 8000 });
    expect(fits.error).toBeUndefined();
  });

  it('skips and counts bad lines when told to', async () => {
    const noisy = Buffer.from(makeLog(500, (index) => (index % 50 === 7 ? 'oops' : undefined)));
    const { chunks, error } = await run(pieces(noisy, [1024]), {
      idField: 'id',
      workers: 2,
      chunkBytes: 1024,
      skipInvalid: true,
    });
    expect(error).toBeUndefined();
    expect(chunks.reduce((total, chunk) => total + chunk.skipped, 0)).toBe(10);
    expect(chunks.reduce((total, chunk) => total + chunk.scores.length, 0)).toBe(490);
  });

  it('reads a file on disk, a byte order mark and broken UTF-8 as one thread reads them', async () => {
    const path = join(folder, 'odd.jsonl');
    const odd = Buffer.concat([
      Buffer.from(makeLog(400)),
      Buffer.from('{"id": "bytes", "response": "caf'),
      Buffer.from([0xc3, 0x28, 0xff]),
      Buffer.from(' closes at nine on Sundays and holidays."}\n'),
    ]);
    writeFileSync(path, odd);
    const single = await run(createReadStream(path), { idField: 'id', workers: 1 });
    const parallel = await run(createReadStream(path), {
      idField: 'id',
      workers: 3,
      chunkBytes: 700,
    });
    expect(parallel.output).toBe(single.output);
    expect(single.output).toContain('"id":"bytes"');
    const withMark = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), odd]);
    // a mark that some editors write at the start of a file is not part of the first line's JSON
    for (const workers of [1, 3]) {
      const marked = await run(pieces(withMark, [100_000]), {
        idField: 'id',
        workers,
        chunkBytes: 700,
      });
      expect(marked.error).toBeUndefined();
      expect(marked.output).toBe(single.output);
    }
  });

  it('reads only a few chunks ahead of a slow consumer', async () => {
    let pulled = 0;
    async function* counted() {
      for await (const piece of pieces(log, [1000])) {
        pulled += piece.byteLength;
        yield piece;
      }
    }
    const iterator = validateJsonLines(counted(), { workers: 2, chunkBytes: 2000 });
    await iterator.next();
    await new Promise((resolve) => setTimeout(resolve, 200));
    // 2 workers keep at most 2 × 2 + 1 chunks in flight, each a chunk and a piece at most
    expect(pulled).toBeLessThanOrEqual(6 * 3000);
    expect(pulled).toBeLessThan(log.byteLength / 4);
    await iterator.return(undefined);
  });

  it('refuses a number of workers that is not a whole number of at least 1', async () => {
    const { error } = await run(pieces(log, [100]), { workers: 0 });
    expect((error as ParallelError).code).toBe('INVALID_OPTIONS');
    expect((error as Error).message).toBe('workers must be a whole number of at least 1, got 0');
  });

  it('refuses more workers than 4 × the cores before starting any thread', async () => {
    // an input that fits in one chunk starts no thread: refused all the same
    const { error } = await run(pieces(log, [100]), { workers: 1000 });
    expect((error as ParallelError).code).toBe('INVALID_OPTIONS');
    expect((error as Error).message).toBe(
      `workers must be at most ${maxWorkers()} (4 × the machine's ${availableParallelism()} cores), got 1000`,
    );
  });
});

describe('workersForSize', () => {
  it('starts one worker per 8 MiB of input, at least one and at most the cores', () => {
    const mib = 1024 * 1024;
    expect(workersForSize(0, 8)).toBe(1);
    expect(workersForSize(5 * mib, 8)).toBe(1);
    expect(workersForSize(16 * mib, 8)).toBe(2);
    expect(workersForSize(30 * mib, 2)).toBe(2);
    expect(workersForSize(10_000 * mib, 8)).toBe(8);
    expect(workersForSize(10_000 * mib)).toBe(availableParallelism());
  });
});
