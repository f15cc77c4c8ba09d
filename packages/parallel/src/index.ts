export {
  type ChunkOutcome,
  type ChunkPlace,
  countLineBreaks,
  type LineOptions,
  lineShape,
  readLine,
  type ValidatedRow,
  validateChunk,
} from './chunk.js';
export { ParallelError, ParallelErrorCode } from './errors.js';
export {
  BYTES_PER_WORKER,
  defaultWorkers,
  maxWorkers,
  type ValidatedChunk,
  type ValidateJsonLinesOptions,
  validateJsonLines,
  workersForSize,
} from './pool.js';
export { type ResponseId, type ValidationRecord, validationRecord } from './record.js';
export {
  type MergedSummary,
  type ResultSource,
  summarizeResultFiles,
} from './result-files.js';
export { packFlags, SummaryAccumulator } from './summary.js';
