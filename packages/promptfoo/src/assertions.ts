import { AbstentionDetector } from '@qualm/search-core';
import {
  createValidator,
  type ResponseQuality,
  SIGNAL_TYPES,
  type SignalType,
  type Validator,
  ValidatorError,
} from '@qualm/validator';
import { z } from 'zod';
import { PromptfooError, PromptfooErrorCode } from './errors.js';

/** What promptfoo passes a `javascript` assertion beside the output (the parts read here). */
export interface AssertionContext {
  /** The rendered prompt. */
  prompt?: string;
  /** The test case's variables. */
  vars?: Record<string, unknown>;
  /** The assertion's `config` from the promptfoo config. */
  config?: Record<string, unknown>;
}

/** A promptfoo grading result. */
export interface GradingResult {
  pass: boolean;
  /** From 0 to 1. */
  score: number;
  reason: string;
}

/** Options of {@link notEscalated}, given as the assertion's `config`. */
export interface NotEscalatedOptions {
  /**
   * Signal types that fail the test. Without `failOn` and `threshold`, the test fails when the
   * validator escalates the answer.
   */
  failOn?: SignalType[];
  /** The test fails when the score is below this (0 to 1). */
  threshold?: number;
  /** Validator options. */
  minLength?: number;
  strictMode?: boolean;
  leadLength?: number;
  /** Extra patterns per signal type: regular-expression sources or `{ pattern, weight }`. */
  customPatterns?: Partial<Record<SignalType, (string | { pattern: string; weight?: number })[]>>;
  /** Add the learned signal of the model that ships with the validator. */
  learned?: boolean;
}

/** Options of {@link isNotAbstention}, given as the assertion's `config`. */
export interface IsNotAbstentionOptions {
  /** The evidence itself, a text or a list; default: the test variable `evidenceVar` holds it. */
  evidence?: string | string[];
  /** The test variable holding the evidence (default `context`, then `evidence`). */
  evidenceVar?: string;
  /** The question itself; default: the variable `questionVar`, else the prompt. */
  question?: string;
  /** The test variable holding the question (default `question`, then `query`). */
  questionVar?: string;
  /** Abstain when the strongest signal's confidence reaches this (default 0.9). */
  abstentionThreshold?: number;
}

const signalType = z.enum(SIGNAL_TYPES);
const notEscalatedOptions = z
  .object({
    failOn: z.array(signalType).optional(),
    threshold: z.number().min(0).max(1).optional(),
    minLength: z.number().int().min(0).optional(),
    strictMode: z.boolean().optional(),
    leadLength: z.number().int().min(0).optional(),
    learned: z.boolean().optional(),
    customPatterns: z
      .partialRecord(
        signalType,
        z.array(
          z.union([
            z.string().min(1),
            z
              .object({ pattern: z.string().min(1), weight: z.number().min(0).max(1).optional() })
              .strict(),
          ]),
        ),
      )
      .optional(),
  })
  .strict();
const isNotAbstentionOptions = z
  .object({
    evidence: z.union([z.string(), z.array(z.string())]).optional(),
    evidenceVar: z.string().min(1).optional(),
    question: z.string().optional(),
    questionVar: z.string().min(1).optional(),
    abstentionThreshold: z.number().min(0).max(1).optional(),
  })
  .strict();

