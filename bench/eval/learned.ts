/*
 * The learned layer of @qualm/validator on the labelled sources: patterns alone, the learned model
 * alone, and both combined, on every source and with every source left out.
 *
 * Protocol (BENCHMARKS.md): models are trained on `dev` rows only and measured on `test` rows.
 * The threshold of a learned-only signal is chosen without the rows it is measured on: for a set
 * of sources, each one in turn is scored by a model trained on the others' dev rows, and the
 * threshold with the best mean refusal F1 over those out-of-source scores is kept, among those
 * that add at most ESCALATION_LIMIT escalation to the compliant dev answers of every source. With
 * a source left out, that choice is made on the other sources alone and the model trained on their
 * dev rows; the source's test rows are then measured.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import {
  createValidator,
  type LearnedModel,
  type TrainingExample,
  trainModel,
} from '../../packages/validator/src/index.js';
import {
  LearnedLayer,
  openingRegion,
  VOICE_REACH,
} from '../../packages/validator/src/learned/layer.js';
import { encodeModel } from '../../packages/validator/src/learned/model-file.js';
import { speaksInVoices, VoiceTracker } from '../../packages/validator/src/voices.js';
import { type LabelledResponse, SOURCES, type SourceName, stableHash } from './data.js';
import { confusion, fixed, markdownTable, percent, rate, scores } from './report.js';

/** How the shipped model is trained: chosen on dev rows with each refusal source left out. */
export const RECIPE = {
  features: { window: 300, bits: 18, wordNgrams: 2, charMin: 0, charMax: 0, leadTokens: 8 },
  epochs: 10,
  learningRate: 0.05,
  l2: 0,
  seed: 1,
  balance: true,
} as const;

/** Thresholds the choice is made among. */
export const THRESHOLDS = [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 0.98];

/** Most escalation a learned-only signal may add to the compliant dev answers of any source. */
export const ESCALATION_LIMIT = 0.01;

const TITLES: Record<SourceName, string> = {
  gptfuzz: 'GPTFuzz',
  jailbreakbench: 'JailbreakBench',
  refusalbench: 'RefusalBench, real text',
  truthfulqa: 'TruthfulQA, informative answers',
  halueval: 'HaluEval, answers without a pattern refusal',
};

/** One response with what the patterns say about it and what it teaches. */
export interface Judged {
  row: LabelledResponse;
  /** `refusal`, `none` (an answer to trust), or undefined: neither taught nor measured. */
  label: 'refusal' | 'none' | undefined;
  patternRefusal: boolean;
  patternEscalates: boolean;
  /** Where its voices start in its opening region, when it is written in voices. */
  voices: number[] | undefined;
}

/**
 * What each row teaches. GPTFuzz and JailbreakBench "refusal" (not jailbroken) and RefusalBench
 * direct or indirect refusals are refusals; their compliant answers, TruthfulQA's informative
 * answers and HaluEval's answers are answers to trust, except HaluEval answers where the patterns
 * find a refusal (a capability limit given as the answer, which the validator escalates by design).
 */
export function judgeRows(data: Record<SourceName, LabelledResponse[]>): Judged[] {
  const validator = createValidator();
  const shortAnswers = createValidator({ minLength: 1 });
  return SOURCES.flatMap((source) =>
    data[source].map((row) => {
      const result = (source === 'truthfulqa' ? shortAnswers : validator).validate(row.text);
      const patternRefusal = result.signals.some((signal) => signal.type === 'refusal');
      let label: Judged['label'];
      if (source === 'halueval') label = patternRefusal ? undefined : 'none';
      else if (row.refusal === 'refusal') label = 'refusal';
      else if (row.refusal === 'compliance') label = 'none';
      const { region } = openingRegion(row.text, VOICE_REACH);
      const tracker = new VoiceTracker();
      tracker.scan(region, 0, region.length, true);
      return {
        row,
        label,
        patternRefusal,
        patternEscalates: result.shouldEscalate,
        voices: speaksInVoices(tracker, 0, RECIPE.features.window) ? tracker.starts : undefined,
      };
    }),
  );
}

/**
 * The training rows of some judged rows. A compliant answer written in voices is left out: one of
 * its voices may refuse, and the label cannot say which.
 */
export function trainingExamples(rows: readonly Judged[]): TrainingExample[] {
  return rows.flatMap((item): TrainingExample[] => {
    if (item.label === undefined) return [];
    if (item.label === 'none' && item.voices !== undefined) return [];
    return [{ text: item.row.text, label: item.label }];
  });
}

