import type { Command } from 'commander';
import { registerBenchRetrieve } from './bench-retrieve.js';
import { registerJudge } from './judge.js';

/** Each verb adds itself to the program; one file per verb under this folder. */
export const commands: ReadonlyArray<(program: Command) => void> = [
  registerJudge,
  registerBenchRetrieve,
];
