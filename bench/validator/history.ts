/*
 * The validator's speed on short real answers at several earlier commits and at this tree, in one
 * process, in turns: where `pnpm bench:validator:compare` needs the two validators to agree on
 * every text (it compares one change), this one times validators whose verdicts differ, to show
 * how the cost of a response moved over many changes.
 *
 *   pnpm bench:validator:history REV [REV …] [--runs 3] [--texts 3000]
 *
 * Texts: real responses of 200 to 2,000 bytes from ../shared/data/responses (HaluEval,
 * RefusalBench, GPTFuzz), picked as throughput.ts picks them (`shortAnswers`). Each run times every validator once over all texts, after
 * one run to warm up; MB/s is the texts' UTF-8 size over the run's time, one column per commit.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import {
  argument,
  dataFolder,
  hardware,
  median,
  realResponses,
  repositoryRoot,
  shortAnswers,
  validatorSourcesAt,
} from '../common.js';

// as the qualm command runs: each regular expression compiled at its first run
setFlagsFromString('--regexp-tier-up-ticks=0');

interface Validator {
  validate(text: string): unknown;
}

const revisions = process.argv.slice(2).filter((arg, index, all) => {
  return !arg.startsWith('--') && !all[index - 1]?.startsWith('--');
});
const runs = Number(argument('--runs') ?? 3);
const count = Number(argument('--texts') ?? 3000);
if (revisions.length === 0) {
  console.error('usage: pnpm bench:validator:history REV [REV …] [--runs 3] [--texts 3000]');
  process.exit(2);
}

const texts = shortAnswers(realResponses(dataFolder('responses'), 1)).slice(0, count);
if (texts.length === 0) {
  console.log('data absent: no responses under ../shared/data/responses; nothing measured');
  process.exit(0);
}
const megabytes = texts.reduce((total, text) => total + Buffer.byteLength(text), 0) / 1e6;

const folder = mkdtempSync(join(repositoryRoot, 'packages', 'validator', 'src-history-'));
try {
  const names: string[] = [];
  const validators: Validator[] = [];
  for (const revision of revisions) {
    const { commit, index } = validatorSourcesAt(revision, join(folder, revision));
    const { createValidator } = (await import(index)) as { createValidator(): Validator };
    names.push(commit);
    validators.push(createValidator());
  }
  const { createValidator } = await import('../../packages/validator/src/index.js');
  names.push('this tree');
  validators.push(createValidator());
  for (const validator of validators) for (const text of texts) validator.validate(text);
  const rates: number[][] = validators.map(() => []);
  for (let run = 0; run < runs; run += 1) {
    validators.forEach((validator, position) => {
      const start = performance.now();
      for (const text of texts) validator.validate(text);
      rates[position]!.push(megabytes / ((performance.now() - start) / 1000));
    });
  }
  console.log(
    `${hardware()}\n${texts.length} answers of 200 B–2 KB, ${megabytes.toFixed(2)} MB; ${runs} runs\n`,
  );
  console.log('| commit | MB/s, median | runs (MB/s) |\n| --- | ---: | --- |');
  names.forEach((name, position) => {
    const runRates = rates[position]!;
    console.log(
      `| ${name} | ${median(runRates).toFixed(1)} | ${runRates.map((rate) => rate.toFixed(1)).join(', ')} |`,
    );
  });
} finally {
  rmSync(folder, { recursive: true, force: true });
}
