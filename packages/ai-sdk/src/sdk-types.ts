/**
 * The parts of the AI SDK's language-model specification that the middleware reads and writes.
 * They are written out here, not imported, so one middleware serves AI SDK 5 (specification v2),
 * 6 (v3) and 7 (v4): each version's types are assignable to these.
 */

/** Provider metadata or options: one JSON object per provider name. */
export type ProviderRecord = Record<string, Record<string, unknown>>;

/** A message of a prompt; user and assistant content is a list of parts. */
export interface PromptMessageLike {
  role: string;
  content: unknown;
}

/** A call's options as the middleware sees them. */
export interface CallOptionsLike {
  prompt: readonly PromptMessageLike[];
  responseFormat?: { type: string };
  providerOptions?: ProviderRecord;
}

/** One part of a generated answer: text, reasoning, a tool call, a file, … */
export interface ContentLike {
  type: string;
}

/** What `doGenerate` resolves to. */
export interface GenerateResultLike {
  content: readonly ContentLike[];
  /** A string in specification v2, `{ unified, raw }` in v3 and v4. */
  finishReason: unknown;
  providerMetadata?: ProviderRecord;
}

/** One part of a model's stream. */
export interface StreamPartLike {
  type: string;
}

/** What `doStream` resolves to. */
export interface StreamResultLike {
  stream: ReadableStream<StreamPartLike>;
}

/** A language model of any supported specification version. */
export interface LanguageModelLike {
  readonly specificationVersion: string;
  readonly provider: string;
  readonly modelId: string;
  doGenerate(options: CallOptionsLike): PromiseLike<GenerateResultLike>;
  doStream(options: CallOptionsLike): PromiseLike<StreamResultLike>;
}
