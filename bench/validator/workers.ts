/*
 * `qualm validate --jsonl --workers N` on a large log of real answers: throughput and peak memory
 * on 1 worker (the calling thread), 2 workers and every core, against the one-worker run of the
 * same session; and peak memory on a log a quarter the size, to show it does not grow with input.
 *
 *   pnpm bench:validator:workers [--data DIR] [--size-mb 1024] [--runs 3]
 *
 * The log repeats the answers of ../shared/data/responses (GPTFuzz, JailbreakBench, HaluEval) with
 * fresh ids until it reaches the size; it is written to a temporary folder and deleted at the end.
 * Each run is the real CLI in a child process, its output going to /dev/null. Beside each run, the
 * cores other work kept busy meanwhile (the machine's busy time from /proc/stat less the run's own
 * CPU time, over its wall time): on a shared machine, workers only speed up on free cores.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  createWriteStream,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { availableParallelism, cpus, platform, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { argument, dataFolder, median, repositoryRoot } from '../common.js';

const dataRoot = dataFolder('responses');
const sizeMegabytes = Number(argument('--size-mb') ?? 1024);
const runs = Number(argument('--runs') ?? 3);
const cli = join(repositoryRoot, 'apps', 'cli', 'bin', 'qualm.js');

/** Answer texts of the labelled sets that ship as JSON Lines; undefined when the data is absent. */
function loadAnswers(): string[] | undefined {
  const sources = [
    { file: join(dataRoot, 'gptfuzz', 'labeled_responses.jsonl'), field: 'response' },
    { file: join(dataRoot, 'jailbreakbench', 'judged_responses.jsonl'), field: 'response' },
    { file: join(dataRoot, 'halueval', 'general_data.json'), field: 'chatgpt_response' },
  ].filter((source) => existsSync(source.file));
  if (sources.length === 0) return undefined;
  const answers: string[] = [];
  for (const source of sources) {
    for (const line of readFileSync(source.file, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const text = (JSON.parse(line) as Record<string, unknown>)[source.field];
      if (typeof text === 'string' && text.trim() !== '') answers.push(text);
    }
  }
  return answers;
}

/** Writes a JSON Lines log of about `bytes` bytes that repeats the answers with fresh ids. */
async function writeLog(path: string, answers: readonly string[], bytes: number): Promise<number> {
  const output = createWriteStream(path);
  let written = 0;
  let lines = 0;
  while (written < bytes) {
    const line = `${JSON.stringify({ id: lines, response: answers[lines % answers.length] })}\n`;
    written += Buffer.byteLength(line);
    lines += 1;
    if (!output.write(line))
      await new Promise<void>((resolve) => output.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) =>
    output.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
  return lines;
}

interface Run {
  seconds: number;
  peakMegabytes: number;
  /** Cores kept busy by other work during the run, on average (Linux /proc/stat). */
  otherCores: number;
}

// the child reports its own peak resident memory and CPU time (threads included) as it exits
const reportPeak = `data:text/javascript,process.on('exit',()=>{const u=process.resourceUsage();process.stderr.write('\\nqualm-bench-max-rss '+u.maxRSS+' cpu '+(u.userCPUTime+u.systemCPUTime)+'\\n')})`;

// seconds of CPU time the whole machine has spent busy so far (all cores), from /proc/stat
function busySeconds(): number {
  const fields = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  const total = fields.reduce((sum, value) => sum + value, 0);
  // USER_HZ is 100 on Linux
  return (total - idle) / 100;
}

function validateOnce(log: string, workers: number): Promise<Run> {
  return new Promise((resolve, reject) => {
    const devNull = openSync('/dev/null', 'w');
    const started = process.hrtime.bigint();
    const busyBefore = busySeconds();
    const child = spawn(
      process.execPath,
      [
        '--import',
        reportPeak,
        cli,
        'validate',
        log,
        '--jsonl',
        '--id-field',
        'id',
        '--format',
        'jsonl',
        '--workers',
        String(workers),
      ],
      { stdio: ['ignore', devNull, 'pipe'] },
    );
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (status) => {
      closeSync(devNull);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const busy = busySeconds() - busyBefore;
      const peak = /qualm-bench-max-rss (\d+) cpu (\d+)/.exec(stderr);
      if (status !== 0 || peak === null) {
        reject(new Error(`qualm validate --workers ${workers} exited ${status}: ${stderr.trim()}`));
        return;
      }
      const ownSeconds = Number(peak[2]) / 1e6;
      resolve({
        seconds,
        peakMegabytes: Number(peak[1]) / 1024,
        otherCores: Math.max(0, (busy - ownSeconds) / seconds),
      });
    });
  });
}

function hardware(): string {
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  const memory = Math.round(totalmem() / 1024 ** 3);
  return `${cpu}, ${availableParallelism()} cores, ${memory} GB, Node ${process.version}, ${platform()} ${release()}`;
}

async function main(): Promise<void> {
  const answers = loadAnswers();
  if (answers === undefined) {
    console.log(`data absent: no answer files under ${dataRoot}; nothing measured`);
    return;
  }
  console.log('building the CLI …');
  const build = spawnSync(
    'pnpm',
    ['turbo', 'run', 'build', '--filter=@qualm/cli...', '--output-logs=errors-only'],
    {
      cwd: repositoryRoot,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  if (build.status !== 0) throw new Error('the CLI did not build');

  const folder = mkdtempSync(join(tmpdir(), 'qualm-bench-workers-'));
  try {
    const large = join(folder, 'large.jsonl');
    const small = join(folder, 'small.jsonl');
    const largeLines = await writeLog(large, answers, sizeMegabytes * 1024 * 1024);
    await writeLog(small, answers, (sizeMegabytes / 4) * 1024 * 1024);
    const largeMegabytes = statSync(large).size / 1e6;
    const smallMegabytes = statSync(small).size / 1e6;
    console.log(
      `log: ${largeMegabytes.toFixed(0)} MB, ${largeLines.toLocaleString('en')} answers (${answers.length.toLocaleString('en')} distinct, mean ${Math.round((largeMegabytes * 1e6) / largeLines)} bytes a line)`,
    );

    const cores = availableParallelism();
    const counts = [...new Set([1, 2, cores])];
    const largeRuns = new Map<number, Run[]>(counts.map((workers) => [workers, []]));
    const smallRuns = new Map<number, Run[]>(counts.map((workers) => [workers, []]));
    // the settings take turns, so load from other work on the machine falls on all of them
    for (let round = 0; round < runs; round += 1) {
      for (const workers of counts) {
        largeRuns.get(workers)!.push(await validateOnce(large, workers));
        process.stdout.write('.');
      }
    }
    for (const workers of counts) {
      smallRuns.get(workers)!.push(await validateOnce(small, workers));
    }
    process.stdout.write('\n');

    const rate = (workers: number) =>
      median(largeRuns.get(workers)!.map((run) => largeMegabytes / run.seconds));
    const oneCore = rate(1);
    console.log(`\n${hardware()}`);
    console.log(
      `qualm validate LOG --jsonl --id-field id --format jsonl --workers N > /dev/null; median of ${runs} runs\n`,
    );
    const header = [
      'workers',
      'MB/s',
      'runs (MB/s)',
      'other work (cores)',
      '× 1 worker',
      'target',
      `peak RSS, ${smallMegabytes.toFixed(0)} MB log`,
      `peak RSS, ${largeMegabytes.toFixed(0)} MB log`,
    ];
    const rows = counts.map((workers) => [
      workers === cores ? `${workers} (all cores)` : String(workers),
      rate(workers).toFixed(1),
      largeRuns
        .get(workers)!
        .map((run) => (largeMegabytes / run.seconds).toFixed(0))
        .join(', '),
      largeRuns
        .get(workers)!
        .map((run) => run.otherCores.toFixed(1))
        .join(', '),
      `${(rate(workers) / oneCore).toFixed(2)}×`,
      workers === 1 ? '-' : `${(0.8 * workers).toFixed(1)}×`,
      `${median(smallRuns.get(workers)!.map((run) => run.peakMegabytes)).toFixed(0)} MB`,
      `${median(largeRuns.get(workers)!.map((run) => run.peakMegabytes)).toFixed(0)} MB`,
    ]);
    const widths = header.map((cell, column) =>
      Math.max(cell.length, ...rows.map((row) => row[column]!.length)),
    );
    const line = (cells: string[]) =>
      `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
    console.log(line(header));
    console.log(line(widths.map((width) => '-'.repeat(width))));
    for (const row of rows) console.log(line(row));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

await main();
