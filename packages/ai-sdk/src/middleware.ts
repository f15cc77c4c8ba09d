import {
  createValidator,
  type ResponseQuality,
  ValidatorError,
  type ValidatorOptions,
} from '@qualm/validator';
import { AnswerReader, type AnswerValidators } from './answer-reader.js';
import { type CallReading, readCall } from './call-options.js';
import { AiSdkError, AiSdkErrorCode, FlaggedAnswerError } from './errors.js';
import {
  type AbstentionVerdict,
  type QualmAssessment,
  type QualmMetadata,
  type QualmPolicy,
  toAssessment,
} from './metadata.js';
import type {
  CallOptionsLike,
  ContentLike,
  GenerateResultLike,
  LanguageModelLike,
  ProviderRecord,
  StreamPartLike,
  StreamResultLike,
} from './sdk-types.js';

/** Anything with the abstention detector's `detect`, such as `@qualm/search-core`'s. */
export interface AbstentionDetectorLike {
  detect(input: {
    question: string;
    answer?: string;
    evidence?: readonly string[];
  }): PromiseLike<AbstentionVerdict>;
}

/** Options of {@link qualmMiddleware}. */
export interface QualmMiddlewareOptions {
  /**
   * What to do when an answer is flagged (default `annotate`): only record the assessment, throw
   * a {@link FlaggedAnswerError}, ask the model once more (`retry`), or answer with `fallback`.
   */
  policy?: QualmPolicy;
  /** Options of the validator: `minLength`, `strictMode`, `customPatterns`, `leadLength`, … */
  validator?: ValidatorOptions;
  /**
   * With `policy: 'retry'`: the message added after the flagged answer before asking again
   * (default {@link defaultRetryInstruction}).
   */
  retryInstruction?: string | ((assessment: QualmAssessment) => string);
  /**
   * With `policy: 'fallback'`: the text that replaces a flagged answer, or a model (of the same
   * specification version as the wrapped one) that answers the same call instead.
   */
  fallback?: string | LanguageModelLike;
  /**
   * The detector run when a call passes `providerOptions.qualm.evidence`; by default
   * `@qualm/search-core`'s `AbstentionDetector` with its defaults (loaded on first use). `false`
   * ignores evidence.
   */
  abstention?: AbstentionDetectorLike | false;
}

/**
 * The middleware object; it fits `wrapLanguageModel` of AI SDK 5, 6 and 7 (the SDK never reads
 * the specification version of a middleware, and AI SDK 7 accepts `v3`).
 */
export interface QualmMiddleware {
  readonly specificationVersion: 'v3';
  wrapGenerate: <Result extends GenerateResultLike>(options: {
    doGenerate: () => PromiseLike<Result>;
    params: CallOptionsLike;
    model: LanguageModelLike;
  }) => Promise<Result>;
  wrapStream: <Result extends StreamResultLike>(options: {
    doStream: () => PromiseLike<Result>;
    params: CallOptionsLike;
    model: LanguageModelLike;
  }) => Promise<Result>;
}

const POLICIES: readonly QualmPolicy[] = ['annotate', 'throw', 'retry', 'fallback'];
const FALLBACK_TEXT_ID = 'qualm-fallback';

/**
 * The message the `retry` policy adds after a flagged answer: it names what was found and asks for
 * a direct answer, or, when the evidence did not support the answer, for one drawn from the
 * evidence alone.
 */
export function defaultRetryInstruction(assessment: QualmAssessment): string {
  const sentences: string[] = [];
  if (assessment.shouldEscalate) {
    const kinds = [
      ...new Set(assessment.signals.map((signal) => signal.type.replaceAll('_', ' '))),
    ];
    sentences.push(
      `An automatic check flagged your previous answer${kinds.length > 0 ? ` (${kinds.join(', ')})` : ''}.`,
      'Answer the original request again, directly and completely, without hedging or asking for details you can reasonably assume.',
    );
  }
  if (assessment.abstention?.shouldAbstain) {
    sentences.push(
      assessment.shouldEscalate
        ? 'Use only the information provided.'
        : 'An automatic check found that your previous answer is not supported by the information provided. Answer again using only that information.',
      'If it does not contain the answer, say that you do not know.',
    );
  } else {
    sentences.push('If you cannot answer it, say so in one sentence and explain why.');
  }
  return sentences.join(' ');
}

