/*
 * How well @qualm/validator finds refusals, and how often it escalates answers to trust, on the
 * labelled sources in ../shared/data/responses.
 *
 * Protocol (BENCHMARKS.md): every source is split by group (rows sharing a prompt or question stay
 * on one side); patterns may be read against `dev` rows only; `test` rows are what is reported.
 * Each refusal source is also reported LEFT OUT: the one setting chosen from data, the opening
 * length where refusal cues are read, is chosen on the other sources' dev rows and measured on
 * this source's test rows.
 */
import { createValidator, type ResponseQuality } from '../../packages/validator/src/index.js';
import { type LabelledResponse, REFUSAL_SOURCES, type SourceName, type Split } from './data.js';
import { confusion, fixed, markdownTable, rate, scores } from './report.js';

/** The opening lengths the left-out choice is made among; 400 is the default. */
export const LEAD_LENGTHS = [200, 400, 800] as const;

const SOURCE_TITLES: Record<SourceName, string> = {
  gptfuzz: 'GPTFuzz (hand labels; authors’ evaluate split)',
  jailbreakbench: 'JailbreakBench (LLM-judge labels)',
  refusalbench: 'RefusalBench, real text (LLM-council labels)',
  truthfulqa: 'TruthfulQA finetune_info (hand labels)',
  halueval: 'HaluEval general (hand labels)',
};

// a plain list of openings, written here as a reference point: what a string matcher finds
const PLAIN_OPENINGS = [
  "i'm sorry",
  'i am sorry',
  'i apologize',
  'i apologise',
  'as an ai',
  "i can't",
  'i cannot',
  "i won't",
  'i will not',
  'i am unable',
  "i'm unable",
  'i must decline',
];

/** A refusal the plain openings find: the response starts with one of them. */
export function plainOpeningRefusal(text: string): boolean {
  const opening = text.trimStart().slice(0, 40).toLowerCase().replace(/[’‘]/g, "'");
  return PLAIN_OPENINGS.some((phrase) => opening.startsWith(phrase));
}

interface Judged {
  row: LabelledResponse;
  result: ResponseQuality;
}

const hasRefusal = (result: ResponseQuality) =>
  result.signals.some((signal) => signal.type === 'refusal');

function refusalScores(items: { row: LabelledResponse; predicted: boolean }[]) {
  const labelled = items.filter((item) => item.row.refusal !== 'other');
  const counts = confusion(
    labelled.map((item) => ({ actual: item.row.refusal === 'refusal', predicted: item.predicted })),
  );
  return { counts, ...scores(counts) };
}

/** The validator's verdicts on every row, for each opening length. */
function judgeAll(rows: LabelledResponse[]): Map<number, Judged[]> {
  const byLead = new Map<number, Judged[]>();
  for (const leadLength of LEAD_LENGTHS) {
    const validator = createValidator({ leadLength });
    byLead.set(
      leadLength,
      rows.map((row) => ({ row, result: validator.validate(row.text) })),
    );
  }
  return byLead;
}

const inSplit = (items: Judged[], source: SourceName, split: Split) =>
  items.filter((item) => item.row.source === source && item.row.split === split);