function parseOptions<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  assertion: string,
): z.infer<Schema> {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'config'}: ${issue.message}`)
    .join('; ');
  throw new PromptfooError(
    PromptfooErrorCode.INVALID_CONFIG,
    `${assertion}: invalid config: ${issues}`,
  );
}

// validators compile their patterns once per distinct set of options
const validators = new Map<string, Validator>();

function validatorFor(options: NotEscalatedOptions): Validator {
  const { minLength, strictMode, leadLength, customPatterns, learned } = options;
  const settings = { minLength, strictMode, leadLength, customPatterns, learned };
  const key = JSON.stringify(settings);
  let validator = validators.get(key);
  if (validator === undefined) {
    try {
      validator = createValidator(settings);
    } catch (error) {
      if (ValidatorError.isInstance(error)) {
        throw new PromptfooError(
          PromptfooErrorCode.INVALID_CONFIG,
          `notEscalated: invalid config: ${error.message}`,
          { cause: error },
        );
      }
      throw error;
    }
    validators.set(key, validator);
  }
  return validator;
}

/**
 * The output as text. promptfoo hands a parsed object for JSON outputs (tool calls, structured
 * answers): its string values are the prose, one per line; keys and punctuation are not.
 */
function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  const values: string[] = [];
  const collect = (value: unknown) => {
    if (typeof value === 'string') values.push(value);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(collect);
  };
  collect(output);
  return values.join('\n');
}

function signalList(quality: ResponseQuality): string {
  if (quality.signals.length === 0) return 'no signals';
  return quality.signals
    .map((signal) => `${signal.type} "${signal.evidence}" at ${signal.position}`)
    .join(', ');
}

/** Grades an answer with the validator under the given options. */
export function gradeAnswer(output: unknown, options: NotEscalatedOptions = {}): GradingResult {
  const checked = parseOptions(notEscalatedOptions, options, 'notEscalated');
  const quality = validatorFor(checked).validate(outputText(output));
  const failures: string[] = [];
  if (checked.failOn === undefined && checked.threshold === undefined) {
    if (quality.shouldEscalate) failures.push('the answer escalates');
  }
  if (checked.failOn !== undefined) {
    const failing = [
      ...new Set(
        quality.signals
          .map((signal) => signal.type)
          .filter((type) => checked.failOn?.includes(type)),
      ),
    ];
    if (failing.length > 0) failures.push(`${failing.join(', ')} in failOn`);
  }
  if (checked.threshold !== undefined && quality.score < checked.threshold) {
    failures.push(`score below ${checked.threshold}`);
  }
  const pass = failures.length === 0;
  return {
    pass,
    score: quality.score,
    reason: `${pass ? 'passed' : `failed (${failures.join('; ')})`}: score ${quality.score.toFixed(2)}; ${signalList(quality)}`,
  };
}

/**
 * A promptfoo `javascript` assertion (`value: package:@qualm/promptfoo:notEscalated`): passes when
 * the answer does not escalate; `config` takes {@link NotEscalatedOptions}. The reason lists every
 * signal with its evidence; the score is the validator's.
 */
export function notEscalated(output: unknown, context: AssertionContext = {}): GradingResult {
  return gradeAnswer(output, context.config as NotEscalatedOptions | undefined);
}

let sharedDetector: { threshold: number; detector: AbstentionDetector } | undefined;

function detectorFor(threshold: number | undefined): AbstentionDetector {
  const abstentionThreshold = threshold ?? 0.9;
  if (sharedDetector?.threshold !== abstentionThreshold) {
    sharedDetector = {
      threshold: abstentionThreshold,
      detector: new AbstentionDetector({ abstentionThreshold }),
    };
  }
  return sharedDetector.detector;
}

function variable(
  vars: Record<string, unknown> | undefined,
  names: readonly string[],
): [string, unknown] | undefined {
  for (const name of names) {
    if (vars?.[name] !== undefined) return [name, vars[name]];
  }
  return undefined;
}

/** Grades an answer with the abstention detector, against the evidence of a RAG test. */
export async function gradeAbstention(
  output: unknown,
  context: AssertionContext = {},
): Promise<GradingResult> {
  const options = parseOptions(isNotAbstentionOptions, context.config, 'isNotAbstention');
  const evidenceNames = options.evidenceVar ? [options.evidenceVar] : ['context', 'evidence'];
  const found = options.evidence ?? variable(context.vars, evidenceNames)?.[1];
  if (found === undefined) {
    throw new PromptfooError(
      PromptfooErrorCode.INVALID_INPUT,
      `isNotAbstention: no evidence: set the test variable ${evidenceNames.map((name) => `"${name}"`).join(' or ')}, or config.evidence`,
    );
  }
  const evidence = typeof found === 'string' ? [found] : found;
  if (!Array.isArray(evidence) || evidence.some((text) => typeof text !== 'string')) {
    throw new PromptfooError(
      PromptfooErrorCode.INVALID_INPUT,
      'isNotAbstention: the evidence must be a text or a list of texts',
    );
  }
  const questionNames = options.questionVar ? [options.questionVar] : ['question', 'query'];
  const question = options.question ?? variable(context.vars, questionNames)?.[1] ?? context.prompt;
  if (typeof question !== 'string') {
    throw new PromptfooError(
      PromptfooErrorCode.INVALID_INPUT,
      `isNotAbstention: the question must be a text (variable ${questionNames.join(' or ')}, config.question or the prompt)`,
    );
  }
  const verdict = await detectorFor(options.abstentionThreshold).detect({
    question,
    answer: outputText(output),
    evidence: evidence as string[],
  });
  return {
    pass: !verdict.shouldAbstain,
    score: Math.round((1 - verdict.confidence) * 10_000) / 10_000,
    reason: verdict.details,
  };
}

/**
 * A promptfoo `javascript` assertion (`value: package:@qualm/promptfoo:isNotAbstention`) for RAG
 * tests: passes unless the abstention detector says the answer should have been "I don't know",
 * given the evidence (the `context` or `evidence` variable); `config` takes
 * {@link IsNotAbstentionOptions}. `not-javascript` turns it into "should abstain".
 */
export function isNotAbstention(
  output: unknown,
  context: AssertionContext = {},
): Promise<GradingResult> {
  return gradeAbstention(output, context);
}