/** Which half of the dev rows a row's group falls in, for scoring the sources a model learns from. */
export const foldOf = (row: LabelledResponse) => stableHash(`fold ${row.source} ${row.group}`) % 2;

/** Trains the recipe on the dev rows of some sources (all but one half of them, with `fold`). */
export function trainOn(
  rows: readonly Judged[],
  sources: readonly SourceName[],
  fold?: number,
): LearnedModel {
  const chosen = rows.filter(
    (item) =>
      item.row.split === 'dev' &&
      sources.includes(item.row.source) &&
      (fold === undefined || foldOf(item.row) !== fold),
  );
  return trainModel(trainingExamples(chosen), {
    testSplit: 0,
    ...RECIPE,
    features: { ...RECIPE.features },
  }).model;
}

/** The refusal probability the learned layer weighs, for each row. */
function probabilities(model: LearnedModel, rows: readonly Judged[]): Float64Array {
  const layer = new LearnedLayer({ model });
  const label = model.labels.indexOf('refusal');
  const result = new Float64Array(rows.length);
  rows.forEach((item, index) => {
    const { region } = openingRegion(item.row.text, layer.reach);
    result[index] = layer.probabilities(region)[label] as number;
  });
  return result;
}

interface Figures {
  patterns: ReturnType<typeof measure>;
  learned: ReturnType<typeof measure>;
  combined: ReturnType<typeof measure>;
  compliant: number;
  escalatedByPatterns: number;
  escalatedCombined: number;
}

function measure(items: { actual: boolean; predicted: boolean }[]) {
  const counts = confusion(items);
  return { counts, ...scores(counts) };
}

/** Patterns, learned and combined figures of some rows at a threshold. */
function figuresAt(rows: readonly Judged[], probability: Float64Array, threshold: number): Figures {
  const labelled = rows
    .map((item, index) => ({ item, learned: (probability[index] as number) >= threshold }))
    .filter(({ item }) => item.label !== undefined);
  const refusals = labelled.filter(
    ({ item }) => item.row.source !== 'halueval' && item.row.source !== 'truthfulqa',
  );
  const compliant = labelled.filter(({ item }) => item.label === 'none');
  return {
    patterns: measure(
      refusals.map(({ item }) => ({
        actual: item.label === 'refusal',
        predicted: item.patternRefusal,
      })),
    ),
    learned: measure(
      refusals.map(({ item, learned }) => ({
        actual: item.label === 'refusal',
        predicted: learned,
      })),
    ),
    combined: measure(
      refusals.map(({ item, learned }) => ({
        actual: item.label === 'refusal',
        predicted: item.patternRefusal || learned,
      })),
    ),
    compliant: compliant.length,
    escalatedByPatterns: compliant.filter(({ item }) => item.patternEscalates).length,
    escalatedCombined: compliant.filter(
      ({ item, learned }) => item.patternEscalates || (learned && !item.patternRefusal),
    ).length,
  };
}

const refusalSource = (source: SourceName) => source !== 'truthfulqa' && source !== 'halueval';

/** Trains models on sets of sources once each. */
class Models {
  private readonly cache = new Map<string, LearnedModel>();
  trainings = 0;
  constructor(private readonly rows: readonly Judged[]) {}
  on(sources: readonly SourceName[], fold?: number): LearnedModel {
    const key = `${[...sources].sort().join('+')} ${fold ?? ''}`;
    let model = this.cache.get(key);
    if (!model) {
      model = trainOn(this.rows, sources, fold);
      this.trainings += 1;
      this.cache.set(key, model);
    }
    return model;
  }
}

/**
 * The threshold chosen on some sources. Each source's dev rows are scored twice: by a model
 * trained on the other sources' dev rows (out of source), and, half by half, by a model trained on
 * every source's other half (in source). The threshold kept has the best mean out-of-source
 * refusal F1 among those that add at most ESCALATION_LIMIT escalation to the compliant dev answers
 * of every source, scored either way.
 */
