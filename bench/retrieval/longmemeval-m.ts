// LongMemEval M in bounded memory: generates a file of the M set's size (500 questions of 500
// sessions, about 2.7 GB; the real file is not in ../shared), then runs each step in a child
// process of its own and prints the child's peak RSS: the loader alone, the retrieval evaluation
// writing the harness's retrieval log, and the abstention replay. The same steps on a tenth of
// the questions are the reference: memory that does not grow with the file is bounded.
// Run: pnpm bench:longmemeval-m [questions, default 500] [sessions per question, default 500]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, platform, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
// the bench runs from the repository root, outside any workspace package, so it reads the
// packages' public entries by path
import {
  replayRuns,
  runLongMemEvalRetrieval,
  streamLongMemEval,
} from '../../packages/benchmark/src/index.js';
import { AbstentionDetector } from '../../packages/search-core/src/index.js';
import { writeLongMemEvalFile } from '../../packages/testkit/src/index.js';

type Step = 'load' | 'retrieve' | 'replay';

interface StepResult {
  step: Step;
  seconds: number;
  peakRssMb: number;
  detail: string;
}

async function runStep(step: Step, dataPath: string, work: string): Promise<StepResult> {
  const started = performance.now();
  let detail = '';
  if (step === 'load') {
    let questions = 0;
    let sessions = 0;
    for await (const question of streamLongMemEval(dataPath)) {
      questions += 1;
      sessions += question.haystack_sessions.length;
    }
    detail = `${questions} questions, ${sessions} sessions validated`;
  } else if (step === 'retrieve') {
    const logPath = join(work, 'm.retrievallog');
    const run = await runLongMemEvalRetrieval({
      path: dataPath,
      level: 'session',
      retriever: 'fulltext',
      logPath,
    });
    detail =
      `${run.n} scored, recall_any@5 ${run.metrics['recall_any@5']?.toFixed(4)}; ` +
      `log ${run.log?.lines} lines, ${(statSync(logPath).size / 2 ** 30).toFixed(2)} GiB`;
    rmSync(logPath, { force: true });
  } else {
    const runPath = join(work, 'run.jsonl');
    const replay = await replayRuns({
      sets: [{ dataPath, runPaths: [runPath] }],
      detector: new AbstentionDetector({ useNLI: false }),
    });
    const answers = replay.runs[0]?.answers ?? [];
    detail = `${answers.length} recorded answers replayed, ${answers.filter((answer) => answer.detection).length} through the detector`;
  }
  return {
    step,
    seconds: (performance.now() - started) / 1000,
    // resourceUsage reports kilobytes
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    detail,
  };
}

// each step in a fresh process, so that its peak is its own
function inChild(step: Step, dataPath: string, work: string): StepResult {
  const output = execFileSync(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url), '--step', step, dataPath, work],
    { encoding: 'utf8', maxBuffer: 1 << 20, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return JSON.parse(output.trim().split('\n').at(-1)!) as StepResult;
}

function writeRun(path: string, questions: number): void {
  const lines = Array.from({ length: questions }, (_, index) => {
    const abstention = index % 10 === 9;
    return JSON.stringify({
      question_id: `generated_${index}${abstention ? '_abs' : ''}`,
      hypothesis: abstention ? 'You told me about a purple yacht.' : 'You told me about it.',
      autoeval_label: { model: 'gpt-4o-2024-08-06', label: !abstention },
    });
  });
  writeFileSync(path, `${lines.join('\n')}\n`);
}

async function main(): Promise<void> {
  if (process.argv[2] === '--step') {
    const [, , , step, dataPath, work] = process.argv;
    const result = await runStep(step as Step, dataPath!, work!);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return;
  }
  const questions = Number(process.argv[2] ?? 500);
  const sessionsPerQuestion = Number(process.argv[3] ?? 500);
  const cpu = cpus()[0]?.model ?? 'unknown cpu';
  console.log(
    `# LongMemEval M in bounded memory\n\n${cpu} × ${cpus().length}, ${Math.round(totalmem() / 2 ** 30)} GiB, ` +
      `node ${process.version}, ${platform()} ${release()}\n`,
  );
  const work = mkdtempSync(join(tmpdir(), 'qualm-longmemeval-m-'));
  try {
    console.log('| questions | file | step | wall s | peak RSS MB | what it did |');
    console.log('|---:|---:|---|---:|---:|---|');
    for (const count of [Math.max(1, Math.round(questions / 10)), questions]) {
      const dataPath = join(work, `m-${count}.json`);
      const started = performance.now();
      const data = await writeLongMemEvalFile(dataPath, {
        questions: count,
        sessionsPerQuestion,
      });
      const size = `${(data.bytes / 2 ** 30).toFixed(2)} GiB`;
      console.error(
        `generated ${count} questions × ${sessionsPerQuestion} sessions (${size}) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
      writeRun(join(work, 'run.jsonl'), count);
      for (const step of ['load', 'retrieve', 'replay'] as const) {
        const result = inChild(step, dataPath, work);
        console.log(
          `| ${count} | ${size} | ${step} | ${result.seconds.toFixed(1)} | ${result.peakRssMb.toFixed(0)} | ${result.detail} |`,
        );
      }
      rmSync(dataPath, { force: true });
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