/**
 * Middleware for the AI SDK's `wrapLanguageModel` that assesses every answer with the qualm
 * validator (and, given evidence, the abstention detector) and applies a policy to flagged ones.
 */
export function qualmMiddleware(options: QualmMiddlewareOptions = {}): QualmMiddleware {
  const settings = resolveOptions(options);
  const assessor = new Assessor(settings);
  const assess = assessor.assess.bind(assessor);

  const metadataFor = (
    assessment: QualmAssessment,
    action: QualmMetadata['action'],
    replaced: QualmAssessment | null,
  ): QualmMetadata => ({
    ...assessment,
    policy: settings.policy,
    action,
    attempts: action === 'none' || action === 'fallback-text' ? 1 : 2,
    replaced,
  });

  return {
    specificationVersion: 'v3',

    async wrapGenerate({ doGenerate, params, model }) {
      const call = readCall(params);
      const first = await doGenerate();
      const text = textOf(first.content);
      const assessment = await assess(call, text, hasToolCall(first.content));
      if (assessment === undefined) return first;
      if (!assessment.flagged || settings.policy === 'annotate') {
        return annotated(first, metadataFor(assessment, 'none', null));
      }
      if (settings.policy === 'throw') {
        throw new FlaggedAnswerError(metadataFor(assessment, 'none', null), text);
      }
      const fallback = settings.fallback;
      if (typeof fallback === 'string') {
        const replacement = await assess(call, fallback, false);
        return annotated(
          { ...first, content: replaceText(first.content, fallback) },
          metadataFor(replacement!, 'fallback-text', assessment),
        );
      }
      const second = (await (fallback === undefined
        ? model.doGenerate(retryParams(params, text, assessment, settings))
        : sameVersion(fallback, model).doGenerate(params))) as typeof first;
      const secondAssessment = await assess(
        call,
        textOf(second.content),
        hasToolCall(second.content),
      );
      if (secondAssessment === undefined) return second;
      return annotated(
        second,
        metadataFor(
          secondAssessment,
          fallback === undefined ? 'retried' : 'fallback-model',
          assessment,
        ),
      );
    },

    async wrapStream({ doStream, params, model }) {
      const call = readCall(params);
      const first = await doStream();
      if (settings.policy === 'annotate' || settings.policy === 'throw') {
        return {
          ...first,
          stream: first.stream.pipeThrough(
            assessingTransform(
              assessor,
              call,
              (assessment) => metadataFor(assessment, 'none', null),
              settings.policy === 'throw',
            ),
          ),
        };
      }
      // retry and fallback decide on the whole answer, so the first answer is held back
      const parts = async function* (): AsyncGenerator<StreamPartLike> {
        const held: StreamPartLike[] = [];
        for await (const part of iterate(first.stream)) held.push(part);
        const text = held
          .filter((part) => part.type === 'text-delta')
          .map((part) => deltaOf(part))
          .join('');
        const finished = held.some((part) => part.type === 'finish');
        const assessment = finished
          ? await assess(
              call,
              text,
              held.some((part) => part.type === 'tool-call'),
            )
          : undefined;
        if (assessment === undefined) {
          yield* held;
          return;
        }
        if (!assessment.flagged) {
          yield* held.map((part) =>
            part.type === 'finish'
              ? withMetadata(part, metadataFor(assessment, 'none', null))
              : part,
          );
          return;
        }
        const fallback = settings.fallback;
        if (typeof fallback === 'string') {
          const replacement = await assess(call, fallback, false);
          yield* replaceStreamText(
            held,
            fallback,
            metadataFor(replacement!, 'fallback-text', assessment),
          );
          return;
        }
        const second =
          fallback === undefined
            ? await model.doStream(retryParams(params, text, assessment, settings))
            : await sameVersion(fallback, model).doStream(params);
        yield* iterate(
          second.stream.pipeThrough(
            assessingTransform(
              assessor,
              call,
              (secondAssessment) =>
                metadataFor(
                  secondAssessment,
                  fallback === undefined ? 'retried' : 'fallback-model',
                  assessment,
                ),
              false,
            ),
          ),
        );
      };
      return { ...first, stream: toReadableStream(parts()) };
    },
  };
}

