// Speed and memory of an abstention replay: the S run over its 498 questions (a BM25 index over
// each question's sessions, built and queried, then layers 1 and 3), as
// `qualm bench longmemeval replay --abstention --no-nli` runs it. The quality figures of the
// detector come from `pnpm eval`.
// Run: pnpm bench:abstention [folder holding longmemeval_s_cleaned.json.gz and runs/]
import { existsSync } from 'node:fs';
import { cpus, platform, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
// the bench runs from the repository root, outside any workspace package, so it reads the
// packages' public entries by path
import { replayRuns } from '../../packages/benchmark/src/index.js';
import { AbstentionDetector } from '../../packages/search-core/src/index.js';

const defaultFolder = fileURLToPath(new URL('../../../shared/data/longmemeval/', import.meta.url));
const folder = process.argv[2] ?? defaultFolder;
const sData = join(folder, 'longmemeval_s_cleaned.json.gz');
const sRun = join(folder, 'runs/llama3.1-8b_s_rag_con.eval-results.jsonl');
const missing = [sData, sRun].filter((path) => !existsSync(path));
if (missing.length > 0) {
  console.log(`The LongMemEval data is absent (${missing.join(', ')}); nothing to measure.`);
  console.log('Pass the folder that holds longmemeval_s_cleaned.json.gz and runs/.');
  process.exit(0);
}

console.log('# Abstention replay: speed and memory\n');
console.log(
  `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, ${platform()} ${release()}, Node ${process.version}\n`,
);
const started = performance.now();
const replay = await replayRuns({
  sets: [{ dataPath: sData, runPaths: [sRun] }],
  detector: new AbstentionDetector({ useNLI: false }),
});
const wall = (performance.now() - started) / 1000;
const peakMegabytes = process.resourceUsage().maxRSS / 1024;
const { timing } = replay;
console.log(
  '| wall | questions | retrieval p50 / p90 per question | detector p50 / p90 per answer | peak RSS of the process |',
);
console.log('| ---: | ---: | ---: | ---: | ---: |');
console.log(
  `| ${wall.toFixed(1)} s | ${timing.questions} | ${timing.retrievalMs.p50.toFixed(1)} / ${timing.retrievalMs.p90.toFixed(1)} ms | ${timing.detectionMs.p50.toFixed(1)} / ${timing.detectionMs.p90.toFixed(1)} ms | ${peakMegabytes.toFixed(0)} MB |`,
);
