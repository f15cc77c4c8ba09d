import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  ParallelError,
  SummaryAccumulator,
  summarizeResultFiles,
  type ValidatedChunk,
  validateJsonLines,
} from '../src/index.js';

const answers = [
  'Turn the stopcock clockwise until it stops, then open the lowest tap to drain.',
  "Sorry, I can't help with that.",
  'Maybe it is the thermostat, I am not sure...',
  'Error: connection refused by the sensor gateway.',
];

function log(from: number, count: number): string {
  return Array.from(
    { length: count },
    (_, index) =>
      `${JSON.stringify({ id: from + index, response: answers[(from + index) % 4] })}\n`,
  ).join('');
}

async function validated(text: string) {
  const chunks: ValidatedChunk[] = [];
  let output = '';
  for await (const chunk of validateJsonLines(Readable.from([Buffer.from(text)]), {
    idField: 'id',
    workers: 1,
  })) {
    chunks.push(chunk);
    output += Buffer.from(chunk.jsonl).toString();
  }
  const accumulator = new SummaryAccumulator();
  for (const chunk of chunks) accumulator.addPacked(chunk.scores, chunk.flags);
  return { output, summary: accumulator.summary() };
}

describe('summarizeResultFiles', () => {
  it('merges the result files of shards into the summary of one run over the whole log', async () => {
    const shards = [log(0, 300), log(300, 257), log(557, 1)];
    const whole = await validated(shards.join(''));
    const results = await Promise.all(shards.map(validated));
    const merged = await summarizeResultFiles(
      results.map((result, index) => ({
        name: `shard-${index}.jsonl`,
        content: Readable.from([Buffer.from(result.output)]),
      })),
    );
    expect(merged.summary).toStrictEqual(whole.summary);
    // a mark that some editors write at the start of a file is read past
    const marked = await summarizeResultFiles(
      results.map((result, index) => ({
        name: `shard-${index}.jsonl`,
        content: Readable.from([Buffer.from(`\uFEFF${result.output}`)]),
      })),
    );
    expect(marked.summary).toStrictEqual(whole.summary);
    expect(merged.files).toEqual([
      { name: 'shard-0.jsonl', records: 300 },
      { name: 'shard-1.jsonl', records: 257 },
      { name: 'shard-2.jsonl', records: 1 },
    ]);
  });

  it('names the file and line of something that is not a result record', async () => {
    const error = await summarizeResultFiles([
      {
        name: 'a.jsonl',
        content: Readable.from(['{"score":1,"shouldEscalate":false,"signals":[]}\n']),
      },
      { name: 'b.jsonl', content: Readable.from(['\n{"id": 3, "response": "an input line"}\n']) },
    ]).catch((reason: unknown) => reason);
    expect(ParallelError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(
      'b.jsonl:2 is not a result of qualm validate --format jsonl (score: Invalid input: expected number, received undefined)',
    );
  });

  it('refuses a file without results among others, naming it, rather than undercount the log', async () => {
    const error = await summarizeResultFiles([
      {
        name: 'results-0.jsonl',
        content: Readable.from(['{"score":1,"shouldEscalate":false,"signals":[]}\n']),
      },
      { name: 'results-1.jsonl', content: Readable.from(['\n']) },
    ]).catch((reason: unknown) => reason);
    expect(ParallelError.isInstance(error)).toBe(true);
    expect((error as ParallelError).code).toBe('INVALID_INPUT');
    expect((error as Error).message).toBe(
      "results-1.jsonl holds no results: a run of qualm validate --format jsonl writes one per response, so this shard's run failed or has not finished",
    );
  });
});