interface Settings {
  policy: QualmPolicy;
  validators: AnswerValidators;
  retryInstruction: (assessment: QualmAssessment) => string;
  fallback: string | LanguageModelLike | undefined;
  abstention: AbstentionDetectorLike | false | undefined;
}

const OPTION_NAMES: readonly string[] = [
  'policy',
  'validator',
  'retryInstruction',
  'fallback',
  'abstention',
] satisfies (keyof QualmMiddlewareOptions)[];

function resolveOptions(options: QualmMiddlewareOptions): Settings {
  if (typeof options !== 'object' || options === null) {
    throw invalidOptions(`the options must be an object, got ${String(options)}`);
  }
  // a misspelt option would otherwise leave its default in force without a word
  const unknown = Object.keys(options).find((key) => !OPTION_NAMES.includes(key));
  if (unknown !== undefined) {
    throw invalidOptions(`unknown option "${unknown}" (it takes ${OPTION_NAMES.join(', ')})`);
  }
  const policy = options.policy ?? 'annotate';
  if (!POLICIES.includes(policy)) {
    throw invalidOptions(`policy must be one of ${POLICIES.join(', ')}, got "${String(policy)}"`);
  }
  const { fallback, retryInstruction, abstention } = options;
  if (policy === 'fallback' && fallback === undefined) {
    throw invalidOptions('policy "fallback" needs `fallback`: a text or a model');
  }
  if (policy !== 'fallback' && fallback !== undefined) {
    throw invalidOptions(`\`fallback\` is used only with policy "fallback", not "${policy}"`);
  }
  if (fallback !== undefined && typeof fallback !== 'string' && !isModel(fallback)) {
    throw invalidOptions(
      '`fallback` must be a text or a language model with doGenerate and doStream',
    );
  }
  if (typeof fallback === 'string' && fallback.trim() === '') {
    throw invalidOptions('`fallback` text is empty');
  }
  if (retryInstruction !== undefined && policy !== 'retry') {
    throw invalidOptions(`\`retryInstruction\` is used only with policy "retry", not "${policy}"`);
  }
  if (
    retryInstruction !== undefined &&
    typeof retryInstruction !== 'string' &&
    typeof retryInstruction !== 'function'
  ) {
    throw invalidOptions('`retryInstruction` must be a text or a function of the assessment');
  }
  if (
    abstention !== undefined &&
    abstention !== false &&
    typeof (abstention as { detect?: unknown })?.detect !== 'function'
  ) {
    throw invalidOptions('`abstention` must be a detector with a detect() method, or false');
  }
  let validators: AnswerValidators;
  try {
    validators = {
      text: createValidator(options.validator),
      json: createValidator({ ...options.validator, minLength: 0 }),
    };
  } catch (error) {
    if (ValidatorError.isInstance(error)) {
      throw invalidOptions(`validator: ${error.message}`, error);
    }
    throw error;
  }
  return {
    policy,
    validators,
    retryInstruction:
      typeof retryInstruction === 'string'
        ? () => retryInstruction
        : (retryInstruction ?? defaultRetryInstruction),
    fallback,
    abstention,
  };
}

/**
 * Assesses answers with the validators and, when a call passes evidence, the abstention detector.
 * A step that only calls tools has no answer yet and gets no assessment.
 */
class Assessor {
  private defaultDetector: Promise<AbstentionDetectorLike> | undefined;

