// Load time, throughput and memory of the NLI path. By default it runs the tiny generated
// classifier: random weights and one embedding layer, so the figures measure the plumbing
// (tokenizer, batching, onnxruntime calls, windowing), not a real cross-encoder's speed or quality.
// With QUALM_MODELS_DIR set, it runs the real default model from that folder instead.
// run from packages/search-core: node --conditions=@qualm/source --import tsx bench/nli-tiny-model.ts
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { writeTinyClassifier } from '@qualm/testkit';
import { checkGrounding, loadNliModel, type NliPair } from '../src/index.js';

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function seeded(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

const WORDS = (
  'the a cat dog car book red blue green big small new old anna bob moved to paris london ' +
  'berlin in on at for with teacher doctor store bought sold likes lives works monday friday'
).split(' ');

function sentence(random: () => number, words: number): string {
  const chosen = Array.from({ length: words }, () => WORDS[Math.floor(random() * WORDS.length)]);
  const text = chosen.join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const memoryAtStart = process.memoryUsage();
const root = await mkdtemp(path.join(tmpdir(), 'qualm-nli-bench-'));
try {
  const realModelsDir = process.env.QUALM_MODELS_DIR;
  const info = await writeTinyClassifier(root, { maxLength: 128, precisions: ['fp32', 'q8'] });
  const options = realModelsDir
    ? { modelsDir: realModelsDir }
    : { modelId: info.modelId, modelsDir: root };

  let started = performance.now();
  await loadNliModel({ ...options, batchSize: 1 });
  const coldLoad = performance.now() - started;
  started = performance.now();
  // a second model in the same process: the tiny one when a real one is measured, else its q8 file
  await loadNliModel(
    realModelsDir ? { modelId: info.modelId, modelsDir: root } : { ...options, dtype: 'q8' },
  );
  const secondLoad = performance.now() - started;
  started = performance.now();
  await loadNliModel({ ...options, batchSize: 1 });
  const memoisedLoad = performance.now() - started;
  const memoryAfterLoad = process.memoryUsage();

  const random = seeded(1);
  const pairs: NliPair[] = Array.from({ length: 256 }, () => ({
    premise: sentence(random, 20 + Math.floor(random() * 60)),
    hypothesis: sentence(random, 5 + Math.floor(random() * 10)),
  }));

  const rows: [string, string, string][] = [];
  let reference = 0;
  for (const batchSize of [1, 8, 32]) {
    const runner = await loadNliModel({ ...options, batchSize });
    await runner.classify(pairs.slice(0, 16));
    const times: number[] = [];
    for (let round = 0; round < 5; round++) {
      started = performance.now();
      await runner.classify(pairs);
      times.push(performance.now() - started);
    }
    const pairsPerSecond = pairs.length / (median(times) / 1000);
    if (batchSize === 1) reference = pairsPerSecond;
    rows.push([
      `classify, batch ${batchSize}`,
      `${pairsPerSecond.toFixed(0)} pairs/s`,
      `${(pairsPerSecond / reference).toFixed(2)}× batch 1`,
    ]);
  }

  const evidence = Array.from({ length: 60 }, () => sentence(random, 15)).join(' ');
  const answer = `${sentence(random, 8)} ${sentence(random, 10)} ${sentence(random, 6)}`;
  const grounding = await loadNliModel({ ...options, batchSize: 32 });
  const groundingTimes: number[] = [];
  let result = await checkGrounding(grounding, { evidence, answer });
  for (let round = 0; round < 5; round++) {
    started = performance.now();
    result = await checkGrounding(grounding, { evidence, answer });
    groundingTimes.push(performance.now() - started);
  }
  const groundingMs = median(groundingTimes);
  rows.push([
    `checkGrounding, ${grounding.countTokens(evidence)}-token evidence, 3 sentences`,
    `${groundingMs.toFixed(1)} ms (${result.windows} windows, ${result.pairs} pairs)`,
    `${(result.pairs / (groundingMs / 1000) / reference).toFixed(2)}× batch 1 pairs/s`,
  ]);
  const memoryAfterRuns = process.memoryUsage();

  const cpu = cpus()[0]?.model ?? 'unknown cpu';
  console.log(
    `hardware: ${cpu}, ${cpus().length} cores, ${megabytes(totalmem())}; node ${process.version}`,
  );
  console.log(
    realModelsDir
      ? `model: ${grounding.modelId} from ${realModelsDir}, window ${grounding.maxTokens} tokens`
      : `model: tiny generated BERT-shaped classifier, vocabulary ${info.vocabularySize}, hidden ${info.hiddenSize}, window ${info.maxLength} tokens`,
  );
  console.log('');
  console.log(`load, cold (imports transformers.js and onnxruntime): ${coldLoad.toFixed(0)} ms`);
  console.log(`load, second model (runtime already loaded): ${secondLoad.toFixed(0)} ms`);
  console.log(`load, same options again (memoised): ${memoisedLoad.toFixed(2)} ms`);
  console.log('');
  const width = Math.max(...rows.map((row) => row[0].length));
  for (const [name, figure, ratio] of rows) {
    console.log(`${name.padEnd(width)}  ${figure.padEnd(40)}  ${ratio}`);
  }
  console.log('');
  console.log(
    `memory rss: ${megabytes(memoryAtStart.rss)} at start, ${megabytes(memoryAfterLoad.rss)} after two loads, ` +
      `${megabytes(memoryAfterRuns.rss)} after the runs`,
  );
  console.log(
    `memory rss added by transformers.js, onnxruntime and two sessions: ${megabytes(memoryAfterLoad.rss - memoryAtStart.rss)}`,
  );
  console.log(
    `memory heap used: ${megabytes(memoryAtStart.heapUsed)} at start, ${megabytes(memoryAfterLoad.heapUsed)} after two loads, ` +
      `${megabytes(memoryAfterRuns.heapUsed)} after the runs`,
  );
} finally {
  await rm(root, { recursive: true, force: true });
}
