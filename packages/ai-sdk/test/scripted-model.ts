import type { RecordedCall, ScriptedAnswer, ScriptPart } from './middleware-suite.js';

/** How one specification version writes a finish reason and token usage. */
export interface SpecificationShapes {
  finishReason(reason: string): unknown;
  usage: unknown;
}

/** AI SDK 5 (specification v2): plain finish reasons and flat usage. */
export const V2_SHAPES: SpecificationShapes = {
  finishReason: (reason) => reason,
  usage: { inputTokens: 3, outputTokens: 5, totalTokens: 8 },
};

/** AI SDK 6 and 7 (specifications v3 and v4): unified finish reasons and detailed usage. */
export const V3_SHAPES: SpecificationShapes = {
  finishReason: (reason) => ({ unified: reason, raw: reason }),
  usage: {
    inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 5, text: 5, reasoning: 0 },
  },
};

/**
 * The `doGenerate` and `doStream` of a mock model that serves scripted answers in turn, written
 * in the given version's shapes. A call past the script fails with a message that says so.
 */
export function scriptedCalls(
  script: { answers?: ScriptedAnswer[]; streams?: (ScriptPart[] | ReadableStream<ScriptPart>)[] },
  shapes: SpecificationShapes,
) {
  const answers = [...(script.answers ?? [])];
  const streams = [...(script.streams ?? [])];
  return {
    async doGenerate() {
      const answer = answers.shift();
      if (answer === undefined) throw new Error('the script has no more answers');
      return {
        content: [
          ...(answer.text !== undefined ? [{ type: 'text', text: answer.text }] : []),
          ...(answer.toolCall ? [{ type: 'tool-call', ...answer.toolCall }] : []),
        ],
        finishReason: shapes.finishReason(
          answer.finishReason ?? (answer.toolCall ? 'tool-calls' : 'stop'),
        ),
        usage: shapes.usage,
        warnings: [],
        ...(answer.providerMetadata ? { providerMetadata: answer.providerMetadata } : {}),
      };
    },
    async doStream() {
      const next = streams.shift();
      if (next === undefined) throw new Error('the script has no more streams');
      const source =
        next instanceof ReadableStream
          ? next
          : new ReadableStream<ScriptPart>({
              start(controller) {
                for (const part of next) controller.enqueue(part);
                controller.close();
              },
            });
      return {
        stream: source.pipeThrough(
          new TransformStream<ScriptPart, unknown>({
            transform(part, controller) {
              controller.enqueue(
                part.type === 'finish'
                  ? {
                      ...part,
                      finishReason: shapes.finishReason(part.finishReason),
                      usage: shapes.usage,
                    }
                  : part,
              );
            },
          }),
        ),
      };
    },
  };
}

/** The calls a mock model of any version recorded, as the suite reads them. */
export function recordedCalls(calls: readonly unknown[]): RecordedCall[] {
  return calls as RecordedCall[];
}
