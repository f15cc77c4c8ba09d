import { printable, withoutByteOrderMark } from '@qualm/errors';
import { type AbstentionResult, DEFAULT_NLI_MODEL_ID, FullTextIndex } from '@qualm/search-core';
import { type Command, Option } from 'commander';
import {
  addDetectorOptions,
  createDetector,
  type DetectorFlags,
  detectorFlagRules,
} from '../detector-options.js';
import { CliError, CliErrorCode } from '../errors.js';
import {
  inputName,
  noteTerminalInput,
  parseNumberOption,
  readText,
  rejectUselessFlags,
} from '../io.js';

interface AbstainOptions extends DetectorFlags {
  question?: string;
  questionFile?: string;
  answer?: string;
  answerFile?: string;
  evidence?: string;
  context?: string[];
  format: 'table' | 'json';
}

const example = `
The evidence is split into passages (blank lines separate them in a text file; a .jsonl file holds
one passage per line, as a string or as {"text": …}), indexed with BM25, and the passages that best
match the question are the evidence every layer reads.

A long question or answer is read from a file with --question-file or --answer-file, and long
evidence with --evidence; any one of them may be - for stdin. A file's last line break is not part
of the text.

Examples:
  qualm abstain --question "What did I name my tortoise?" --answer "Its name is Biscuit." \\
    --context "I adopted a cat named Luna last spring." --no-nli
  qualm abstain --question "Where did I move?" --answer "Denver" --evidence notes.txt --format json
  qualm abstain --question-file question.txt --answer-file answer.txt --evidence notes.txt
  jq -r .answer reply.json | qualm abstain --question-file q.txt --answer-file - --evidence notes.txt

The answer alone is checked for hedging (layer 3); the evidence alone for coverage of the question
(layer 1); both together also for grounding (layer 2). An empty question, neither an answer nor
evidence, or evidence without a passage is an error (exit 2): there is nothing to check; so is a
missing file, a folder or binary data where a file should be.

Layer 2 (grounding by NLI) loads ${DEFAULT_NLI_MODEL_ID} from --models-dir or $QUALM_MODELS_DIR,
or downloads it where the network allows; --no-nli skips it. Exit status: 0 when the answer can
stand, 1 when the detector says to abstain, 2 on bad input or when the NLI model cannot be loaded.`;

/** Registers `qualm abstain`. */
export function registerAbstain(program: Command): void {
  const command = program
    .command('abstain')
    .description(
      'Decide whether an answer should be replaced by "I don\'t know", with a per-layer trace.',
    )
    .option('--question <text>', 'the question asked (or --question-file)')
    .option('--question-file <file>', 'a text file holding the question; - for stdin')
    .option('--answer <text>', 'the answer given (layers 2 and 3 need it)')
    .option('--answer-file <file>', 'a text file holding the answer; - for stdin')
    .option(
      '--evidence <file>',
      'evidence: a text file of passages, or a .jsonl file of passages; - for stdin',
    )
    .option('--context <text...>', 'evidence passages given inline');
  addDetectorOptions(command)
    .addOption(
      new Option('--format <format>', 'output format').choices(['table', 'json']).default('table'),
    )
    .addHelpText('after', example)
    .action(async (options: AbstainOptions, command: Command) => {
      rejectUselessFlags(command, [
        ...detectorFlagRules(options, { runs: true, because: '' }),
        {
          option: 'modelsDir',
          flag: '--models-dir',
          applies: options.nli,
          because: 'with --no-nli',
        },
      ]);
      // a bad option value is named before anything else
      if (options.abstentionThreshold !== undefined) {
        parseNumberOption('--abstention-threshold', options.abstentionThreshold, {
          min: 0,
          max: 1,
        });
      }
      checkTextSources(options);
      const question = await textOf('question', options.question, options.questionFile);
      if (question.trim() === '') {
        throw new CliError(
          CliErrorCode.NOTHING_TO_DO,
          `${options.questionFile !== undefined ? `--question-file ${inputName(options.questionFile)}` : '--question'} is empty: give the question asked`,
        );
      }
      const answer =
        options.answer === undefined && options.answerFile === undefined
          ? undefined
          : await textOf('answer', options.answer, options.answerFile);
      if (answer === undefined && options.evidence === undefined && !options.context) {
        throw new CliError(
          CliErrorCode.NOTHING_TO_DO,
          'nothing to check: give --answer, evidence (--evidence or --context), or both',
        );
      }
      const passages = await readPassages(options);
      if ((options.evidence !== undefined || options.context) && passages.length === 0) {
        const source = options.evidence !== undefined ? inputName(options.evidence) : '--context';
        throw new CliError(
          CliErrorCode.NOTHING_TO_DO,
          `${source} holds no passages: the evidence is empty`,
        );
      }
      // grounding needs both an answer and evidence; without them the model is not worth loading
      const detector = await createDetector(options, answer !== undefined && passages.length > 0);
      const index = new FullTextIndex(
        passages.map((text, position) => ({ id: `passage ${position + 1}`, text })),
      );
      const hits = passages.length > 0 ? index.searchSync(question, { limit: 10 }) : undefined;
      const result = await detector.detect({
        question,
        ...(answer !== undefined ? { answer } : {}),
        ...(hits ? { hits } : {}),
      });
      process.stdout.write(
        options.format === 'json' ? `${JSON.stringify(result, null, 2)}\n` : `${toTable(result)}\n`,
      );
      if (result.shouldAbstain) process.exitCode = 1;
    });
}

