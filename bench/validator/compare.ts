/*
 * The validator of this tree against the validator of an earlier commit, in the same process on
 * the same real texts as throughput.ts: full default pattern set, short answers, 2 KB, 10 KB and
 * 1 MB. The two are timed in turns, several runs each, and the median of each run's p50 is
 * compared; on a shared machine only such same-run ratios mean much. With --stream N, what is
 * timed is a stream fed the text N characters at a time.
 *
 *   pnpm bench:validator:compare --base REV [--runs 5] [--stream N] [--quick] [--data DIR]
 *
 * The earlier sources are taken from git (`git archive REV packages/validator/src`) into a folder
 * beside the package's own, so they resolve the same dependencies; it is removed at the end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import {
  argument,
  checkCommandLine,
  dataFolder,
  hardware,
  median,
  realResponses,
  repositoryRoot,
  shortAnswers,
  textJoiner,
  validatorSourcesAt,
} from '../common.js';

// as the qualm command runs: each regular expression compiled at its first run
setFlagsFromString('--regexp-tier-up-ticks=0');

checkCommandLine(
  `
pnpm bench:validator:compare --base REV [--runs 5] [--stream N] [--quick] [--data DIR]

Times the validator of this tree against the one at commit REV, in turns in one process on the same
real texts, and prints the median p50 of each and their ratio per size.

  --base REV   the commit (or branch, or tag) to compare with
  --runs N     timed runs of each (default 5)
  --stream N   time streams fed N characters at a time instead of whole texts
  --quick      shorter timing budgets (for a quick look; the figures are noisier)
  --data DIR   the folder of labelled responses (default ../shared/data/responses)

Examples:
  pnpm bench:validator:compare --base main
  pnpm bench:validator:compare --base HEAD~1 --runs 3 --quick
  pnpm bench:validator:compare --base main --stream 4
`,
  { '--base': true, '--runs': true, '--stream': true, '--quick': false, '--data': true },
);
const base = argument('--base');
if (base === undefined) {
  console.error('--base REV is needed: the commit to compare with; --help says more');
  process.exit(2);
}
const runs = Number(argument('--runs') ?? 5);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`--runs must be a whole number of at least 1, got ${argument('--runs')}`);
  process.exit(2);
}
const piece = argument('--stream') === undefined ? undefined : Number(argument('--stream'));
if (piece !== undefined && !(Number.isInteger(piece) && piece >= 1)) {
  console.error(`--stream must be a whole number of characters, got ${argument('--stream')}`);
  process.exit(2);
}
const quick = process.argv.includes('--quick');

interface Engine {
  name: string;
  validate(text: string): unknown;
}

const packageFolder = join(repositoryRoot, 'packages', 'validator');
const baseFolder = mkdtempSync(join(packageFolder, '.compare-'));
process.on('exit', () => rmSync(baseFolder, { recursive: true, force: true }));
// an interrupted run ends without 'exit' unless it is turned into one
process.on('SIGINT', () => process.exit(130));
const { commit, index: baseIndex } = validatorSourcesAt(base, baseFolder);

type ValidatorModule = typeof import('../../packages/validator/src/index.js');
const before = (await import(baseIndex)) as ValidatorModule;
const after = (await import('../../packages/validator/src/index.js')) as ValidatorModule;
const engines = [
  engine(`base (${commit})`, before.createValidator()),
  engine('this tree', after.createValidator()),
];

/** Validates whole texts, or with `--stream`, streams them `piece` characters at a time. */
function engine(name: string, validator: ReturnType<ValidatorModule['createValidator']>): Engine {
  if (piece === undefined) return { name, validate: (text) => validator.validate(text) };
  return {
    name,
    validate(text) {
      const stream = validator.stream();
      for (let at = 0; at < text.length; at += piece) stream.push(text.slice(at, at + piece));
      return stream.end();
    },
  };
}

const dataRoot = dataFolder('responses');
const responses = realResponses(dataRoot, 0x9e3779b9);
const joined = textJoiner(responses);
const short = shortAnswers(responses);
const SIZES: { label: string; texts: string[]; budget: number }[] = [
  { label: 'short answers (200 B–2 KB)', texts: short.slice(0, 400), budget: 1000 },
  { label: '2 KB', texts: Array.from({ length: 24 }, () => joined(2_000)), budget: 1000 },
  { label: '10 KB', texts: Array.from({ length: 24 }, () => joined(10_000)), budget: 1000 },
  { label: '1 MB', texts: Array.from({ length: 6 }, () => joined(1_000_000)), budget: 2000 },
];

for (const size of SIZES) {
  for (const text of size.texts) {
    // a ratio between two validators that disagree would mean nothing
    const [first, second] = engines.map((each) => JSON.stringify(each.validate(text)));
    if (first !== second) throw new Error(`the two validators disagree on a text of ${size.label}`);
  }
}

/** The p50 of validating each text in passes over them, for about `budget` milliseconds. */
function p50(engine: Engine, texts: string[], budget: number): number {
  const times: number[] = [];
  const started = performance.now();
  while (times.length < texts.length * 3 || performance.now() - started < budget) {
    for (const text of texts) {
      const start = performance.now();
      engine.validate(text);
      times.push(performance.now() - start);
    }
  }
  times.sort((left, right) => left - right);
  return times[Math.floor(times.length / 2)] ?? 0;
}

const results = engines.map(() => SIZES.map(() => [] as number[]));
for (let run = 0; run < runs; run += 1) {
  // each run starts with the other engine, so neither always follows the other
  const order = run % 2 === 0 ? [0, 1] : [1, 0];
  for (const which of order) {
    const engine = engines[which] as Engine;
    SIZES.forEach((size, index) => {
      const budget = quick ? size.budget / 4 : size.budget;
      results[which]?.[index]?.push(p50(engine, size.texts, budget));
    });
  }
}

function duration(milliseconds: number): string {
  return milliseconds >= 1
    ? `${milliseconds.toFixed(2)} ms`
    : `${(milliseconds * 1000).toFixed(1)} µs`;
}

console.log('# @qualm/validator, this tree against an earlier commit (same process, same texts)');
console.log(`hardware: ${hardware()}`);
const how = piece === undefined ? 'whole texts' : `streams fed ${piece} characters at a time`;
console.log(
  `base: ${commit}; ${how}; ${runs} runs of each, in turns; p50 of each run, median over runs`,
);
console.log('');
console.log(`| size | ${engines.map((engine) => `${engine.name} p50`).join(' | ')} | ratio |`);
console.log('| --- | ---: | ---: | ---: |');
SIZES.forEach((size, index) => {
  const [old, current] = results.map((perSize) => median(perSize[index] ?? []));
  console.log(
    `| ${size.label} | ${duration(old ?? 0)} | ${duration(current ?? 0)} | ${((current ?? 0) / (old ?? 1)).toFixed(2)} |`,
  );
});