export function chooseThreshold(
  rows: readonly Judged[],
  sources: readonly SourceName[],
  models: Models,
): { threshold: number; meanF1: number; worstAdded: number } {
  const scored = sources.map((source) => {
    const own = rows.filter((item) => item.row.source === source && item.row.split === 'dev');
    const outside = probabilities(models.on(sources.filter((other) => other !== source)), own);
    const inside = new Float64Array(own.length);
    for (const fold of [0, 1]) {
      const half = own.flatMap((item, index) => (foldOf(item.row) === fold ? [index] : []));
      const scores = probabilities(
        models.on(sources, fold),
        half.map((index) => own[index] as Judged),
      );
      half.forEach((index, position) => {
        inside[index] = scores[position] as number;
      });
    }
    return { source, rows: own, outside, inside };
  });
  const added = (figures: Figures) =>
    (figures.escalatedCombined - figures.escalatedByPatterns) / Math.max(1, figures.compliant);
  let best = { threshold: THRESHOLDS[THRESHOLDS.length - 1] as number, meanF1: -1, worstAdded: 1 };
  let fallback = best;
  for (const threshold of THRESHOLDS) {
    const outside = scored.map((entry) => ({
      source: entry.source,
      ...figuresAt(entry.rows, entry.outside, threshold),
    }));
    const inside = scored.map((entry) => figuresAt(entry.rows, entry.inside, threshold));
    const withRefusals = outside.filter((entry) => refusalSource(entry.source));
    const meanF1 =
      withRefusals.reduce((total, entry) => total + entry.combined.f1, 0) /
      Math.max(1, withRefusals.length);
    const worstAdded = Math.max(...outside.map(added), ...inside.map(added));
    if (worstAdded <= ESCALATION_LIMIT && meanF1 > best.meanF1) {
      best = { threshold, meanF1, worstAdded };
    }
    if (worstAdded < fallback.worstAdded) fallback = { threshold, meanF1, worstAdded };
  }
  return best.meanF1 >= 0 ? best : fallback;
}

/** Checks the sweep against the validator itself: both must give the same verdicts. */
function checkAgainstValidator(
  rows: readonly Judged[],
  probability: Float64Array,
  model: LearnedModel,
  threshold: number,
): void {
  const validator = createValidator({ learned: { model, threshold } });
  const shortAnswers = createValidator({ minLength: 1, learned: { model, threshold } });
  rows.forEach((item, index) => {
    if (item.label === undefined) return;
    const result = (item.row.source === 'truthfulqa' ? shortAnswers : validator).validate(
      item.row.text,
    );
    const learned = result.signals.some((signal) => signal.source === 'learned');
    const expected = (probability[index] as number) >= threshold && !item.patternRefusal;
    if (learned !== expected) {
      throw new Error(`the sweep and the validator disagree on ${item.row.source} ${item.row.key}`);
    }
  });
}

/** Everything the learned layer's evaluation prints and writes. */
export interface LearnedEvaluation {
  sections: Record<string, string>;
  figures: {
    worstLeftOutF1: number;
    worstLeftOutSource: string;
    worstAdded: number;
    threshold: number;
  };
  shipped: { threshold: number; model: LearnedModel; bytes: Uint8Array };
}

/** The shipped model as the recipe makes it from the data: every source's dev rows. */
export function shippedModelFrom(rows: readonly Judged[], models = new Models(rows)) {
  const present = SOURCES.filter((source) => rows.some((item) => item.row.source === source));
  const choice = chooseThreshold(rows, present, models);
  const model = { ...models.on(present), threshold: choice.threshold };
  return { model, bytes: encodeModel(model), choice, sources: present };
}