  constructor(private readonly settings: Settings) {}

  /** A reader for one answer, fed delta by delta. */
  reader(call: CallReading): AnswerReader {
    return new AnswerReader(this.settings.validators, { expectJson: call.expectJson });
  }

  /** Assesses a whole answer. */
  async assess(
    call: CallReading,
    text: string,
    toolCall: boolean,
  ): Promise<QualmAssessment | undefined> {
    if (toolCall && text.trim() === '') return undefined;
    const reader = this.reader(call);
    reader.push(text);
    return this.finish(call, text, reader.end());
  }

  /** Adds the abstention verdict, when the call passed evidence, to the validator's result. */
  async finish(
    call: CallReading,
    answer: string,
    quality: ResponseQuality,
  ): Promise<QualmAssessment> {
    if (call.evidence === undefined || this.settings.abstention === false) {
      return toAssessment(quality, null);
    }
    const detector = await this.detector();
    const verdict = await detector.detect({
      question: call.question,
      answer,
      evidence: call.evidence,
    });
    return toAssessment(quality, {
      shouldAbstain: verdict.shouldAbstain,
      reason: verdict.reason,
      confidence: verdict.confidence,
      details: verdict.details,
    });
  }

  private detector(): PromiseLike<AbstentionDetectorLike> {
    if (this.settings.abstention) return Promise.resolve(this.settings.abstention);
    this.defaultDetector ??= import('@qualm/search-core').then(
      (searchCore) => new searchCore.AbstentionDetector(),
      (error: unknown) => {
        throw new AiSdkError(
          AiSdkErrorCode.ABSTENTION_UNAVAILABLE,
          'providerOptions.qualm.evidence needs an abstention detector: install @qualm/search-core, pass `abstention`, or pass `abstention: false` to ignore evidence',
          { cause: error },
        );
      },
    );
    return this.defaultDetector;
  }
}

/**
 * Passes a stream through, reading its text into the streaming validator as it arrives; at the
 * finish part the assessment joins the part's provider metadata or, when the answer is flagged and
 * the policy throws, the stream ends with a {@link FlaggedAnswerError} instead.
 */
function assessingTransform(
  assessor: Assessor,
  call: CallReading,
  toMetadata: (assessment: QualmAssessment) => QualmMetadata,
  throwWhenFlagged: boolean,
): TransformStream<StreamPartLike, StreamPartLike> {
  // the text itself is kept only when the detector or the error needs it
  const keepText = throwWhenFlagged || call.evidence !== undefined;
  const pieces: string[] = [];
  const reader = assessor.reader(call);
  let answered = false;
  let toolCall = false;
  return new TransformStream({
    async transform(part, controller) {
      if (part.type === 'text-delta') {
        const delta = deltaOf(part);
        reader.push(delta);
        if (keepText) pieces.push(delta);
        if (delta.trim() !== '') answered = true;
      } else if (part.type === 'tool-call') {
        toolCall = true;
      } else if (part.type === 'finish' && (answered || !toolCall)) {
        const text = pieces.join('');
        const metadata = toMetadata(await assessor.finish(call, text, reader.end()));
        if (throwWhenFlagged && metadata.flagged) {
          controller.error(new FlaggedAnswerError(metadata, text));
          return;
        }
        controller.enqueue(withMetadata(part, metadata));
        return;
      }
      controller.enqueue(part);
    },
  });
}

function withMetadata(part: StreamPartLike, metadata: QualmMetadata): StreamPartLike {
  const existing = (part as { providerMetadata?: ProviderRecord }).providerMetadata;
  return { ...part, providerMetadata: { ...existing, qualm: metadata } } as StreamPartLike;
}

function annotated<Result extends GenerateResultLike>(
  result: Result,
  metadata: QualmMetadata,
): Result {
  return {
    ...result,
    providerMetadata: {
      ...result.providerMetadata,
      qualm: metadata as unknown as Record<string, unknown>,
    },
  };
}

