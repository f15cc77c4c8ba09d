/*
 * What the learned layer costs: the validator with `learned: true` beside the patterns-only
 * validator, in the same run, on the same real responses from ../shared/data/responses; and how
 * long the shipped model takes to load.
 *
 *   pnpm bench:validator:learned [--quick] [--data DIR]
 *
 * Sizes: single real responses of 200 B to 2 KB as they are, and responses joined with blank
 * lines and cut to 2 KB and 10 KB. The two validators must give the same verdict wherever the
 * learned layer adds nothing, or the comparison means nothing.
 *
 * Then `qualm train` on 10,000 labelled responses, as a user runs it: the built CLI in a child
 * process, on a JSON Lines file written to a temporary folder (and removed after).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Bench } from 'tinybench';
import { createValidator, readLearnedModel } from '../../packages/validator/src/index.js';
import { LearnedLayer, openingRegion } from '../../packages/validator/src/learned/layer.js';
import { dataFolder, hardware, realResponses, repositoryRoot, textJoiner } from '../common.js';
import { loadSources } from '../eval/data.js';

const quick = process.argv.includes('--quick');
const dataRoot = dataFolder('responses');
const modelPath = join(repositoryRoot, 'packages', 'validator', 'model', 'refusal.qlm');
const data = loadSources(dataRoot);
const responses = realResponses(dataRoot, 0x2545f491, data);
const joined = textJoiner(responses);
const SIZES: { label: string; texts: string[] }[] = [
  {
    label: 'real answers, 200 B–2 KB',
    texts: responses
      .filter((text) => Buffer.byteLength(text) >= 200 && Buffer.byteLength(text) <= 2000)
      .slice(0, 400),
  },
  { label: '2 KB', texts: Array.from({ length: 24 }, () => joined(2_000)) },
  { label: '10 KB', texts: Array.from({ length: 24 }, () => joined(10_000)) },
];

const median = (values: number[]) => {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};
const microseconds = (milliseconds: number) => `${(milliseconds * 1000).toFixed(1)} µs`;

// load: reading the file, checking its checksum, decoding; and the first response after it
const loads: number[] = [];
for (let run = 0; run < 21; run += 1) {
  const started = performance.now();
  readLearnedModel(modelPath);
  loads.push(performance.now() - started);
}
// the patterns compile once per process, whichever validator comes first: compile them before
// timing the learned validator's first response
const patternsValidator = createValidator();
patternsValidator.validate('A first answer, to compile the patterns.');
const coldStarted = performance.now();
const learnedValidator = createValidator({ learned: true });
learnedValidator.validate('A first answer, to read the model.');
const firstResponse = performance.now() - coldStarted;
// the layer's own work on a response the patterns found nothing in: the opening, the model, the
// signals (where the patterns found a refusal it does less)
const layer = new LearnedLayer({ model: readLearnedModel(modelPath) });
const layerAlone = (text: string) => {
  const { offset, region } = openingRegion(text, layer.reach);
  return layer.signals(region, offset, []);
};

interface Row {
  size: string;
  patterns: number;
  combined: number;
  layer: number;
  patterns99: number;
  combined99: number;
}

const loadBefore = loadavg()[0] ?? 0;
const rows: Row[] = [];
for (const size of SIZES) {
  const texts = size.texts;
  let added = 0;
  for (const text of texts) {
    const plain = patternsValidator.validate(text);
    const combined = learnedValidator.validate(text);
    if (combined.signals.some((signal) => signal.source === 'learned')) added += 1;
    else if (JSON.stringify(plain) !== JSON.stringify(combined)) {
      throw new Error(`the validators disagree on a text of ${size.label} with no learned signal`);
    }
  }
  const bench = new Bench({
    time: quick ? 300 : 2000,
    iterations: 200,
    warmupTime: quick ? 50 : 300,
  });
  const indexes = { patterns: 0, combined: 0, layer: 0 };
  bench.add('patterns', () => {
    patternsValidator.validate(texts[indexes.patterns++ % texts.length] as string);
  });
  bench.add('combined', () => {
    learnedValidator.validate(texts[indexes.combined++ % texts.length] as string);
  });
  bench.add('layer', () => {
    layerAlone(texts[indexes.layer++ % texts.length] as string);
  });
  await bench.run();
  const result = (name: string) => {
    const task = bench.tasks.find((entry) => entry.name === name);
    if (!task || !('latency' in task.result)) throw new Error(`${name} did not run`);
    return task.result.latency;
  };
  rows.push({
    size: `${size.label} (${texts.length} texts, learned signal on ${added})`,
    patterns: result('patterns').p50,
    combined: result('combined').p50,
    layer: result('layer').p50,
    patterns99: result('patterns').p99,
    combined99: result('combined').p99,
  });
}
const loadAfter = loadavg()[0] ?? 0;

// qualm train on 10,000 rows: GPTFuzz, JailbreakBench and RefusalBench responses with their
// refusal labels, and HaluEval answers as none
const cli = join(repositoryRoot, 'apps', 'cli', 'bin', 'qualm.js');
let training = 'not measured: build the CLI first (pnpm build)';
if (existsSync(join(repositoryRoot, 'apps', 'cli', 'dist', 'index.js'))) {
  const labelled = [
    ...[...data.gptfuzz, ...data.jailbreakbench, ...data.refusalbench]
      .filter((row) => row.refusal !== 'other')
      .map((row) => ({
        text: row.text,
        label: row.refusal === 'refusal' ? 'refusal' : 'none',
        group: row.group,
      })),
    ...data.halueval.map((row) => ({ text: row.text, label: 'none', group: row.group })),
  ].slice(0, 10_000);
  const folder = mkdtempSync(join(tmpdir(), 'qualm-train-bench-'));
  try {
    const input = join(folder, 'labelled.jsonl');
    writeFileSync(input, `${labelled.map((row) => JSON.stringify(row)).join('\n')}\n`);
    const started = performance.now();
    const run = spawnSync(
      process.execPath,
      [
        cli,
        'train',
        '--input',
        input,
        '--text-field',
        'text',
        '--label-field',
        'label',
        '--group-field',
        'group',
        '--out',
        join(folder, 'model.qlm'),
        '--format',
        'json',
      ],
      { encoding: 'utf8' },
    );
    const seconds = (performance.now() - started) / 1000;
    if (run.status !== 0) throw new Error(`qualm train failed: ${run.stderr}`);
    const report = JSON.parse(run.stdout) as {
      trainRows: number;
      testRows: number;
      seconds: number;
    };
    training = `${labelled.length} rows (${report.trainRows} trained on, ${report.testRows} measured) in ${seconds.toFixed(1)} s of wall time, process start included (${report.seconds.toFixed(1)} s in training itself)`;
    if (seconds > 30) training += ' — target ≤ 30 s NOT met';
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

console.log('# @qualm/validator: the learned layer beside the patterns');
console.log(`hardware: ${hardware()}`);
console.log(`load average: ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after`);
console.log('');
console.log(
  '| texts | patterns p50 | patterns + learned p50 | added p50 (difference) | learned layer alone p50 | patterns p99 | patterns + learned p99 |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const row of rows) {
  console.log(
    `| ${row.size} | ${microseconds(row.patterns)} | ${microseconds(row.combined)} | ${microseconds(row.combined - row.patterns)} | ${microseconds(row.layer)} | ${microseconds(row.patterns99)} | ${microseconds(row.combined99)} |`,
  );
}
console.log('');
console.log(
  `model load (read, checksum, decode ${modelPath.split('/').slice(-2).join('/')}): median ${median(loads).toFixed(2)} ms of 21, first ${loads[0]?.toFixed(2)} ms; first response of a validator with learned: true (patterns already compiled), the shipped model's first load included: ${firstResponse.toFixed(2)} ms`,
);
console.log(`qualm train: ${training}`);
const worstAdded = Math.max(...rows.map((row) => row.combined - row.patterns));
const worstLayer = Math.max(...rows.map((row) => row.layer));
console.log(
  `targets: added p50 ≤ 50 µs (${microseconds(worstAdded)} at worst, learned layer alone ${microseconds(worstLayer)}): ${worstAdded <= 0.05 ? 'met' : 'NOT met'}; load ≤ 50 ms (${median(loads).toFixed(2)} ms): ${median(loads) <= 50 ? 'met' : 'NOT met'}`,
);
