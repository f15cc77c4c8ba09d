/*
 * Trains the model that ships with @qualm/validator and writes it, with a record of its data and
 * settings beside it:
 *
 *   pnpm train:model [--data DIR] [--check]
 *
 * packages/validator/model/refusal.qlm    the model (int8 weights, checksummed)
 * packages/validator/model/refusal.json   its sources, rows per label, recipe, threshold, sha256
 *
 * Deterministic: one thread, a fixed seed, rows in the order the loaders give them; the same data
 * gives the same bytes. `--check` writes nothing and exits 1 when the bytes on disk differ from
 * what the data gives. The training text itself is never written into the repository.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkCommandLine, dataFolder, repositoryRoot } from '../common.js';
import { loadSources, SOURCES } from './data.js';
import { ESCALATION_LIMIT, judgeRows, RECIPE, shippedModelFrom, THRESHOLDS } from './learned.js';

checkCommandLine(
  `
pnpm train:model [--data DIR] [--check]

Trains the model that ships with @qualm/validator from the labelled responses and writes it
(packages/validator/model/refusal.qlm) with a record of its data and settings (refusal.json).

  --data DIR   the data folder holding responses/ (default ../shared/data)
  --check      write nothing; exit 1 when the bytes on disk differ from what the data gives

Examples:
  pnpm train:model
  pnpm train:model --check
`,
  { '--data': true, '--check': false },
);

const dataRoot = dataFolder();
const responses = join(dataRoot, 'responses');
const modelPath = join(repositoryRoot, 'packages', 'validator', 'model', 'refusal.qlm');
const recordPath = join(repositoryRoot, 'packages', 'validator', 'model', 'refusal.json');
const check = process.argv.includes('--check');

if (!existsSync(responses)) {
  console.error(`No labelled responses at ${responses}: the model cannot be trained here.`);
  process.exit(2);
}
const started = performance.now();
const data = loadSources(responses);
const missing = SOURCES.filter((source) => data[source].length === 0);
if (missing.length > 0) {
  console.error(
    `Missing sources under ${responses}: ${missing.join(', ')}; the shipped model uses all five.`,
  );
  process.exit(2);
}
console.log(`training the shipped model on the dev rows of ${SOURCES.join(', ')}…`);
const rows = judgeRows(data);
const shipped = shippedModelFrom(rows);
const sha256 = createHash('sha256').update(shipped.bytes).digest('hex');
const seconds = ((performance.now() - started) / 1000).toFixed(1);

const perSource = Object.fromEntries(
  SOURCES.map((source) => {
    const taught = rows.filter(
      (item) =>
        item.row.source === source &&
        item.row.split === 'dev' &&
        item.label !== undefined &&
        !(item.label === 'none' && item.voices !== undefined),
    );
    return [
      source,
      {
        refusal: taught.filter((item) => item.label === 'refusal').length,
        none: taught.filter((item) => item.label === 'none').length,
      },
    ];
  }),
);
const record = {
  file: 'refusal.qlm',
  bytes: shipped.bytes.length,
  sha256,
  command: 'pnpm train:model',
  labels: shipped.model.labels,
  threshold: shipped.model.threshold,
  thresholdChoice: {
    rule: `each source scored on its dev rows by a model trained on the other sources' dev rows; the threshold among ${THRESHOLDS.join(', ')} with the best mean refusal F1 (patterns and model combined) over GPTFuzz, JailbreakBench and RefusalBench, among those adding at most ${ESCALATION_LIMIT * 100}% escalation to the compliant dev answers of every source`,
    meanOutOfSourceF1: Number(shipped.choice.meanF1.toFixed(4)),
    worstAddedEscalation: Number(shipped.choice.worstAdded.toFixed(4)),
  },
  data: {
    root: '../shared/data/responses (not in the repository)',
    split:
      'dev rows only (bench/eval/data.ts: GPTFuzz authors’ train split, others by a hash of the prompt or question)',
    labelling: {
      gptfuzz: 'refusal = hand label "refusal" (not jailbroken); compliance → none',
      jailbreakbench: 'refusal = judge label "refusal" (not jailbroken); jailbroken → none',
      refusalbench:
        'direct_refusal or indirect_refusal → refusal; compliance → none; partial_compliance, non_responsive and [CONTENT_FILTERED] rows left out',
      truthfulqa: 'informative answers → none; uninformative left out',
      halueval: 'answers → none, except those where the patterns find a refusal (left out)',
      voices:
        'a compliant answer written in voices is left out: one of its voices refuses and the label cannot say which',
    },
    rows: perSource,
  },
  recipe: RECIPE,
  format:
    'qlm1: magic, format version, JSON header (labels, features, threshold, bias, scale, training), int8 weights per label, FNV-1a checksum',
};

/** JSON as the repository's formatter writes it: a short list of plain values on one line. */
function asFormatted(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    /^( *)("[^"\n]*": )?\[\n((?: *(?:"[^"\n]*"|-?[\d.]+),?\n)+) *\]/gm,
    (whole, indent: string, key: string | undefined, items: string) => {
      const line = `${indent}${key ?? ''}[${items.trim().split(/,\n */).join(', ')}]`;
      return line.length <= 100 ? line : whole;
    },
  );
}

if (check) {
  const onDisk = existsSync(modelPath) ? readFileSync(modelPath) : undefined;
  const same = onDisk !== undefined && Buffer.compare(onDisk, Buffer.from(shipped.bytes)) === 0;
  console.log(
    same
      ? `identical: ${modelPath} is what the data gives (sha256 ${sha256}, ${seconds} s)`
      : `DIFFERENT: the data gives sha256 ${sha256}; ${modelPath} ${onDisk ? `has ${createHash('sha256').update(onDisk).digest('hex')}` : 'is missing'}`,
  );
  process.exit(same ? 0 : 1);
}
writeFileSync(modelPath, shipped.bytes);
writeFileSync(recordPath, `${asFormatted(record)}\n`);
console.log(
  `wrote ${modelPath} (${shipped.bytes.length} bytes, sha256 ${sha256}) and ${recordPath}; threshold ${shipped.model.threshold}; ${seconds} s`,
);
