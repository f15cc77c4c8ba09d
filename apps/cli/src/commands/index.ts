import type { Command } from 'commander';

/** Adds a verb (or one subcommand of `bench longmemeval`) to the program. */
export type Register = (program: Command) => void;

/**
 * Each verb adds itself to the program; one file per verb under this folder. A verb's file is
 * loaded only when the verb runs (or for the program's own help), so `qualm validate` does not
 * load the chat client, the retrieval models or the benchmark.
 */
export const verbs: ReadonlyArray<{ name: string; load: () => Promise<Register[]> }> = [
  { name: 'validate', load: async () => [(await import('./validate.js')).registerValidate] },
  { name: 'train', load: async () => [(await import('./train.js')).registerTrain] },
  { name: 'abstain', load: async () => [(await import('./abstain.js')).registerAbstain] },
  { name: 'judge', load: async () => [(await import('./judge.js')).registerJudge] },
  {
    name: 'bench',
    load: async () => {
      const loaded = await Promise.all([
        import('./bench-retrieve.js'),
        import('./bench-generate.js'),
        import('./bench-evaluate.js'),
        import('./bench-metrics.js'),
        import('./bench-replay.js'),
        import('./bench-calibrate.js'),
        import('./bench-report.js'),
      ]);
      const [retrieve, generate, evaluate, metrics, replay, calibrate, report] = loaded;
      return [
        retrieve.registerBenchRetrieve,
        generate.registerBenchGenerate,
        evaluate.registerBenchEvaluate,
        metrics.registerBenchMetrics,
        replay.registerBenchReplay,
        calibrate.registerBenchCalibrate,
        report.registerBenchReport,
      ];
    },
  },
];

/**
 * The verbs a command line needs: the one it names (its first word that is not a flag; the
 * program's own flags take no value), or every verb when it names none or one that does not exist,
 * for the program's help and its "did you mean" hint.
 */
export async function registersFor(args: readonly string[]): Promise<Register[]> {
  const word = args.find((arg) => !arg.startsWith('-'));
  const named = verbs.find((verb) => verb.name === word);
  const chosen = named ? [named] : verbs;
  return (await Promise.all(chosen.map((verb) => verb.load()))).flat();
}
