/*
 * Throughput and latency of the validator with the full default pattern set, on real responses
 * from ../shared/data/responses (HaluEval answers, RefusalBench and GPTFuzz responses), against the
 * straightforward implementation (each pattern searched over the whole text on its own, in a loop)
 * measured in the same run on the same texts.
 *
 *   pnpm bench:validator:throughput [--quick] [--data DIR]   (pnpm bench:validator runs it, then workers.ts)
 *
 * Sizes: single real responses of 200 B to 2 KB as they are ("short chat answers"), and responses
 * joined with blank lines and cut to 2 KB, 10 KB and 1 MB.
 */
import { loadavg } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { createValidator } from '../../packages/validator/src/index.js';
import { createReferenceValidator } from '../../packages/validator/src/validator.js';
import {
  checkCommandLine,
  dataFolder,
  hardware,
  realResponses,
  shortAnswers,
  textJoiner,
} from '../common.js';

// as the qualm command runs: each regular expression compiled at its first run, not left in V8's
// interpreter (see BENCHMARKS.md, "V8's regexp interpreter"); the patterns are compiled below
setFlagsFromString('--regexp-tier-up-ticks=0');

checkCommandLine(
  `
pnpm bench:validator:throughput [--quick] [--data DIR]

Throughput and latency of the validator with the full default pattern set on real responses, beside
the one-regex-per-pattern loop timed in the same run on the same texts.

  --quick      shorter timing budgets (for a quick look; the figures are noisier)
  --data DIR   the folder of labelled responses (default ../shared/data/responses)

Examples:
  pnpm bench:validator:throughput
  pnpm bench:validator:throughput --quick
`,
  { '--quick': false, '--data': true },
);
const quick = process.argv.includes('--quick');
const dataRoot = dataFolder('responses');
const responses = realResponses(dataRoot, 0x9e3779b9);

// several different texts per size, so no single string is measured over and over
const VARIANTS = 24;
const joined = textJoiner(responses);
const short = shortAnswers(responses);

const SIZES: { label: string; texts: string[] }[] = [
  { label: 'short answers (200 B–2 KB)', texts: short.slice(0, 400) },
  { label: '2 KB', texts: Array.from({ length: VARIANTS }, () => joined(2_000)) },
  { label: '10 KB', texts: Array.from({ length: VARIANTS }, () => joined(10_000)) },
  { label: '1 MB', texts: Array.from({ length: 6 }, () => joined(1_000_000)) },
];

const fast = createValidator();
const reference = createReferenceValidator();

function microseconds(milliseconds: number): string {
  return milliseconds >= 10
    ? `${milliseconds.toFixed(1)} ms`
    : `${(milliseconds * 1000).toFixed(milliseconds < 0.1 ? 1 : 0)} µs`;
}

interface Row {
  size: string;
  engine: 'prefilter' | 'reference';
  megabytesPerSecond: number;
  p50: number;
  p99: number;
}

/**
 * Times every call on its own (performance.now around each), engines in alternating blocks of one
 * pass over the texts each, so that both see the same background load and neither thrashes the
 * other's compiled code between calls; p50 and p99 are over all timed calls.
 */
function measure(): Row[] {
  const rows: Row[] = [];
  for (const size of SIZES) {
    const texts = size.texts;
    const bytes = texts.reduce((total, text) => total + Buffer.byteLength(text), 0) / texts.length;
    for (const text of texts) {
      // both engines must agree, or the comparison means nothing
      if (JSON.stringify(fast.validate(text)) !== JSON.stringify(reference.validate(text))) {
        throw new Error(`the engines disagree on a text of ${size.label}`);
      }
    }
    const budget = quick ? 300 : bytes >= 1_000_000 ? 4000 : 2000;
    const times: Record<Row['engine'], number[]> = { prefilter: [], reference: [] };
    const engines: [Row['engine'], { validate(text: string): unknown }][] = [
      ['prefilter', fast],
      ['reference', reference],
    ];
    const started = performance.now();
    for (let round = 0; round < 3 || performance.now() - started < budget; round += 1) {
      for (const [name, engine] of engines) {
        for (const text of texts) {
          const before = performance.now();
          engine.validate(text);
          times[name].push(performance.now() - before);
        }
      }
    }
    for (const [name] of engines) {
      const sorted = times[name].sort((left, right) => left - right);
      const at = (share: number) =>
        sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;
      rows.push({
        size: size.label,
        engine: name,
        // the median call, not the mean: other work on a shared machine inflates the mean
        megabytesPerSecond: bytes / 1e6 / (at(0.5) / 1000),
        p50: at(0.5),
        p99: at(0.99),
      });
    }
  }
  return rows;
}

