import { z } from 'zod';
import type { ChatClient } from './client.js';
import { JudgeError, JudgeErrorCode } from './errors.js';
import { buildAbstentionMessages, buildSufficiencyMessages } from './prompts.js';
import type { TemplateField } from './template.js';
import { emptyUsage, type TokenUsage } from './usage.js';

/** The abstention judge's reply: reasoning first, then the verdict. */
export const abstentionVerdictSchema = z.object({
  reasoning: z.string(),
  abstained: z.boolean(),
});

/** The sufficiency judge's reply: reasoning first, then the missing fields and the verdict. */
export const sufficiencyVerdictSchema = z.object({
  reasoning: z.string(),
  missingFields: z.array(z.string()),
  sufficient: z.boolean(),
});

/** The outcome of one pre-parsing check. A check that failed is not performed and detects nothing. */
export interface CheckOutcome {
  /** False when the judge could not give a verdict (the check then fails safe). */
  performed: boolean;
  /**
   * Abstention: true when the response abstains. Sufficiency: true when the response is
   * sufficient. Null when the check failed.
   */
  detected: boolean | null;
  reasoning: string | null;
  /** Why the check failed, when it did. */
  error: JudgeError | null;
  usage: TokenUsage;
}

/** The outcome of the sufficiency check, with the required fields the judge found missing. */
export interface SufficiencyOutcome extends CheckOutcome {
  missingFields: string[];
}

/** Options shared by the checks. */
export interface CheckOptions {
  client: ChatClient;
  question: string;
  response: string;
  /** Caller instructions appended to the built-in prompt. */
  instructions?: string;
  signal?: AbortSignal;
}

function failed(error: unknown): CheckOutcome {
  const judgeError =
    error instanceof JudgeError
      ? error
      : new JudgeError(JudgeErrorCode.INTERNAL, String(error), { cause: error });
  return {
    performed: false,
    detected: null,
    reasoning: null,
    error: judgeError,
    usage: judgeError.usage ?? emptyUsage(),
  };
}

/**
 * Asks the judge whether a response abstains. Never throws: when the judge cannot answer, the
 * outcome is "not performed", with the error kept, so the caller counts it as not abstained.
 */
export async function checkAbstention(options: CheckOptions): Promise<CheckOutcome> {
  try {
    const reply = await options.client.completeStructured(
      buildAbstentionMessages(options),
      abstentionVerdictSchema,
      { name: 'abstention_verdict', signal: options.signal },
    );
    return {
      performed: true,
      detected: reply.value.abstained,
      reasoning: reply.value.reasoning,
      error: null,
      usage: reply.usage,
    };
  } catch (error) {
    return failed(error);
  }
}

/**
 * Asks the judge whether a response gives a value for every required template field. Never
 * throws: when the judge cannot answer, the outcome is "not performed" (counted as sufficient).
 */
export async function checkSufficiency(
  options: CheckOptions & { fields: readonly TemplateField[] },
): Promise<SufficiencyOutcome> {
  try {
    const reply = await options.client.completeStructured(
      buildSufficiencyMessages(options),
      sufficiencyVerdictSchema,
      { name: 'sufficiency_verdict', signal: options.signal },
    );
    return {
      performed: true,
      detected: reply.value.sufficient,
      reasoning: reply.value.reasoning,
      missingFields: reply.value.missingFields,
      error: null,
      usage: reply.usage,
    };
  } catch (error) {
    return { ...failed(error), missingFields: [] };
  }
}