function deltaOf(part: StreamPartLike): string {
  const delta = (part as { delta?: unknown }).delta;
  return typeof delta === 'string' ? delta : '';
}

function textOfPart(part: ContentLike): string {
  const text = (part as { text?: unknown }).text;
  return typeof text === 'string' ? text : '';
}

function textOf(content: readonly ContentLike[]): string {
  return content
    .filter((part) => part.type === 'text')
    .map((part) => textOfPart(part))
    .join('');
}

function hasToolCall(content: readonly ContentLike[]): boolean {
  return content.some((part) => part.type === 'tool-call');
}

/** The content with its text parts replaced by one part holding `text`, where the first one was. */
function replaceText(content: readonly ContentLike[], text: string): ContentLike[] {
  const replacement = { type: 'text', text } as ContentLike;
  const index = content.findIndex((part) => part.type === 'text');
  const kept = content.filter((part) => part.type !== 'text');
  if (index === -1) return [replacement, ...kept];
  const before = content.slice(0, index).filter((part) => part.type !== 'text').length;
  return [...kept.slice(0, before), replacement, ...kept.slice(before)];
}

/** The held-back parts with their text replaced by `text`, and the metadata at the finish. */
function* replaceStreamText(
  parts: readonly StreamPartLike[],
  text: string,
  metadata: QualmMetadata,
): Generator<StreamPartLike> {
  const isText = (part: StreamPartLike) =>
    part.type === 'text-start' || part.type === 'text-delta' || part.type === 'text-end';
  const first = parts.findIndex(isText);
  const finish = parts.findIndex((part) => part.type === 'finish');
  const at = first === -1 ? finish : first;
  for (const [index, part] of parts.entries()) {
    if (index === at) {
      yield { type: 'text-start', id: FALLBACK_TEXT_ID } as StreamPartLike;
      yield { type: 'text-delta', id: FALLBACK_TEXT_ID, delta: text } as StreamPartLike;
      yield { type: 'text-end', id: FALLBACK_TEXT_ID } as StreamPartLike;
    }
    if (isText(part)) continue;
    yield part.type === 'finish' ? withMetadata(part, metadata) : part;
  }
}

function retryParams(
  params: CallOptionsLike,
  answer: string,
  assessment: QualmAssessment,
  settings: Settings,
): CallOptionsLike {
  return {
    ...params,
    prompt: [
      ...params.prompt,
      { role: 'assistant', content: [{ type: 'text', text: answer }] },
      { role: 'user', content: [{ type: 'text', text: settings.retryInstruction(assessment) }] },
    ],
  };
}

function sameVersion(fallback: LanguageModelLike, model: LanguageModelLike): LanguageModelLike {
  if (fallback.specificationVersion !== model.specificationVersion) {
    throw invalidOptions(
      `the fallback model implements specification ${fallback.specificationVersion} but the wrapped model ${model.specificationVersion}: pass wrapLanguageModel({ model: fallback, middleware: [] }) from the same AI SDK`,
    );
  }
  return fallback;
}

function isModel(value: unknown): value is LanguageModelLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as LanguageModelLike).doGenerate === 'function' &&
    typeof (value as LanguageModelLike).doStream === 'function'
  );
}

function invalidOptions(message: string, cause?: unknown): AiSdkError {
  return new AiSdkError(AiSdkErrorCode.INVALID_OPTIONS, `qualmMiddleware: ${message}`, { cause });
}

async function* iterate<Part>(stream: ReadableStream<Part>): AsyncGenerator<Part> {
  const reader = stream.getReader();
  let done = false;
  try {
    while (true) {
      const next = await reader.read();
      if (next.done) {
        done = true;
        return;
      }
      yield next.value;
    }
  } finally {
    // a consumer that stops early cancels the model's stream
    if (!done) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

function toReadableStream<Part>(parts: AsyncGenerator<Part>): ReadableStream<Part> {
  return new ReadableStream<Part>({
    async pull(controller) {
      try {
        const next = await parts.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel(reason) {
      await parts.return(reason);
    },
  });
}