/**
 * Fastest of several timings of validating each text, taken in turns so that both see the same
 * background load; the fastest run is the least disturbed by other work on the machine.
 */
function fastestTimes(texts: string[], runs: number): number[] {
  for (const text of texts) fast.validate(text);
  const best = texts.map(() => Number.POSITIVE_INFINITY);
  for (let run = 0; run < runs; run += 1) {
    texts.forEach((text, index) => {
      const started = performance.now();
      fast.validate(text);
      best[index] = Math.min(best[index] ?? Number.POSITIVE_INFINITY, performance.now() - started);
    });
  }
  return best;
}

const loadBefore = loadavg()[0] ?? 0;
// linearity first, on the smallest heap the run has: the 10 MB text is the one whose time grows
// with what the garbage collector has to walk
const [timeOne = 0, timeTen = 0] = fastestTimes(
  [joined(1_000_000), joined(10_000_000)],
  quick ? 5 : 15,
);
const rows = measure();
const loadAfter = loadavg()[0] ?? 0;

console.log('# @qualm/validator throughput and latency (full default pattern set, real responses)');
console.log(`hardware: ${hardware()}`);
console.log(`load average: ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after`);
console.log(`texts: ${responses.length} responses from ${dataRoot}`);
console.log('');
console.log('| size | engine | MB/s (at p50) | p50 | p99 | speed-up |');
console.log('| --- | --- | ---: | ---: | ---: | ---: |');
for (const size of SIZES) {
  const prefilter = rows.find((row) => row.size === size.label && row.engine === 'prefilter');
  const plain = rows.find((row) => row.size === size.label && row.engine === 'reference');
  if (!prefilter || !plain) continue;
  for (const row of [prefilter, plain]) {
    console.log(
      `| ${row.size} | ${row.engine === 'prefilter' ? 'prefilter scan' : 'reference (one regex per pattern)'} | ${row.megabytesPerSecond.toFixed(1)} | ${microseconds(row.p50)} | ${microseconds(row.p99)} | ${row.engine === 'prefilter' ? `${(prefilter.megabytesPerSecond / plain.megabytesPerSecond).toFixed(1)}×` : '1.0×'} |`,
    );
  }
}
console.log('');
console.log(
  `linearity (fastest of runs): 1 MB in ${timeOne.toFixed(2)} ms, 10 MB in ${timeTen.toFixed(2)} ms (ratio ${(timeTen / timeOne).toFixed(1)}, linear is 10)`,
);

const find = (label: string, engine: Row['engine']) =>
  rows.find((row) => row.size === label && row.engine === engine);
const at1Mb = find('1 MB', 'prefilter');
const at10Kb = find('10 KB', 'prefilter');
const atShort = find('short answers (200 B–2 KB)', 'prefilter');
const reference10Kb = find('10 KB', 'reference');
const reference1Mb = find('1 MB', 'reference');
if (at1Mb && at10Kb && atShort && reference10Kb && reference1Mb) {
  const check = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const speedUp = Math.min(
    at1Mb.megabytesPerSecond / reference1Mb.megabytesPerSecond,
    at10Kb.megabytesPerSecond / reference10Kb.megabytesPerSecond,
  );
  console.log(
    [
      `targets: >= 200 MB/s at 10 KB and 1 MB: ${at10Kb.megabytesPerSecond.toFixed(0)} and ${at1Mb.megabytesPerSecond.toFixed(0)} MB/s, ${check(Math.min(at10Kb.megabytesPerSecond, at1Mb.megabytesPerSecond) >= 200)}`,
      `10 KB p50 <= 50 µs: ${microseconds(at10Kb.p50)}, ${check(at10Kb.p50 <= 0.05)}`,
      `short answers >= 100 MB/s: ${atShort.megabytesPerSecond.toFixed(0)} MB/s, ${check(atShort.megabytesPerSecond >= 100)}`,
      `>= 3× the reference: ${speedUp.toFixed(1)}×, ${check(speedUp >= 3)}`,
      `linear: ratio ${(timeTen / timeOne).toFixed(1)}, ${check(timeTen / timeOne < 13)}`,
    ].join('\n'),
  );
}
