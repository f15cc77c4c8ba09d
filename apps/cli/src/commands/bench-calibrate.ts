import {
  calibrate,
  calibrationMarkdown,
  type RunSet,
  replayRuns,
  writeCalibrationReport,
} from '@qualm/benchmark';
import type { Command } from 'commander';
import {
  addDetectorOptions,
  createDetector,
  type DetectorFlags,
  detectorFlagRules,
} from '../detector-options.js';
import { CliError, CliErrorCode } from '../errors.js';
import { parseNumberOption, prepareOutputFolder, rejectUselessFlags } from '../io.js';
import { Progress } from '../progress.js';
import { longmemevalCommand } from './longmemeval-group.js';

interface CalibrateFlags extends Omit<DetectorFlags, 'abstentionThreshold'> {
  data: string[];
  run: string[];
  out: string;
  maxFalseAbstention: string;
}

const example = `
Replays the detector over every run once, then sweeps its abstention threshold, and the first
design's retrieval score threshold beside it, on one half of the questions (a stable hash of the
id). For each it keeps the setting with the best pooled overall accuracy whose added false-abstention
rate stays within --max-false-abstention, and reports it on the other half. Writes calibration.json,
calibration.md and tradeoff.svg into --out (created when missing; checked before any work).

Give one --data for every run, or one per run in the same order (runs recorded on the oracle
file replay on it, runs on S on the S file).

Examples:
  qualm bench longmemeval calibrate --data longmemeval_oracle.json \\
    --run oracle_con.eval-results.jsonl oracle_cot.eval-results.jsonl --out calibration/ --no-nli
  qualm bench longmemeval calibrate --no-nli --out calibration/ \\
    --data longmemeval_oracle.json longmemeval_oracle.json longmemeval_s_cleaned.json.gz \\
    --run oracle_con.jsonl oracle_cot.jsonl s_rag_con.jsonl`;

/** Registers `qualm bench longmemeval calibrate`. */
export function registerBenchCalibrate(program: Command): void {
  const command = longmemevalCommand(program)
    .command('calibrate')
    .description(
      'Choose the detector threshold on one half of the questions and report it on the other.',
    )
    .requiredOption(
      '--data <files...>',
      'LongMemEval file for all runs, or one per run in the same order',
    )
    .requiredOption(
      '--run <files...>',
      'recorded runs with judge labels (official eval-results JSON Lines)',
    )
    .requiredOption('--out <dir>', 'folder for calibration.json, calibration.md and tradeoff.svg')
    .option(
      '--max-false-abstention <rate>',
      'bound on the added false-abstention rate, 0 to 1 (0.005: the project target, as pnpm eval uses)',
      '0.005',
    );
  addDetectorOptions(command, { threshold: false })
    .addHelpText('after', example)
    .action(async (flags: CalibrateFlags, command: Command) => {
      rejectUselessFlags(command, [
        ...detectorFlagRules(flags, { runs: true, because: '' }),
        { option: 'modelsDir', flag: '--models-dir', applies: flags.nli, because: 'with --no-nli' },
      ]);
      const maxFalseAbstentionRate = parseNumberOption(
        '--max-false-abstention',
        flags.maxFalseAbstention,
        { min: 0, max: 1 },
      );
      const sets = runSets(flags.data, flags.run);
      prepareOutputFolder(flags.out);
      const detector = await createDetector(flags);
      const progress = new Progress('calibrate: replay', undefined);
      const replay = await replayRuns({
        sets,
        detector,
        onProgress: (_done, total) => {
          progress.setTotal(sets.length === 1 ? total : undefined);
          progress.tick();
        },
      });
      progress.finish();
      const report = calibrate(replay, { maxFalseAbstentionRate });
      const files = await writeCalibrationReport(report, flags.out);
      process.stdout.write(
        `${calibrationMarkdown(report, { image: false }).trimEnd()}\n\nwrote ${files.join(', ')}\n`,
      );
    });
}

/** Pairs runs with data files: one file for all runs, or one per run; runs on one file share a pass. */
function runSets(dataPaths: readonly string[], runPaths: readonly string[]): RunSet[] {
  if (dataPaths.length !== 1 && dataPaths.length !== runPaths.length) {
    throw new CliError(
      CliErrorCode.INVALID_ARGUMENT,
      `give one --data for every run or one per run: got ${dataPaths.length} data files for ${runPaths.length} runs`,
    );
  }
  const sets = new Map<string, string[]>();
  runPaths.forEach((runPath, index) => {
    const dataPath = dataPaths.length === 1 ? (dataPaths[0] ?? '') : (dataPaths[index] ?? '');
    sets.set(dataPath, [...(sets.get(dataPath) ?? []), runPath]);
  });
  return [...sets].map(([dataPath, paths]) => ({ dataPath, runPaths: paths }));
}