/** Patterns alone, learned alone and combined, per source and each source left out. */
export function evaluateLearned(
  data: Record<SourceName, LabelledResponse[]>,
  options: { shippedPath?: string; log?: (line: string) => void } = {},
): LearnedEvaluation {
  const log = options.log ?? (() => {});
  const started = performance.now();
  const rows = judgeRows(data);
  const models = new Models(rows);
  const present = SOURCES.filter((source) => data[source].length > 0);
  const shipped = shippedModelFrom(rows, models);
  log(
    `threshold on all sources: ${shipped.choice.threshold} (mean out-of-source dev F1 ${fixed(shipped.choice.meanF1)})`,
  );

  const ownRows: string[][] = [];
  for (const source of present) {
    const test = rows.filter((item) => item.row.source === source && item.row.split === 'test');
    const probability = probabilities(shipped.model, test);
    checkAgainstValidator(test, probability, shipped.model, shipped.model.threshold);
    const figures = figuresAt(test, probability, shipped.model.threshold);
    const refusals = figures.combined.counts.truePositive + figures.combined.counts.falseNegative;
    const f1 = (entry: Figures['combined']) => (refusalSource(source) ? fixed(entry.f1) : '–');
    ownRows.push([
      TITLES[source],
      refusalSource(source) ? String(refusals) : '–',
      f1(figures.patterns),
      f1(figures.learned),
      refusalSource(source)
        ? `${fixed(figures.combined.precision)} / ${fixed(figures.combined.recall)} / **${fixed(figures.combined.f1)}**`
        : '–',
      `${rate(figures.escalatedByPatterns, figures.compliant)} → ${rate(figures.escalatedCombined, figures.compliant)}`,
    ]);
  }

  const leftOutRows: string[][] = [];
  let worstLeftOutF1 = 1;
  let worstLeftOutSource = '';
  let worstAdded = 0;
  for (const source of present) {
    const others = present.filter((other) => other !== source);
    const choice = chooseThreshold(rows, others, models);
    const model = { ...models.on(others), threshold: choice.threshold };
    const test = rows.filter((item) => item.row.source === source && item.row.split === 'test');
    const probability = probabilities(model, test);
    checkAgainstValidator(test, probability, model, choice.threshold);
    const figures = figuresAt(test, probability, choice.threshold);
    const added =
      (figures.escalatedCombined - figures.escalatedByPatterns) / Math.max(1, figures.compliant);
    worstAdded = Math.max(worstAdded, added);
    if (refusalSource(source) && figures.combined.f1 < worstLeftOutF1) {
      worstLeftOutF1 = figures.combined.f1;
      worstLeftOutSource = TITLES[source];
    }
    leftOutRows.push([
      TITLES[source],
      String(choice.threshold),
      refusalSource(source) ? fixed(figures.patterns.f1) : '–',
      refusalSource(source) ? fixed(figures.learned.f1) : '–',
      refusalSource(source) ? `**${fixed(figures.combined.f1)}**` : '–',
      rate(figures.escalatedCombined - figures.escalatedByPatterns, figures.compliant),
    ]);
    log(
      `left out ${source}: threshold ${choice.threshold}, combined F1 ${fixed(figures.combined.f1)}`,
    );
  }

  let shippedNote = '';
  if (options.shippedPath !== undefined) {
    const digest = (bytes: Uint8Array) =>
      createHash('sha256').update(bytes).digest('hex').slice(0, 16);
    if (!existsSync(options.shippedPath)) {
      shippedNote = ` The shipped model file is missing (${options.shippedPath}).`;
    } else {
      const onDisk = new Uint8Array(readFileSync(options.shippedPath));
      const same = Buffer.compare(Buffer.from(onDisk), Buffer.from(shipped.bytes)) === 0;
      shippedNote = same
        ? ` Retrained here from the data, the recipe gives the shipped model's bytes exactly (sha256 ${digest(onDisk)}…).`
        : ` **Retrained here, the recipe gives other bytes (sha256 ${digest(shipped.bytes)}…) than the shipped model (${digest(onDisk)}…): run \`pnpm train:model\`.**`;
    }
  }

  const own = [
    markdownTable(
      [
        'source (test split)',
        'refusals',
        'F1, patterns',
        'F1, learned alone',
        'combined: precision / recall / F1',
        'escalation of compliant answers, patterns → combined',
      ],
      ownRows,
      ['---', '---:', '---:', '---:', '---:', '---:'],
    ),
    '',
    `The shipped model: the recipe trained on the dev rows of every source (${models.on(present).training.rows.refusal ?? 0} refusals, ${models.on(present).training.rows.none ?? 0} answers to trust), threshold ${shipped.model.threshold} chosen as described above.${shippedNote} TruthfulQA is validated with \`minLength: 1\` (short answers).`,
  ].join('\n');
  const leftOut = [
    markdownTable(
      [
        'source left out (test split)',
        'threshold, chosen on the others',
        'F1, patterns',
        'F1, learned alone',
        'F1, combined',
        'escalation added to compliant answers',
      ],
      leftOutRows,
      ['---', '---:', '---:', '---:', '---:', '---:'],
    ),
    '',
    `Worst left-out combined F1: **${fixed(worstLeftOutF1)}** (${worstLeftOutSource}); most escalation added to a source's compliant answers: ${percent(worstAdded)}.`,
  ].join('\n');
  log(
    `${models.trainings} models trained in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  return {
    sections: { 'validator-learned': own, 'validator-learned-left-out': leftOut },
    figures: { worstLeftOutF1, worstLeftOutSource, worstAdded, threshold: shipped.model.threshold },
    shipped: { threshold: shipped.model.threshold, model: shipped.model, bytes: shipped.bytes },
  };
}
