// a worker thread of the pool: validates the chunks of JSON Lines it is sent
import { workerData } from 'node:worker_threads';
import { createValidator, type ValidatorOptions } from '@qualm/validator';
import { type ChunkOutcome, type LineOptions, validateChunk } from './chunk.js';

/** What a worker is started with. */
export interface WorkerSetup {
  validator: ValidatorOptions;
  lines: LineOptions;
}

/** One chunk to validate: UTF-8 bytes ending with a line break, or the end of the input. */
export interface WorkerTask {
  bytes: Uint8Array;
  last: boolean;
  /** Lines of the input before this chunk. */
  linesBefore: number;
}

const setup = workerData as WorkerSetup;
const validator = createValidator(setup.validator);
// the decoder keeps a byte order mark, as the line reader of a single thread does: readLine reads
// past it
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

export default function validateTask(task: WorkerTask): ChunkOutcome {
  return validateChunk(validator, decoder.decode(task.bytes), {
    ...setup.lines,
    last: task.last,
    linesBefore: task.linesBefore,
  });
}
