/*
 * What a fresh process (a CLI run, a worker thread's first task, a serverless cold start) pays
 * before its first answer is checked: loading the validator, `createValidator()`, and the first
 * `validate()` (where V8 compiles the regular expressions that run). Each figure is the median over
 * fresh Node processes; with --base REV the validator of that commit is timed in the same run, in
 * turns with this tree's, so the ratio holds on a shared machine.
 *
 *   pnpm bench:validator:startup [--base REV] [--runs 9] [--library]

 * By default each process sets the V8 flag the qualm command sets (every regular expression
 * compiled to machine code at its first run); with --library it keeps V8's defaults, as a program
 * that imports the validator does.
 *
 * Needs no data: the first answer is a short refusal written here.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  argument,
  checkCommandLine,
  hardware,
  median,
  repositoryRoot,
  validatorSourcesAt,
} from '../common.js';

checkCommandLine(
  `
pnpm bench:validator:startup [--base REV] [--runs 9] [--library]

Times, in fresh Node processes, loading the validator, createValidator() and the first validate(),
and prints the median of each; with --base, the same for the validator at commit REV, in turns.

  --base REV   also time the validator of this commit (or branch, or tag)
  --runs N     fresh processes for each validator (default 9)
  --library    keep V8's defaults, as a program that imports the validator does (the qualm
               command compiles every regular expression to machine code at its first run)

Examples:
  pnpm bench:validator:startup
  pnpm bench:validator:startup --base HEAD~3 --runs 5
  pnpm bench:validator:startup --base HEAD~1 --library
`,
  { '--base': true, '--runs': true, '--library': false },
);
const library = process.argv.includes('--library');
const runs = Number(argument('--runs') ?? 9);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`--runs must be a whole number of at least 1, got ${argument('--runs')}`);
  process.exit(2);
}

const packageFolder = join(repositoryRoot, 'packages', 'validator');
const scratch = mkdtempSync(join(packageFolder, '.startup-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));
process.on('SIGINT', () => process.exit(130));

// run in each fresh process: the flag the qualm command sets (unless --library), then the three
// steps, timed
const probe = join(scratch, 'probe.mts');
const flag = library
  ? ''
  : "import { setFlagsFromString } from 'node:v8';\nsetFlagsFromString('--regexp-tier-up-ticks=0');\n";
writeFileSync(
  probe,
  `${flag}const started = performance.now();
const { createValidator } = await import(process.argv[2]);
const loaded = performance.now();
const validator = createValidator();
const created = performance.now();
validator.validate("I'm sorry, but I can't help you get into your neighbour's wifi.");
const checked = performance.now();
console.log(JSON.stringify({ load: loaded - started, create: created - loaded, first: checked - created }));
`,
);

interface Subject {
  name: string;
  index: string;
}
const subjects: Subject[] = [];
const base = argument('--base');
if (base !== undefined) {
  const { commit, index } = validatorSourcesAt(base, join(scratch, 'base'));
  subjects.push({ name: `base (${commit})`, index });
}
subjects.push({ name: 'this tree', index: join(packageFolder, 'src', 'index.ts') });

type Times = { load: number; create: number; first: number };
const times = new Map<string, Times[]>(subjects.map((subject) => [subject.name, []]));
const run = (subject: Subject): Times =>
  JSON.parse(
    execFileSync(
      process.execPath,
      ['--import', 'tsx', '--conditions=@qualm/source', probe, subject.index],
      { cwd: repositoryRoot, encoding: 'utf8' },
    ),
  ) as Times;
// one untimed process each first: TypeScript is compiled to a cache on the first load
for (const subject of subjects) run(subject);
for (let round = 0; round < runs; round += 1) {
  for (const subject of round % 2 === 0 ? subjects : [...subjects].reverse()) {
    times.get(subject.name)?.push(run(subject));
    process.stderr.write(`\r${round + 1}/${runs} processes each`);
  }
}
process.stderr.write('\n');

const ms = (value: number) => `${value.toFixed(0)} ms`;
console.log(`hardware: ${hardware()}`);
console.log(`fresh processes per validator: ${runs} (medians)`);
console.log(
  library
    ? "V8's defaults, as a program that imports the validator runs\n"
    : 'the V8 flag the qualm command sets (--regexp-tier-up-ticks=0)\n',
);
console.log(
  '| validator | load (TypeScript, from a warm cache) | createValidator() | first validate() | create + first |',
);
console.log('| --- | ---: | ---: | ---: | ---: |');
const totals: number[] = [];
for (const subject of subjects) {
  const list = times.get(subject.name) ?? [];
  const pick = (key: keyof Times) => median(list.map((each) => each[key]));
  const total = median(list.map((each) => each.create + each.first));
  totals.push(total);
  console.log(
    `| ${subject.name} | ${ms(pick('load'))} | ${ms(pick('create'))} | ${ms(pick('first'))} | ${ms(total)} |`,
  );
}
if (totals.length === 2) {
  console.log(
    `\ncreate + first, this tree / base: ${((totals[1] ?? 0) / (totals[0] ?? 1)).toFixed(2)}`,
  );
}
