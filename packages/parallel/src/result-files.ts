import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { withoutByteOrderMark } from '@qualm/errors';
import { type QualitySummary, SIGNAL_TYPES } from '@qualm/validator';
import { z } from 'zod';
import { ParallelError, ParallelErrorCode } from './errors.js';
import { SummaryAccumulator } from './summary.js';

/** A result file to read: its name for messages, and its bytes. */
export interface ResultSource {
  name: string;
  content: AsyncIterable<Uint8Array | string>;
}

/** The summary of several result files, and how many records each gave. */
export interface MergedSummary {
  summary: QualitySummary;
  files: { name: string; records: number }[];
}

// what a summary reads of a line of `qualm validate --format jsonl`
const resultRecord = z.object({
  score: z.number().min(0).max(1),
  shouldEscalate: z.boolean(),
  signals: z.array(z.object({ type: z.enum(SIGNAL_TYPES) })),
});

/**
 * Sums up result files written by `qualm validate --format jsonl` (one per shard of a large log,
 * for instance), in the order given: the summary equals that of one run over all the shards'
 * inputs in the same order. Memory stays constant. A line that is not a result record is an
 * INVALID_INPUT error naming the file and line; blank lines are skipped; a file without a record
 * (a shard whose run failed) is an INVALID_INPUT error naming it.
 */
export async function summarizeResultFiles(
  sources: readonly ResultSource[],
): Promise<MergedSummary> {
  const accumulator = new SummaryAccumulator();
  const files: MergedSummary['files'] = [];
  for (const source of sources) {
    const before = accumulator.count;
    const lines = createInterface({
      input: Readable.from(source.content),
      crlfDelay: Number.POSITIVE_INFINITY,
    });
    let lineNumber = 0;
    for await (const line of lines) {
      lineNumber += 1;
      if (line.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(lineNumber === 1 ? withoutByteOrderMark(line) : line);
      } catch (error) {
        throw new ParallelError(
          ParallelErrorCode.INVALID_INPUT,
          `${source.name}:${lineNumber} is not valid JSON (${(error as Error).message})`,
        );
      }
      const parsed = resultRecord.safeParse(value);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new ParallelError(
          ParallelErrorCode.INVALID_INPUT,
          `${source.name}:${lineNumber} is not a result of qualm validate --format jsonl (${issue.path.join('.') || 'the line'}: ${issue.message})`,
        );
      }
      accumulator.add(
        parsed.data.score,
        parsed.data.shouldEscalate,
        parsed.data.signals.map((signal) => signal.type),
      );
    }
    const records = accumulator.count - before;
    // a run writes one record per response and refuses an empty input: an empty file is a shard
    // whose run failed or never wrote, and summing without it would undercount the log
    if (records === 0) {
      throw new ParallelError(
        ParallelErrorCode.INVALID_INPUT,
        `${source.name} holds no results: a run of qualm validate --format jsonl writes one per response, so this shard's run failed or has not finished`,
      );
    }
    files.push({ name: source.name, records });
  }
  return { summary: accumulator.summary(), files };
}