/**
 * Refuses text given two ways, a question given no way, stdin named twice, and `-` as inline text
 * (which a shell user means as stdin), each in one line that says what to give instead.
 */
function checkTextSources(options: AbstainOptions): void {
  for (const [name, inline, file] of [
    ['question', options.question, options.questionFile],
    ['answer', options.answer, options.answerFile],
  ] as const) {
    if (inline !== undefined && file !== undefined) {
      throw new CliError(
        CliErrorCode.INVALID_ARGUMENT,
        `--${name} and --${name}-file: give the ${name} one way`,
      );
    }
    if (inline === '-') {
      throw new CliError(
        CliErrorCode.INVALID_ARGUMENT,
        `--${name} - would be the text "-": to read the ${name} from stdin, give --${name}-file -`,
      );
    }
  }
  if (options.question === undefined && options.questionFile === undefined) {
    throw new CliError(
      CliErrorCode.INVALID_ARGUMENT,
      'no question: give --question TEXT or --question-file FILE',
    );
  }
  if (options.context?.includes('-')) {
    throw new CliError(
      CliErrorCode.INVALID_ARGUMENT,
      '--context - would be the passage "-": to read evidence from stdin, give --evidence -',
    );
  }
  const fromStdin = [
    ['--question-file', options.questionFile],
    ['--answer-file', options.answerFile],
    ['--evidence', options.evidence],
  ].filter(([, path]) => path === '-');
  if (fromStdin.length > 1) {
    const flags = fromStdin.map(([flag]) => `${flag} -`);
    throw new CliError(
      CliErrorCode.INVALID_ARGUMENT,
      `${flags.slice(0, -1).join(', ')} and ${flags.at(-1)} ${flags.length === 2 ? 'both' : 'all'} read stdin, which can be read once: give all but one a file`,
    );
  }
}

/** The text of the question or the answer: given inline, or read from a file or stdin. */
async function textOf(
  name: 'question' | 'answer',
  inline: string | undefined,
  file: string | undefined,
): Promise<string> {
  if (file === undefined) return inline ?? '';
  noteTerminalInput(file, `the ${name}`);
  // as $(cat file) would, the line break that ends a file is not part of the text
  return withoutByteOrderMark(await readText(file)).replace(/\r?\n$/, '');
}

async function readPassages(options: AbstainOptions): Promise<string[]> {
  const passages = [...(options.context ?? [])];
  if (options.evidence !== undefined) {
    noteTerminalInput(options.evidence, 'evidence');
    const text = await readText(options.evidence);
    if (options.evidence.endsWith('.jsonl')) {
      text.split('\n').forEach((line, index) => {
        if (line.trim() === '') return;
        let value: unknown;
        try {
          value = JSON.parse(line);
        } catch (error) {
          throw new CliError(
            CliErrorCode.INVALID_INPUT,
            `${inputName(options.evidence)}:${index + 1} is not valid JSON (${(error as Error).message})`,
          );
        }
        const passage =
          typeof value === 'string' ? value : (value as { text?: unknown } | null)?.text;
        if (typeof passage !== 'string') {
          throw new CliError(
            CliErrorCode.INVALID_INPUT,
            `${inputName(options.evidence)}:${index + 1} must be a string or an object with a string "text"`,
          );
        }
        passages.push(passage);
      });
    } else {
      passages.push(...text.split(/\n\s*\n/));
    }
  }
  return passages.map((passage) => passage.trim()).filter((passage) => passage !== '');
}

function toTable(result: AbstentionResult): string {
  const { retrieval, grounding, hedging } = result.layers;
  const coverage = retrieval.coverage;
  const retrievalLine = !retrieval.enabled
    ? 'off'
    : [
        `${retrieval.hits} passage${retrieval.hits === 1 ? '' : 's'} retrieved` +
          (retrieval.topScore !== null ? `, top score ${retrieval.topScore.toFixed(3)}` : ''),
        coverage === null
          ? 'coverage not measured (no evidence)'
          : coverage.adviceRequest
            ? 'the question asks for advice: coverage does not apply'
            : `${coverage.terms.length - coverage.missing.length}/${coverage.terms.length} specific terms found` +
              (coverage.missing.length
                ? ` (missing: ${coverage.missing.map((term) => `"${term.text}"`).join(', ')})`
                : ''),
      ].join('; ');
  const groundingLine = !grounding.enabled
    ? 'off'
    : grounding.skipped
      ? `skipped: ${grounding.skipped}`
      : grounding.result
        ? `${grounding.result.grounded ? 'grounded' : 'not grounded'} (${grounding.result.sentences.length} sentences × ${grounding.result.windows} windows)`
        : 'no result';
  const hedgingLine = !hedging.enabled
    ? 'off'
    : hedging.nonAnswer
      ? `non-answer: "${hedging.cues[0]?.sentence ?? ''}"`
      : hedging.hedged
        ? `hedges (doubt ${hedging.doubt}): "${hedging.cues[0]?.sentence ?? ''}"`
        : 'no hedging';
  const rows = [
    ['verdict', result.shouldAbstain ? `abstain (${result.reason})` : 'answer'],
    ['details', result.details],
    ['retrieval', retrievalLine],
    ['grounding', groundingLine],
    ['hedging', hedgingLine],
  ];
  const width = Math.max(...rows.map(([label]) => (label ?? '').length));
  // quoted text of the input is escaped, so it cannot drive the terminal
  return rows
    .map(([label, value]) => `${(label ?? '').padEnd(width)}  ${printable(value ?? '')}`)
    .join('\n');
}
