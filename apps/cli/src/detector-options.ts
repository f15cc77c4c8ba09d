import {
  AbstentionDetector,
  DEFAULT_DETECTOR_CONFIG,
  DEFAULT_NLI_MODEL_ID,
  loadNliModel,
  type NliModel,
  SearchCoreError,
} from '@qualm/search-core';
import type { Command } from 'commander';
import { CliError, CliErrorCode } from './errors.js';
import { type FlagRule, parseNumberOption } from './io.js';
import { explainMissingModel } from './model-errors.js';

/** The flags that configure an abstention detector, as commander parses them. */
export interface DetectorFlags {
  nli: boolean;
  nliModel: string;
  modelsDir?: string;
  abstentionThreshold?: string;
  scoreThreshold?: boolean;
}

/**
 * Adds the detector's flags to a command; `threshold: false` leaves out --abstention-threshold,
 * for a command that chooses the threshold itself.
 */
export function addDetectorOptions(
  command: Command,
  options: { threshold?: boolean } = {},
): Command {
  command
    .option('--no-nli', 'skip layer 2, grounding by NLI')
    .option('--nli-model <id>', 'NLI model of layer 2', DEFAULT_NLI_MODEL_ID)
    .option('--models-dir <dir>', 'folder holding models as <dir>/<org>/<name>/');
  if (options.threshold ?? true) {
    command.addOption(
      command
        .createOption(
          '--abstention-threshold <n>',
          "abstain when the strongest signal's confidence reaches this, 0 to 1",
        )
        .default(undefined, String(DEFAULT_DETECTOR_CONFIG.abstentionThreshold)),
    );
  }
  return command.option(
    '--score-threshold',
    'also apply the retrieval score checks of layer 1 as first designed',
  );
}

/**
 * The rules that refuse detector flags where they do nothing: all of them when the detector does
 * not run (`because` says why, naming the flag that would turn it on), and `--nli-model` with
 * `--no-nli`. `--models-dir` is left to the command, which may load other models from it.
 */
export function detectorFlagRules(
  flags: DetectorFlags,
  detector: { runs: boolean; because: string },
): FlagRule[] {
  return [
    { option: 'nli', flag: '--no-nli', applies: detector.runs, because: detector.because },
    { option: 'nliModel', flag: '--nli-model', applies: detector.runs, because: detector.because },
    {
      option: 'abstentionThreshold',
      flag: '--abstention-threshold',
      applies: detector.runs,
      because: detector.because,
    },
    {
      option: 'scoreThreshold',
      flag: '--score-threshold',
      applies: detector.runs,
      because: detector.because,
    },
    { option: 'nliModel', flag: '--nli-model', applies: flags.nli, because: 'with --no-nli' },
  ];
}

/** Builds the detector the flags describe, loading the NLI model unless `--no-nli` or `loadNli` is false. */
export async function createDetector(
  flags: DetectorFlags,
  loadNli = true,
): Promise<AbstentionDetector> {
  const abstentionThreshold =
    flags.abstentionThreshold === undefined
      ? undefined
      : parseNumberOption('--abstention-threshold', flags.abstentionThreshold, { min: 0, max: 1 });
  let nliModel: NliModel | undefined;
  if (flags.nli && loadNli) {
    try {
      nliModel = await loadNliModel({
        modelId: flags.nliModel,
        ...(flags.modelsDir ? { modelsDir: flags.modelsDir } : {}),
      });
    } catch (error) {
      if (!SearchCoreError.isInstance(error)) throw error;
      const explained = explainMissingModel(error, '--no-nli to skip layer 2');
      if (explained !== error) throw explained;
      // set-up, exit status 2: qualm abstain exits 1 to say "abstain"
      throw new CliError(
        CliErrorCode.INVALID_ARGUMENT,
        `${error.message} (layer 2 needs the NLI model; --no-nli skips it)`,
        { cause: error },
      );
    }
  }
  return new AbstentionDetector({
    useNLI: flags.nli,
    ...(nliModel ? { nliModel } : {}),
    useScoreThreshold: flags.scoreThreshold ?? false,
    ...(abstentionThreshold !== undefined ? { abstentionThreshold } : {}),
  });
}
