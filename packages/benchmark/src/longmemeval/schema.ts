import { z } from 'zod';

/** A turn of a LongMemEval history session; `has_answer` marks turns that hold evidence. */
export const longMemEvalTurnSchema = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  has_answer: z.boolean().optional(),
});

/** A LongMemEval question record as the official files store it (oracle, S and M alike). */
export const longMemEvalQuestionSchema = z
  .object({
    question_id: z.string().min(1),
    question_type: z.string().min(1),
    question: z.string(),
    answer: z.union([z.string(), z.number()]),
    question_date: z.string(),
    haystack_dates: z.array(z.string()),
    haystack_session_ids: z.array(z.string()),
    haystack_sessions: z.array(z.array(longMemEvalTurnSchema)),
    answer_session_ids: z.array(z.string()),
  })
  .superRefine((record, context) => {
    const sessions = record.haystack_sessions.length;
    for (const field of ['haystack_dates', 'haystack_session_ids'] as const) {
      if (record[field].length !== sessions) {
        context.addIssue({
          code: 'custom',
          path: [field],
          message: `has ${record[field].length} entries but haystack_sessions has ${sessions}`,
        });
      }
    }
  });

/**
 * The id and type of a LongMemEval question and nothing else, for passes over a file that need
 * no more (other fields are neither checked nor kept).
 */
export const longMemEvalQuestionKeySchema = z.object({
  question_id: z.string().min(1),
  question_type: z.string().min(1),
});

/** A turn of a history session. */
export type LongMemEvalTurn = z.infer<typeof longMemEvalTurnSchema>;

/** A LongMemEval question with its history; field names are those of the official files. */
export type LongMemEvalQuestion = z.infer<typeof longMemEvalQuestionSchema>;

/** A line of a run file: a reader's answer and, once judged, the judge's label. */
export const longMemEvalRunEntrySchema = z.object({
  question_id: z.string().min(1),
  hypothesis: z.string(),
  autoeval_label: z.object({ model: z.string(), label: z.boolean() }).optional(),
});

/** A line of a run file (`{question_id, hypothesis, autoeval_label?}`). */
export type LongMemEvalRunEntry = z.infer<typeof longMemEvalRunEntrySchema>;

/** Whether a question is one of the abstention questions (its id contains `_abs`). */
export function isAbstentionQuestion(questionId: string): boolean {
  return questionId.includes('_abs');
}

/** Renders zod issues as `path: message` parts joined by "; " (at most three, then a count). */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  const shown = issues.slice(0, 3).map((issue) => {
    const path = issue.path
      .map((part, index) =>
        typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`,
      )
      .join('');
    return `${path || '(record)'}: ${issue.message}`;
  });
  if (issues.length > 3) shown.push(`and ${issues.length - 3} more`);
  return shown.join('; ');
}
