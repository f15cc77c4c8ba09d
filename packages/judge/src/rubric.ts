import { z } from 'zod';
import type { ChatClient } from './client.js';
import { formatIssues } from './client.js';
import { JudgeError, JudgeErrorCode } from './errors.js';
import { buildRubricMessages } from './prompts.js';
import type { TokenUsage } from './usage.js';

/** A quality the rubric judge grades: `boolean` (present or not) or `score` (1 to 5). */
export interface RubricTrait {
  name: string;
  description: string;
  kind: 'boolean' | 'score';
}

/** A set of traits graded together in one LLM call. */
export interface Rubric {
  traits: readonly RubricTrait[];
}

/** The zod schema of a rubric, for rubrics read from files. */
export const rubricSchema = z.strictObject({
  traits: z
    .array(
      z.strictObject({
        name: z
          .string()
          .regex(/^[A-Za-z0-9_-]{1,64}$/, 'a trait name uses letters, digits, "_" and "-" only'),
        description: z.string().min(1),
        kind: z.enum(['boolean', 'score']),
      }),
    )
    .min(1, 'a rubric needs at least one trait'),
});

/** Checks a rubric and returns it typed; throws a {@link JudgeError} `INVALID_CONFIG` otherwise. */
export function parseRubric(value: unknown, source = 'rubric'): Rubric {
  const result = rubricSchema.safeParse(value);
  if (!result.success) {
    throw new JudgeError(
      JudgeErrorCode.INVALID_CONFIG,
      `${source}: invalid rubric: ${formatIssues(result.error.issues)}`,
    );
  }
  const names = new Set<string>();
  for (const trait of result.data.traits) {
    if (names.has(trait.name)) {
      throw new JudgeError(
        JudgeErrorCode.INVALID_CONFIG,
        `${source}: trait "${trait.name}" appears twice`,
      );
    }
    names.add(trait.name);
  }
  return result.data;
}

/** Grades of a response, by trait name. */
export type RubricScores = Record<string, boolean | number>;

function buildVerdictSchema(rubric: Rubric) {
  const scores: Record<string, z.ZodType> = {};
  for (const trait of rubric.traits) {
    scores[trait.name] = trait.kind === 'boolean' ? z.boolean() : z.number().int().min(1).max(5);
  }
  return z.object({ reasoning: z.string(), scores: z.object(scores) });
}

// one schema per rubric, so the client's response-format cache (keyed by schema) hits per item
const verdictSchemas = new WeakMap<Rubric, ReturnType<typeof buildVerdictSchema>>();

/**
 * The schema the rubric judge's reply must match for the given traits; built once per rubric
 * object, so a rubric is not to be changed after its first use.
 */
export function rubricVerdictSchema(rubric: Rubric) {
  let schema = verdictSchemas.get(rubric);
  if (!schema) {
    schema = buildVerdictSchema(rubric);
    verdictSchemas.set(rubric, schema);
  }
  return schema;
}

/** Grades a response against a rubric in one LLM call; throws a {@link JudgeError} on failure. */
export async function evaluateRubric(options: {
  client: ChatClient;
  question: string;
  response: string;
  rubric: Rubric;
  instructions?: string;
  signal?: AbortSignal;
}): Promise<{ scores: RubricScores; reasoning: string; usage: TokenUsage }> {
  const reply = await options.client.completeStructured(
    buildRubricMessages({ ...options, traits: options.rubric.traits }),
    rubricVerdictSchema(options.rubric),
    { name: 'rubric_verdict', signal: options.signal },
  );
  return {
    scores: reply.value.scores as RubricScores,
    reasoning: reply.value.reasoning,
    usage: reply.usage,
  };
}
