/*
 * What the benchmark and evaluation scripts share: their command-line values, where the
 * repository and the data are, the machine in one line, the real responses they time, the
 * median of repeated timings, and the validator's sources at an earlier commit.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { cpus, platform, release, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSources } from './eval/data.js';

/**
 * Checks a script's command line against the options it takes: `--help` prints `usage` and exits 0;
 * an option it does not take, or one that needs a value and has none, is one error line and exit 2.
 * `options` maps each option to whether a value follows it.
 */
export function checkCommandLine(usage: string, options: Record<string, boolean>): void {
  const given = process.argv.slice(2);
  if (given.includes('--help') || given.includes('-h')) {
    console.log(usage.trim());
    process.exit(0);
  }
  for (let index = 0; index < given.length; index += 1) {
    const option = given[index] as string;
    const takesValue = options[option];
    if (takesValue === undefined) {
      console.error(`unknown option ${JSON.stringify(option)}; --help lists the options`);
      process.exit(2);
    }
    if (takesValue) {
      const value = given[index + 1];
      if (value === undefined || value.startsWith('--')) {
        console.error(`${option} needs a value; --help lists the options`);
        process.exit(2);
      }
      index += 1;
    }
  }
}

/** The value given after `name` on the command line, if any. */
export function argument(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
}

export const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** `--data`, or the folder `../shared/data/<below…>` beside the repository. */
export function dataFolder(...below: string[]): string {
  return resolve(argument('--data') ?? join(repositoryRoot, '..', 'shared', 'data', ...below));
}

/** The processor, cores, memory, Node and system, in one line. */
export function hardware(): string {
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  return `${cpu}, ${cpus().length} cores, ${Math.round(totalmem() / 1024 ** 3)} GB, Node ${process.version}, ${platform()} ${release()}`;
}

/**
 * The real responses of `folder` (HaluEval answers, RefusalBench and GPTFuzz responses), in a
 * fixed shuffle given by `seed`, so that every run measures the same texts. Without them the
 * script says so and ends: benchmarks run on real text only. `data`: the sources of `folder`, when
 * the script has read them already.
 */
export function realResponses(
  folder: string,
  seed: number,
  data: ReturnType<typeof loadSources> = loadSources(folder),
): string[] {
  const responses = [...data.halueval, ...data.refusalbench, ...data.gptfuzz]
    .map((row) => row.text)
    .filter((text) => text.trim() !== '');
  if (responses.length === 0) {
    console.log(
      `No real responses at ${folder} (halueval/, refusalbench/, gptfuzz/): nothing to measure.\n` +
        'The benchmark runs on real text only; point --data at a folder that holds them.',
    );
    process.exit(0);
  }
  let state = seed;
  const random = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
  for (let index = responses.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [responses[index], responses[other]] = [responses[other] as string, responses[index] as string];
  }
  return responses;
}

/** The median of some values (the mean of the middle two for an even count; 0 for none). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/**
 * Texts of about a given size in bytes: the next responses joined with blank lines, cut by
 * characters near the size (the exact size is measured where it matters).
 */
export function textJoiner(responses: readonly string[]): (bytes: number) => string {
  let cursor = 0;
  return (bytes) => {
    let text = '';
    while (Buffer.byteLength(text) < bytes) text += `${responses[cursor++ % responses.length]}\n\n`;
    return text.slice(0, Math.round((bytes * text.length) / Buffer.byteLength(text)));
  };
}

/** The "short chat answers" the benchmarks time: responses of 200 to 2,000 bytes, as they are. */
export function shortAnswers(responses: readonly string[]): string[] {
  return responses.filter((text) => {
    const bytes = Buffer.byteLength(text);
    return bytes >= 200 && bytes <= 2000;
  });
}

/**
 * Writes the validator's sources at commit `rev` (`git archive REV packages/validator/src`) into
 * `folder`, beside the package's own so that they resolve the same dependencies, and returns the
 * short commit and the path of their index.ts. A name that is no commit is one error line, exit 2.
 */
export function validatorSourcesAt(rev: string, folder: string): { commit: string; index: string } {
  let commit: string;
  try {
    commit = execFileSync('git', ['rev-parse', '--verify', '--short', `${rev}^{commit}`], {
      cwd: repositoryRoot,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    console.error(`--base ${rev} names no commit of this repository`);
    process.exit(2);
  }
  const archive = execFileSync('git', ['archive', commit, 'src'], {
    cwd: join(repositoryRoot, 'packages', 'validator'),
    maxBuffer: 1 << 28,
  });
  mkdirSync(folder, { recursive: true });
  execFileSync('tar', ['-x', '-C', folder], { input: archive });
  return { commit, index: join(folder, 'src', 'index.ts') };
}
