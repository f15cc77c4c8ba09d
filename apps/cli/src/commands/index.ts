import type { Command } from 'commander';
import { registerAbstain } from './abstain.js';
import { registerBenchCalibrate } from './bench-calibrate.js';
import { registerBenchEvaluate } from './bench-evaluate.js';
import { registerBenchGenerate } from './bench-generate.js';
import { registerBenchMetrics } from './bench-metrics.js';
import { registerBenchReplay } from './bench-replay.js';
import { registerBenchReport } from './bench-report.js';
import { registerBenchRetrieve } from './bench-retrieve.js';
import { registerJudge } from './judge.js';
import { registerTrain } from './train.js';
import { registerValidate } from './validate.js';

/** Each verb adds itself to the program; one file per verb under this folder. */
export const commands: ReadonlyArray<(program: Command) => void> = [
  registerValidate,
  registerTrain,
  registerAbstain,
  registerJudge,
  registerBenchRetrieve,
  registerBenchGenerate,
  registerBenchEvaluate,
  registerBenchMetrics,
  registerBenchReplay,
  registerBenchCalibrate,
  registerBenchReport,
];
