/*
 * Regenerates every quality table of BENCHMARKS.md and the README's summary from the labelled data.
 *
 *   pnpm eval [--data DIR] [--no-write] [--examples N]
 *
 * DIR (default ../shared/data beside the repository) holds responses/ and longmemeval/. Tables are
 * written between `<!-- eval:NAME -->` markers; `--no-write` only prints them. `--examples N`
 * prints up to N misjudged dev rows per refusal source (never test rows), for reading while
 * writing rules. Absent data is said and skipped; nothing is written for it.
 */
import { existsSync } from 'node:fs';
import { cpus, platform, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { argument, checkCommandLine, dataFolder, repositoryRoot } from '../common.js';
import { evaluateAbstention } from './abstention.js';
import { loadSources } from './data.js';
import { evaluateLearned } from './learned.js';
import { fixed, percent, writeBetweenMarkers } from './report.js';
import { devExamples, evaluateOtherSources, evaluateRefusals } from './validator.js';

checkCommandLine(
  `
pnpm eval [--data DIR] [--no-write] [--examples N]

Regenerates every quality table of BENCHMARKS.md and the README's summary from the labelled data.

  --data DIR      the data folder holding responses/ and longmemeval/ (default ../shared/data)
  --no-write      print the tables, change no file
  --examples N    also print up to N misjudged dev rows per refusal source (never test rows)

Examples:
  pnpm eval
  pnpm eval --no-write --examples 3
`,
  { '--data': true, '--no-write': false, '--examples': true },
);
const examplesGiven = argument('--examples');
if (examplesGiven !== undefined && !/^\d+$/.test(examplesGiven)) {
  console.error(`--examples needs a whole number, got ${JSON.stringify(examplesGiven)}`);
  process.exit(2);
}

const dataRoot = dataFolder();
const write = !process.argv.includes('--no-write');
const examples = Number(examplesGiven ?? 0);

const started = performance.now();
const machine = `${cpus()[0]?.model.trim() ?? 'cpu'} × ${cpus().length}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${platform()} ${release()}`;
console.log(`# qualm evaluation\ndata: ${dataRoot}\nmachine: ${machine}\n`);

const sections: Record<string, string> = {};
const summary: string[] = [];

const responses = join(dataRoot, 'responses');
if (existsSync(responses)) {
  const data = loadSources(responses);
  const counts = Object.entries(data)
    .map(([source, rows]) => `${source} ${rows.length}`)
    .join(', ');
  console.log(`## Labelled responses (${counts})\n`);
  const refusals = evaluateRefusals(data);
  sections['validator-refusal'] = refusals.markdown;
  sections['validator-other'] = evaluateOtherSources(data);
  console.log(`${sections['validator-refusal']}\n\n${sections['validator-other']}\n`);
  const entries = Object.entries(refusals.figures);
  if (entries.length > 0) {
    const worst = Math.min(...entries.map(([, figure]) => figure.leftOutF1));
    const worstEscalation = Math.max(...entries.map(([, figure]) => figure.escalation));
    summary.push(
      `| refusal F1, worst source left out (${entries.map(([source]) => source).join(', ')}) | ${fixed(worst)} |`,
      `| escalation of compliant answers, worst source | ${percent(worstEscalation)} |`,
    );
  }
  console.log('## The learned layer (patterns, learned, combined; each source left out)\n');
  const learned = evaluateLearned(data, {
    shippedPath: join(repositoryRoot, 'packages', 'validator', 'model', 'refusal.qlm'),
    log: (line) => console.log(line),
  });
  for (const [name, body] of Object.entries(learned.sections)) {
    sections[name] = body;
    console.log(`\n${body}\n`);
  }
  summary.push(
    `| refusal F1, default patterns with the learned layer, worst source left out | ${fixed(learned.figures.worstLeftOutF1)} |`,
    `| escalation the learned layer adds to compliant answers, worst source left out | ${percent(learned.figures.worstAdded)} |`,
  );
  if (examples > 0) console.log(devExamples(data, examples));
} else {
  console.log(`No labelled responses at ${responses}: the validator tables are not regenerated.\n`);
}

const longMemEval = join(dataRoot, 'longmemeval');
const abstention = existsSync(longMemEval) ? await evaluateAbstention(longMemEval) : undefined;
if (abstention) {
  console.log('## Abstention on the recorded LongMemEval runs\n');
  for (const [name, body] of Object.entries(abstention.sections)) {
    sections[name] = body;
    console.log(`${body}\n`);
  }
  const { recovered, wrong, worstAdded, worstDelta, runs } = abstention.figures;
  summary.push(
    `| abstention questions the readers got wrong, recovered (${runs} runs) | ${recovered}/${wrong} |`,
    `| added false abstention, worst run | ${percent(worstAdded, 2)} |`,
    `| overall accuracy change, worst run | ${worstDelta >= 0 ? '+' : '−'}${Math.abs(worstDelta * 100).toFixed(1)} points |`,
  );
} else {
  console.log(
    `No LongMemEval data and runs at ${longMemEval}: the abstention tables are not regenerated.\n`,
  );
}

if (summary.length > 0) {
  sections.summary = ['| measure | value |', '| --- | ---: |', ...summary].join('\n');
}
sections.machine = `Measured by \`pnpm eval\` on ${machine}.`;

if (write && Object.keys(sections).length > 1) {
  for (const file of ['BENCHMARKS.md', 'README.md']) {
    const written = writeBetweenMarkers(join(repositoryRoot, file), sections);
    console.log(`${file}: ${written.length > 0 ? written.join(', ') : 'no markers'} regenerated`);
  }
}
console.log(`\n(${((performance.now() - started) / 1000).toFixed(0)} s)`);
