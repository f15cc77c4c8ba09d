import { z } from 'zod';
import { formatIssues } from './client.js';
import { JudgeError, JudgeErrorCode } from './errors.js';

/** What a verification evaluates: the template, the template and a rubric, or a rubric only. */
export const EvaluationMode = {
  TEMPLATE_ONLY: 'template_only',
  TEMPLATE_AND_RUBRIC: 'template_and_rubric',
  RUBRIC_ONLY: 'rubric_only',
} as const;

/** One of the modes in {@link EvaluationMode}: template only, rubric only, or both. */
export type EvaluationMode = (typeof EvaluationMode)[keyof typeof EvaluationMode];

/** Every evaluation mode, in the order the documentation lists them. */
export const evaluationModes: readonly EvaluationMode[] = Object.values(EvaluationMode);

/** Caller instructions per LLM call, appended to the built-in prompt as a separate section. */
export interface PromptConfig {
  abstention?: string;
  sufficiency?: string;
  parsing?: string;
  rubric?: string;
  /** System prompt of the answering model, when the pipeline generates the answer. */
  answering?: string;
}

/** The plain-object form of a {@link VerificationConfig}. */
export interface VerificationConfigInput {
  /** Run the abstention check before parsing (default false). */
  abstentionEnabled?: boolean;
  /** Run the sufficiency check before parsing (default false). */
  sufficiencyEnabled?: boolean;
  evaluationMode?: EvaluationMode;
  promptConfig?: PromptConfig;
}

/** The short override form: `{ abstention: true, sufficiency: true }`. */
export interface VerificationOverrides {
  abstention?: boolean;
  sufficiency?: boolean;
  evaluationMode?: EvaluationMode;
  promptConfig?: PromptConfig;
}

const instructions = z.string().optional();

const configSchema = z.strictObject({
  abstentionEnabled: z.boolean().default(false),
  sufficiencyEnabled: z.boolean().default(false),
  evaluationMode: z
    .enum([
      EvaluationMode.TEMPLATE_ONLY,
      EvaluationMode.TEMPLATE_AND_RUBRIC,
      EvaluationMode.RUBRIC_ONLY,
    ])
    .default(EvaluationMode.TEMPLATE_ONLY),
  promptConfig: z
    .strictObject({
      abstention: instructions,
      sufficiency: instructions,
      parsing: instructions,
      rubric: instructions,
      answering: instructions,
    })
    .default({}),
});

/** Which checks run and how; both checks are off by default. */
export class VerificationConfig {
  readonly abstentionEnabled: boolean;
  readonly sufficiencyEnabled: boolean;
  readonly evaluationMode: EvaluationMode;
  readonly promptConfig: Readonly<PromptConfig>;

  /** Validates the input; throws a {@link JudgeError} `INVALID_CONFIG` naming the bad field. */
  constructor(input: VerificationConfigInput = {}) {
    const result = configSchema.safeParse(input);
    if (!result.success) {
      throw new JudgeError(
        JudgeErrorCode.INVALID_CONFIG,
        `invalid verification config: ${formatIssues(result.error.issues)}`,
      );
    }
    this.abstentionEnabled = result.data.abstentionEnabled;
    this.sufficiencyEnabled = result.data.sufficiencyEnabled;
    this.evaluationMode = result.data.evaluationMode;
    this.promptConfig = Object.freeze({ ...result.data.promptConfig });
    Object.freeze(this);
  }

  /** A config from the short override form, on top of a base config (the defaults when absent). */
  static fromOverrides(
    overrides: VerificationOverrides,
    base: VerificationConfig | VerificationConfigInput = {},
  ): VerificationConfig {
    const start = base instanceof VerificationConfig ? base.toJSON() : base;
    return new VerificationConfig({
      ...start,
      ...(overrides.abstention !== undefined ? { abstentionEnabled: overrides.abstention } : {}),
      ...(overrides.sufficiency !== undefined ? { sufficiencyEnabled: overrides.sufficiency } : {}),
      ...(overrides.evaluationMode !== undefined
        ? { evaluationMode: overrides.evaluationMode }
        : {}),
      promptConfig: { ...start.promptConfig, ...overrides.promptConfig },
    });
  }

  /** Accepts a config or its plain-object form. */
  static from(input: VerificationConfig | VerificationConfigInput | undefined): VerificationConfig {
    return input instanceof VerificationConfig ? input : new VerificationConfig(input);
  }

  /** Whether the mode parses and verifies a template. */
  get usesTemplate(): boolean {
    return this.evaluationMode !== EvaluationMode.RUBRIC_ONLY;
  }

  /** Whether the mode evaluates a rubric. */
  get usesRubric(): boolean {
    return this.evaluationMode !== EvaluationMode.TEMPLATE_ONLY;
  }

  /** The plain-object form. */
  toJSON(): Required<Omit<VerificationConfigInput, 'promptConfig'>> & {
    promptConfig: PromptConfig;
  } {
    return {
      abstentionEnabled: this.abstentionEnabled,
      sufficiencyEnabled: this.sufficiencyEnabled,
      evaluationMode: this.evaluationMode,
      promptConfig: { ...this.promptConfig },
    };
  }
}
