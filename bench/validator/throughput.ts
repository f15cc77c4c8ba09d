/*
 * Throughput and latency of the validator with the full default pattern set, against the
 * straightforward implementation (each pattern searched over the whole text on its own, in a
 * loop) measured in the same run on the same texts.
 *
 *   pnpm bench:validator [--quick]
 */
import { cpus, platform, release, totalmem } from 'node:os';
import { Bench } from 'tinybench';
import { createValidator } from '../../packages/validator/src/index.js';
import { createReferenceValidator } from '../../packages/validator/src/validator.js';
import { makeProse } from './prose.js';

const quick = process.argv.includes('--quick');
const SIZES = [
  { label: '200 B', bytes: 200 },
  { label: '2 KB', bytes: 2_000 },
  { label: '10 KB', bytes: 10_000 },
  { label: '1 MB', bytes: 1_000_000 },
];
// several different texts per size, so no single string is measured over and over
const VARIANTS = 16;

const fast = createValidator();
const reference = createReferenceValidator();

function hardware(): string {
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  const memory = Math.round(totalmem() / 1024 ** 3);
  return `${cpu}, ${cpus().length} cores, ${memory} GB, Node ${process.version}, ${platform()} ${release()}`;
}

function microseconds(milliseconds: number): string {
  return milliseconds >= 10
    ? `${(milliseconds).toFixed(1)} ms`
    : `${(milliseconds * 1000).toFixed(milliseconds < 0.1 ? 1 : 0)} µs`;
}

interface Row {
  size: string;
  engine: 'prefilter' | 'reference';
  megabytesPerSecond: number;
  p50: number;
  p99: number;
}

async function measure(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const size of SIZES) {
    const texts = Array.from({ length: VARIANTS }, (_, index) => makeProse(size.bytes, index + 1));
    const bytes = texts.reduce((total, text) => total + Buffer.byteLength(text), 0) / texts.length;
    for (const text of texts) {
      // both engines must agree, or the comparison means nothing
      if (JSON.stringify(fast.validate(text)) !== JSON.stringify(reference.validate(text))) {
        throw new Error(`the engines disagree on a ${size.label} text`);
      }
    }
    const large = size.bytes >= 1_000_000;
    const bench = new Bench({
      time: quick ? 300 : large ? 3000 : 1500,
      iterations: large ? 20 : 200,
      warmupTime: quick ? 50 : 300,
    });
    let fastIndex = 0;
    let referenceIndex = 0;
    bench.add('prefilter', () => {
      fast.validate(texts[fastIndex++ % VARIANTS] as string);
    });
    bench.add('reference', () => {
      reference.validate(texts[referenceIndex++ % VARIANTS] as string);
    });
    await bench.run();
    for (const task of bench.tasks) {
      const result = task.result;
      if (!('latency' in result)) throw new Error(`${task.name} at ${size.label} did not run`);
      rows.push({
        size: size.label,
        engine: task.name as Row['engine'],
        // the median run, not the mean: other work on a shared machine inflates the mean
        megabytesPerSecond: bytes / 1e6 / (result.latency.p50 / 1000),
        p50: result.latency.p50,
        p99: result.latency.p99,
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

function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  return [line(headers), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join(
    '\n',
  );
}

const rows = await measure();
const [timeOne = 0, timeTen = 0] = fastestTimes(
  [makeProse(1_000_000, 99), makeProse(10_000_000, 99)],
  quick ? 5 : 15,
);

console.log('# @qualm/validator throughput and latency (full default pattern set, English prose)');
console.log(`hardware: ${hardware()}`);
console.log(`patterns: ${createValidator().options.defaultPatterns ? 'built-in set' : 'custom'}`);
console.log('');
const tableRows = SIZES.flatMap((size) => {
  const prefilter = rows.find((row) => row.size === size.label && row.engine === 'prefilter');
  const plain = rows.find((row) => row.size === size.label && row.engine === 'reference');
  if (!prefilter || !plain) return [];
  return [prefilter, plain].map((row) => [
    row.size,
    row.engine === 'prefilter' ? 'prefilter scan' : 'reference (one regex per pattern)',
    row.megabytesPerSecond.toFixed(1),
    microseconds(row.p50),
    microseconds(row.p99),
    row.engine === 'prefilter'
      ? `${(prefilter.megabytesPerSecond / plain.megabytesPerSecond).toFixed(1)}×`
      : '1.0×',
  ]);
});
console.log(table(['size', 'engine', 'MB/s (at p50)', 'p50', 'p99', 'speed-up'], tableRows));
console.log('');
console.log(
  `linearity (fastest of runs): 1 MB in ${timeOne.toFixed(2)} ms, 10 MB in ${timeTen.toFixed(2)} ms (ratio ${(timeTen / timeOne).toFixed(1)}, linear is 10)`,
);

const at1Mb = rows.find((row) => row.size === '1 MB' && row.engine === 'prefilter');
const reference1Mb = rows.find((row) => row.size === '1 MB' && row.engine === 'reference');
const at10Kb = rows.find((row) => row.size === '10 KB' && row.engine === 'prefilter');
if (at1Mb && reference1Mb && at10Kb) {
  const check = (ok: boolean) => (ok ? 'met' : 'NOT met');
  console.log(
    `targets: >= 150 MB/s on prose: ${at1Mb.megabytesPerSecond.toFixed(0)} MB/s, ${check(at1Mb.megabytesPerSecond >= 150)}; ` +
      `10 KB p50 <= 100 µs: ${microseconds(at10Kb.p50)}, ${check(at10Kb.p50 <= 0.1)}; ` +
      `>= 3× the reference: ${(at1Mb.megabytesPerSecond / reference1Mb.megabytesPerSecond).toFixed(1)}×, ${check(at1Mb.megabytesPerSecond >= 3 * reference1Mb.megabytesPerSecond)}; ` +
      `linear: ratio ${(timeTen / timeOne).toFixed(1)}, ${check(timeTen / timeOne < 13)}`,
  );
}