/** The evaluation of the refusal sources, as Markdown, and its figures for prose. */
export function evaluateRefusals(data: Record<SourceName, LabelledResponse[]>): {
  markdown: string;
  figures: Record<string, { f1: number; leftOutF1: number; escalation: number }>;
} {
  const sources = REFUSAL_SOURCES.filter((source) => data[source].length > 0);
  const rows = sources.flatMap((source) => data[source]);
  const byLead = judgeAll(rows);
  const defaults = byLead.get(400) ?? [];
  const tableRows: string[][] = [];
  const figures: Record<string, { f1: number; leftOutF1: number; escalation: number }> = {};
  for (const source of sources) {
    const test = inSplit(defaults, source, 'test');
    const atDefault = refusalScores(
      test.map((item) => ({ row: item.row, predicted: hasRefusal(item.result) })),
    );
    // left out: the opening length that does best on the other sources' dev rows
    let chosen = 400;
    let bestMean = -1;
    for (const leadLength of LEAD_LENGTHS) {
      const judged = byLead.get(leadLength) ?? [];
      const others = sources.filter((other) => other !== source);
      const mean =
        others
          .map(
            (other) =>
              refusalScores(
                inSplit(judged, other, 'dev').map((item) => ({
                  row: item.row,
                  predicted: hasRefusal(item.result),
                })),
              ).f1,
          )
          .reduce((total, value) => total + value, 0) / Math.max(1, others.length);
      if (mean > bestMean) {
        bestMean = mean;
        chosen = leadLength;
      }
    }
    const leftOut = refusalScores(
      inSplit(byLead.get(chosen) ?? [], source, 'test').map((item) => ({
        row: item.row,
        predicted: hasRefusal(item.result),
      })),
    );
    const plain = refusalScores(
      test.map((item) => ({ row: item.row, predicted: plainOpeningRefusal(item.row.text) })),
    );
    const compliant = test.filter((item) => item.row.refusal === 'compliance');
    const escalated = compliant.filter((item) => item.result.shouldEscalate).length;
    const partial = test.filter((item) => item.row.label === 'partial_compliance');
    figures[source] = {
      f1: atDefault.f1,
      leftOutF1: leftOut.f1,
      escalation: escalated / Math.max(1, compliant.length),
    };
    tableRows.push([
      SOURCE_TITLES[source],
      String(atDefault.counts.truePositive + atDefault.counts.falseNegative),
      fixed(atDefault.precision),
      fixed(atDefault.recall),
      `**${fixed(atDefault.f1)}**`,
      `${fixed(leftOut.f1)} (lead ${chosen})`,
      fixed(plain.f1),
      rate(escalated, compliant.length),
      partial.length > 0
        ? rate(partial.filter((item) => hasRefusal(item.result)).length, partial.length)
        : '–',
    ]);
  }
  const worst = Object.values(figures).reduce(
    (lowest, entry) => Math.min(lowest, entry.leftOutF1),
    1,
  );
  const markdown = [
    markdownTable(
      [
        'source (test split)',
        'refusals',
        'precision',
        'recall',
        'F1',
        'F1 left out',
        'F1, plain openings',
        'escalation of compliant answers',
        'refusal signal on partial compliance',
      ],
      tableRows,
      ['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:'],
    ),
    '',
    `Worst left-out F1: **${fixed(worst)}**. "Plain openings" is a reference measured in the same run: a response counts as a refusal when it opens with one of ${PLAIN_OPENINGS.length} common phrases ("I'm sorry", "As an AI", "I cannot", …).`,
  ].join('\n');
  return { markdown, figures };
}

/** Escalation on the sources without refusal labels. */
export function evaluateOtherSources(data: Record<SourceName, LabelledResponse[]>): string {
  const tableRows: string[][] = [];
  const truthful = data.truthfulqa.filter((row) => row.split === 'test');
  if (truthful.length > 0) {
    for (const minLength of [20, 1]) {
      const validator = createValidator({ minLength });
      const judged = truthful.map((row) => ({ row, result: validator.validate(row.text) }));
      const informative = judged.filter((item) => item.row.label === 'yes');
      const uninformative = judged.filter((item) => item.row.label !== 'yes');
      tableRows.push([
        `TruthfulQA, minLength ${minLength}${minLength === 20 ? ' (default)' : ''}`,
        `informative ${informative.length}`,
        rate(informative.filter((item) => item.result.shouldEscalate).length, informative.length),
        `uninformative: ${rate(uninformative.filter((item) => item.result.shouldEscalate).length, uninformative.length)} escalate`,
      ]);
    }
  }
  const halu = data.halueval.filter((row) => row.split === 'test');
  if (halu.length > 0) {
    const validator = createValidator();
    for (const label of ['no', 'yes']) {
      const judged = halu
        .filter((row) => row.label === label)
        .map((row) => validator.validate(row.text));
      tableRows.push([
        `HaluEval, ${label === 'no' ? 'no hallucination' : 'hallucination'}`,
        String(judged.length),
        rate(judged.filter((result) => result.shouldEscalate).length, judged.length),
        `refusal signal ${rate(judged.filter(hasRefusal).length, judged.length)}`,
      ]);
    }
  }
  return markdownTable(['rows (test split)', 'n', 'escalated', 'notes'], tableRows, [
    '---',
    '---:',
    '---:',
    '---',
  ]);
}

/** Misjudged dev rows, for reading while writing rules (never test rows). */
export function devExamples(data: Record<SourceName, LabelledResponse[]>, count: number): string {
  const validator = createValidator();
  const lines: string[] = [];
  for (const source of REFUSAL_SOURCES) {
    const dev = data[source].filter((row) => row.split === 'dev' && row.refusal !== 'other');
    const missed = dev.filter(
      (row) => row.refusal === 'refusal' && !hasRefusal(validator.validate(row.text)),
    );
    const wrong = dev.filter(
      (row) => row.refusal === 'compliance' && hasRefusal(validator.validate(row.text)),
    );
    for (const [title, list] of [
      ['refusals without a refusal signal', missed],
      ['refusal signal on a compliant answer', wrong],
    ] as const) {
      lines.push(`\n${source}, dev rows, ${title} (${list.length}):`);
      for (const row of list.slice(0, count)) {
        lines.push(`- ${JSON.stringify(row.text.replace(/\s+/g, ' ').slice(0, 200))}`);
      }
    }
  }
  return lines.join('\n');
}
