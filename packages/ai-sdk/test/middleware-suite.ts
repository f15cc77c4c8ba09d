import { AbstentionDetector } from '@qualm/search-core';
import { validateResponse } from '@qualm/validator';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AiSdkError,
  defaultRetryInstruction,
  FlaggedAnswerError,
  type QualmMetadata,
  type QualmMiddlewareOptions,
} from '../src/index.js';

/** A stream part in the shape every specification version shares; the kit adds finish details. */
export type ScriptPart =
  | { type: 'text-start' | 'text-end'; id: string }
  | { type: 'text-delta'; id: string; delta: string }
  | { type: 'tool-call'; toolCallId: string; toolName: string; input: string }
  | { type: 'error'; error: unknown }
  | {
      type: 'finish';
      finishReason: string;
      providerMetadata?: Record<string, Record<string, unknown>>;
    };

/** One scripted answer of a mock model. */
export interface ScriptedAnswer {
  text?: string;
  toolCall?: { toolCallId: string; toolName: string; input: string };
  finishReason?: string;
  providerMetadata?: Record<string, Record<string, unknown>>;
}

/** What a mock model recorded of one call. */
export interface RecordedCall {
  prompt: { role: string; content: unknown }[];
  providerOptions?: Record<string, unknown>;
}

/** A mock model of one AI SDK version, wrapped or not. */
export interface KitModel {
  readonly generateCalls: RecordedCall[];
  readonly streamCalls: RecordedCall[];
}

interface TextResult {
  text: string;
  providerMetadata: Record<string, Record<string, unknown>> | undefined;
}

interface StreamTextResult {
  textStream: AsyncIterable<string>;
  fullStream: AsyncIterable<{ type: string; error?: unknown }>;
  text: PromiseLike<string>;
  providerMetadata: PromiseLike<Record<string, Record<string, unknown>> | undefined>;
}

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

interface CallOptions {
  prompt: string;
  /** Offer the kit's `lookup` tool (it has no execute, so the call ends at the tool call). */
  withLookupTool?: boolean;
  providerOptions?: Record<string, Record<string, Json>>;
  onError?: (event: { error: unknown }) => void;
}

/** One AI SDK major version, driven through its real functions and its own mock models. */
export interface SdkKit {
  label: string;
  /** A mock model answering the scripted answers (generate) or parts (stream) in turn. */
  mockModel(script: {
    answers?: ScriptedAnswer[];
    streams?: (ScriptPart[] | ReadableStream<ScriptPart>)[];
  }): KitModel;
  /** `wrapLanguageModel({ model, middleware: qualmMiddleware(options) })`. */
  wrap(model: KitModel, options?: QualmMiddlewareOptions): unknown;
  /** The mock model as an option value (the fallback model). */
  asModel(model: KitModel): NonNullable<QualmMiddlewareOptions['fallback']>;
  generateText(options: CallOptions & { model: unknown }): Promise<TextResult>;
  streamText(options: CallOptions & { model: unknown }): StreamTextResult;
  generateObject(
    options: CallOptions & { model: unknown; schema: z.ZodType },
  ): Promise<{ object: unknown; providerMetadata: TextResult['providerMetadata'] }>;
  streamObject(options: CallOptions & { model: unknown; schema: z.ZodType }): {
    partialObjectStream: AsyncIterable<unknown>;
    object: PromiseLike<unknown>;
    providerMetadata: StreamTextResult['providerMetadata'];
  };
}

const REFUSAL = "I'm sorry, but I can't help with that request.";
const ANSWER = 'The library opens at nine on weekdays and at ten on Saturdays.';
const SECOND_ANSWER = 'The pool opens at seven, and the sauna an hour later.';
const FALLBACK = 'This question needs a person: a librarian will reply within a day.';

function textParts(id: string, ...pieces: string[]): ScriptPart[] {
  return [
    { type: 'text-start', id },
    ...pieces.map((delta) => ({ type: 'text-delta' as const, id, delta })),
    { type: 'text-end', id },
  ];
}

function streamOf(...pieces: string[]): ScriptPart[] {
  return [...textParts('t1', ...pieces), { type: 'finish', finishReason: 'stop' }];
}

function qualmOf(metadata: Record<string, Record<string, unknown>> | undefined): QualmMetadata {
  expect(metadata?.qualm, 'providerMetadata.qualm').toBeDefined();
  return metadata!.qualm as unknown as QualmMetadata;
}

/** What a promise rejects with; undefined when it resolves. */
function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

/** A stream that serves its parts up to `holdFrom` at once and the rest after `open()`. */
function gatedStream(parts: ScriptPart[], holdFrom: number) {
  let open: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  let served = 0;
  const stream = new ReadableStream<ScriptPart>({
    async pull(controller) {
      if (served >= holdFrom) await gate;
      const part = parts[served];
      served += 1;
      if (part === undefined) controller.close();
      else controller.enqueue(part);
    },
  });
  return {
    stream,
    open: () => open(),
    get served() {
      return served;
    },
  };
}

/** The behaviour of `qualmMiddleware` under one AI SDK version. */
export function describeMiddleware(kit: SdkKit): void {
  describe(`${kit.label}: generateText`, () => {
    it('puts the validator result of the answer in providerMetadata.qualm', async () => {
      const model = kit.mockModel({ answers: [{ text: REFUSAL }] });
      const result = await kit.generateText({ model: kit.wrap(model), prompt: 'Open the vault.' });
      expect(result.text).toBe(REFUSAL);
      const qualm = qualmOf(result.providerMetadata);
      const expected = validateResponse(REFUSAL);
      expect(qualm).toMatchObject({
        score: expected.score,
        shouldEscalate: true,
        reason: expected.reason,
        flagged: true,
        abstention: null,
        policy: 'annotate',
        action: 'none',
        attempts: 1,
        replaced: null,
      });
      expect(qualm.signals).toEqual(expected.signals);
      expect(qualm.signals[0]).toMatchObject({ type: 'refusal', evidence: "I can't help" });
    });

    it('keeps the provider metadata the model returned beside qualm', async () => {
      const model = kit.mockModel({
        answers: [{ text: ANSWER, providerMetadata: { acme: { region: 'eu' } } }],
      });
      const result = await kit.generateText({ model: kit.wrap(model), prompt: 'Hours?' });
      expect(result.providerMetadata?.acme).toEqual({ region: 'eu' });
      expect(qualmOf(result.providerMetadata)).toMatchObject({ score: 1, flagged: false });
    });

    it('leaves a step that only calls a tool unassessed', async () => {
      const model = kit.mockModel({
        answers: [
          {
            toolCall: { toolCallId: 'c1', toolName: 'lookup', input: '{"q":"hours"}' },
            finishReason: 'tool-calls',
          },
        ],
      });
      const result = await kit.generateText({
        model: kit.wrap(model, { policy: 'throw' }),
        prompt: 'Hours?',
        withLookupTool: true,
      });
      expect(result.providerMetadata?.qualm).toBeUndefined();
    });
  });

  describe(`${kit.label}: streamText`, () => {
    it('assesses a refusal whose phrase is split across chunks, at the finish part', async () => {
      const model = kit.mockModel({
        streams: [streamOf("I'm sorry, but I ca", "n't he", 'lp with that request.')],
      });
      const result = kit.streamText({ model: kit.wrap(model), prompt: 'Open the vault.' });
      expect(await collect(result.textStream)).toEqual([
        "I'm sorry, but I ca",
        "n't he",
        'lp with that request.',
      ]);
      const qualm = qualmOf(await result.providerMetadata);
      expect(qualm.signals).toEqual(validateResponse(REFUSAL).signals);
      expect(qualm).toMatchObject({ shouldEscalate: true, score: 0.25, action: 'none' });
    });

    it('gives the same assessment streamed as generated', async () => {
      const pieces = ['Maybe', ' the answer is 42, ', "but I'm not sure", ' about it at all...'];
      const streamed = kit.streamText({
        model: kit.wrap(kit.mockModel({ streams: [streamOf(...pieces)] })),
        prompt: 'Why?',
      });
      await collect(streamed.textStream);
      const generated = await kit.generateText({
        model: kit.wrap(kit.mockModel({ answers: [{ text: pieces.join('') }] })),
        prompt: 'Why?',
      });
      expect(qualmOf(await streamed.providerMetadata)).toEqual(qualmOf(generated.providerMetadata));
    });

    it('delivers the first text before the model has finished', async () => {
      // text-start and the first delta arrive; the second delta waits for open()
      const gated = gatedStream(streamOf('The library ', 'opens at nine.'), 2);
      const model = kit.mockModel({ streams: [gated.stream] });
      const result = kit.streamText({ model: kit.wrap(model), prompt: 'Hours?' });
      const iterator = result.textStream[Symbol.asyncIterator]();
      const first = await iterator.next();
      expect(first.value).toBe('The library ');
      expect(gated.served).toBe(2);
      gated.open();
      const rest: string[] = [];
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
        rest.push(next.value);
      }
      expect(rest).toEqual(['opens at nine.']);
      expect(qualmOf(await result.providerMetadata).flagged).toBe(false);
    });

    it('passes a model error mid-stream to the caller unchanged, after the text before it', async () => {
      const failure = new Error('connection reset by the model server');
      let step = 0;
      const parts = textParts('t1', 'The library opens ', 'at nine');
      const stream = new ReadableStream<ScriptPart>({
        pull(controller) {
          const part = parts[step];
          step += 1;
          if (step === 4) controller.error(failure);
          else if (part) controller.enqueue(part);
        },
      });
      const model = kit.mockModel({ streams: [stream] });
      const result = kit.streamText({ model: kit.wrap(model), prompt: 'Hours?' });
      const received: string[] = [];
      let caught: unknown;
      try {
        for await (const text of result.textStream) received.push(text);
      } catch (error) {
        caught = error;
      }
      expect(received).toEqual(['The library opens ', 'at nine']);
      expect(caught).toBe(failure);
    });

    it('passes an error part through and still assesses the text received', async () => {
      const failure = new Error('upstream overloaded');
      const errors: unknown[] = [];
      const model = kit.mockModel({
        streams: [
          [
            ...textParts('t1', 'Tool error: the ', 'search backend timed out.'),
            { type: 'error', error: failure },
            { type: 'finish', finishReason: 'error' },
          ],
        ],
      });
      const result = kit.streamText({
        model: kit.wrap(model),
        prompt: 'Search the catalogue.',
        onError: ({ error }) => errors.push(error),
      });
      const parts = await collect(result.fullStream);
      expect(parts.filter((part) => part.type === 'error').map((part) => part.error)).toEqual([
        failure,
      ]);
      expect(errors).toEqual([failure]);
      const qualm = qualmOf(await result.providerMetadata);
      expect(qualm.signals.map((signal) => signal.type)).toContain('tool_failure');
    });
  });

  describe(`${kit.label}: policy throw`, () => {
    it('rejects generateText with a FlaggedAnswerError carrying the assessment and text', async () => {
      const model = kit.mockModel({ answers: [{ text: REFUSAL }] });
      const error = await rejectionOf(
        kit.generateText({
          model: kit.wrap(model, { policy: 'throw' }),
          prompt: 'Open the vault.',
        }),
      );
      expect(FlaggedAnswerError.isInstance(error)).toBe(true);
      const flagged = error as FlaggedAnswerError;
      expect(flagged.code).toBe('ANSWER_FLAGGED');
      expect(flagged.text).toBe(REFUSAL);
      expect(flagged.assessment.signals[0]?.type).toBe('refusal');
      expect(flagged.message).toContain('refusal');
    });

    it('returns an answer that is not flagged as it is', async () => {
      const model = kit.mockModel({ answers: [{ text: ANSWER }] });
      const result = await kit.generateText({
        model: kit.wrap(model, { policy: 'throw' }),
        prompt: 'Hours?',
      });
      expect(result.text).toBe(ANSWER);
      expect(qualmOf(result.providerMetadata)).toMatchObject({ flagged: false, policy: 'throw' });
    });

    it('ends a stream with the error after its text', async () => {
      const model = kit.mockModel({
        streams: [streamOf("I'm sorry, but I ", "can't help with that.")],
      });
      const result = kit.streamText({
        model: kit.wrap(model, { policy: 'throw' }),
        prompt: 'Open the vault.',
      });
      const received: string[] = [];
      let caught: unknown;
      try {
        for await (const text of result.textStream) received.push(text);
      } catch (error) {
        caught = error;
      }
      expect(received.join('')).toBe("I'm sorry, but I can't help with that.");
      expect(FlaggedAnswerError.isInstance(caught)).toBe(true);
      expect((caught as FlaggedAnswerError).text).toBe("I'm sorry, but I can't help with that.");
    });
  });

  describe(`${kit.label}: policy retry`, () => {
    it('asks once more with the flagged answer and the instruction, and returns the new answer', async () => {
      const model = kit.mockModel({ answers: [{ text: REFUSAL }, { text: SECOND_ANSWER }] });
      const result = await kit.generateText({
        model: kit.wrap(model, { policy: 'retry' }),
        prompt: 'When does the pool open?',
      });
      expect(result.text).toBe(SECOND_ANSWER);
      expect(model.generateCalls).toHaveLength(2);
      const retried = model.generateCalls[1]!.prompt;
      const first = qualmOf(result.providerMetadata).replaced!;
      expect(retried.slice(-2)).toEqual([
        expect.objectContaining({ role: 'assistant', content: [{ type: 'text', text: REFUSAL }] }),
        expect.objectContaining({
          role: 'user',
          content: [{ type: 'text', text: defaultRetryInstruction(first) }],
        }),
      ]);
      expect(qualmOf(result.providerMetadata)).toMatchObject({
        flagged: false,
        policy: 'retry',
        action: 'retried',
        attempts: 2,
        replaced: { shouldEscalate: true, flagged: true },
      });
    });

    it('does not ask again when the answer is not flagged', async () => {
      const model = kit.mockModel({ answers: [{ text: ANSWER }, { text: SECOND_ANSWER }] });
      const result = await kit.generateText({
        model: kit.wrap(model, { policy: 'retry' }),
        prompt: 'Hours?',
      });
      expect(result.text).toBe(ANSWER);
      expect(model.generateCalls).toHaveLength(1);
    });

    it('uses a caller-given instruction', async () => {
      const model = kit.mockModel({ answers: [{ text: REFUSAL }, { text: SECOND_ANSWER }] });
      await kit.generateText({
        model: kit.wrap(model, {
          policy: 'retry',
          retryInstruction: (assessment) => `Try again (${assessment.signals[0]?.type}).`,
        }),
        prompt: 'When does the pool open?',
      });
      expect(model.generateCalls[1]!.prompt.at(-1)).toMatchObject({
        role: 'user',
        content: [{ type: 'text', text: 'Try again (refusal).' }],
      });
    });

    it('streams only the second answer when the first is flagged', async () => {
      const model = kit.mockModel({
        streams: [
          streamOf("I'm sorry, but I ", "can't help with that."),
          streamOf('The pool ', 'opens at seven.'),
        ],
      });
      const result = kit.streamText({
        model: kit.wrap(model, { policy: 'retry' }),
        prompt: 'When does the pool open?',
      });
      expect((await collect(result.textStream)).join('')).toBe('The pool opens at seven.');
      expect(model.streamCalls).toHaveLength(2);
      expect(qualmOf(await result.providerMetadata)).toMatchObject({
        action: 'retried',
        attempts: 2,
        replaced: { signals: [expect.objectContaining({ type: 'refusal' })] },
      });
    });

    it('streams the held answer when it is not flagged, with one model call', async () => {
      const model = kit.mockModel({ streams: [streamOf('The pool ', 'opens at seven.')] });
      const result = kit.streamText({
        model: kit.wrap(model, { policy: 'retry' }),
        prompt: 'When does the pool open?',
      });
      expect(await collect(result.textStream)).toEqual(['The pool ', 'opens at seven.']);
      expect(model.streamCalls).toHaveLength(1);
      expect(qualmOf(await result.providerMetadata)).toMatchObject({ action: 'none', attempts: 1 });
    });
  });

  describe(`${kit.label}: policy fallback`, () => {
    it('replaces a flagged answer with the fallback text', async () => {
      const model = kit.mockModel({ answers: [{ text: REFUSAL }] });
      const result = await kit.generateText({
        model: kit.wrap(model, { policy: 'fallback', fallback: FALLBACK }),
        prompt: 'Open the vault.',
      });
      expect(result.text).toBe(FALLBACK);
      expect(qualmOf(result.providerMetadata)).toMatchObject({
        action: 'fallback-text',
        attempts: 1,
        replaced: { shouldEscalate: true },
      });
    });

    it('streams the fallback text in place of a flagged answer', async () => {
      const model = kit.mockModel({
        streams: [streamOf("I'm sorry, but I ", "can't help with that.")],
      });
      const result = kit.streamText({
        model: kit.wrap(model, { policy: 'fallback', fallback: FALLBACK }),
        prompt: 'Open the vault.',
      });
      expect((await collect(result.textStream)).join('')).toBe(FALLBACK);
      expect(qualmOf(await result.providerMetadata).action).toBe('fallback-text');
    });

    it('asks the fallback model the same call', async () => {
      const model = kit.mockModel({ answers: [{ text: REFUSAL }] });
      const backup = kit.mockModel({ answers: [{ text: SECOND_ANSWER }] });
      const result = await kit.generateText({
        model: kit.wrap(model, { policy: 'fallback', fallback: kit.asModel(backup) }),
        prompt: 'When does the pool open?',
      });
      expect(result.text).toBe(SECOND_ANSWER);
      expect(backup.generateCalls[0]!.prompt).toEqual(model.generateCalls[0]!.prompt);
      expect(qualmOf(result.providerMetadata)).toMatchObject({
        action: 'fallback-model',
        attempts: 2,
      });
    });

    it('streams the fallback model answer', async () => {
      const model = kit.mockModel({ streams: [streamOf("I can't help with that, sorry.")] });
      const backup = kit.mockModel({ streams: [streamOf('The pool opens ', 'at seven.')] });
      const result = kit.streamText({
        model: kit.wrap(model, { policy: 'fallback', fallback: kit.asModel(backup) }),
        prompt: 'When does the pool open?',
      });
      expect((await collect(result.textStream)).join('')).toBe('The pool opens at seven.');
      expect(qualmOf(await result.providerMetadata).action).toBe('fallback-model');
    });
  });

  describe(`${kit.label}: abstention with the caller's evidence`, () => {
    const detector = new AbstentionDetector({ useNLI: false });
    const question = 'What is the name of my hamster?';
    const answer = 'Your hamster is called Biscuit, as you told me last week.';

    it('adds the detector verdict when the evidence never mentions what was asked', async () => {
      const model = kit.mockModel({ answers: [{ text: answer }] });
      const result = await kit.generateText({
        model: kit.wrap(model, { abstention: detector }),
        prompt: question,
        providerOptions: { qualm: { evidence: ['I adopted a cat named Luna last spring.'] } },
      });
      const qualm = qualmOf(result.providerMetadata);
      expect(qualm.shouldEscalate).toBe(false);
      expect(qualm.abstention).toMatchObject({ shouldAbstain: true, reason: 'low_coverage' });
      expect(qualm.abstention?.details).toContain('hamster');
      expect(qualm.flagged).toBe(true);
    });

    it('does not abstain when the evidence supports the question', async () => {
      const model = kit.mockModel({
        streams: [streamOf('Your hamster is called ', 'Biscuit, as you told me.')],
      });
      const result = kit.streamText({
        model: kit.wrap(model, { abstention: detector }),
        prompt: question,
        providerOptions: { qualm: { evidence: 'My hamster Biscuit loves sunflower seeds.' } },
      });
      await collect(result.textStream);
      const qualm = qualmOf(await result.providerMetadata);
      expect(qualm.abstention).toMatchObject({ shouldAbstain: false });
      expect(qualm.flagged).toBe(false);
    });

    it('loads the search-core detector itself when none is given', async () => {
      const model = kit.mockModel({ answers: [{ text: answer }] });
      const result = await kit.generateText({
        model: kit.wrap(model),
        prompt: question,
        providerOptions: { qualm: { evidence: ['I adopted a cat named Luna last spring.'] } },
      });
      expect(qualmOf(result.providerMetadata).abstention?.shouldAbstain).toBe(true);
    });

    it('retries a not-supported answer with an instruction to use the evidence only', async () => {
      const model = kit.mockModel({
        answers: [
          { text: answer },
          { text: 'I do not know: your notes only mention a cat named Luna.' },
        ],
      });
      await kit.generateText({
        model: kit.wrap(model, { policy: 'retry', abstention: detector }),
        prompt: question,
        providerOptions: { qualm: { evidence: ['I adopted a cat named Luna last spring.'] } },
      });
      expect(JSON.stringify(model.generateCalls[1]!.prompt.at(-1))).toContain(
        'using only that information',
      );
    });

    it('rejects evidence that is not text, naming the field', async () => {
      const model = kit.mockModel({ answers: [{ text: answer }] });
      const error = await rejectionOf(
        kit.generateText({
          model: kit.wrap(model),
          prompt: question,
          providerOptions: { qualm: { evidence: ['fine', 42] } },
        }),
      );
      expect(AiSdkError.isInstance(error)).toBe(true);
      expect((error as AiSdkError).code).toBe('INVALID_INPUT');
      expect((error as Error).message).toBe(
        'providerOptions.qualm.evidence[1] must be a string, got number',
      );
    });

    it('rejects a misspelt key rather than skip the evidence check', async () => {
      const model = kit.mockModel({ answers: [{ text: answer }] });
      const error = await rejectionOf(
        kit.generateText({
          model: kit.wrap(model),
          prompt: question,
          providerOptions: { qualm: { evidense: ['The pool opens at seven.'] } },
        }),
      );
      expect(AiSdkError.isInstance(error)).toBe(true);
      expect((error as AiSdkError).code).toBe('INVALID_INPUT');
      expect((error as Error).message).toBe(
        'providerOptions.qualm has an unknown key "evidense" (it reads evidence, question)',
      );
      expect(model.generateCalls).toHaveLength(0);
    });
  });

  describe(`${kit.label}: objects`, () => {
    const schema = z.object({ city: z.string() });

    it('does not call a short JSON value an empty answer', async () => {
      const model = kit.mockModel({ answers: [{ text: '{"city":"Oslo"}' }] });
      const result = await kit.generateObject({
        model: kit.wrap(model),
        schema,
        prompt: 'Which city?',
      });
      expect(result.object).toEqual({ city: 'Oslo' });
      expect(qualmOf(result.providerMetadata)).toMatchObject({ flagged: false, signals: [] });
    });

    it('reads the string values of a streamed object for signals, across chunks', async () => {
      const model = kit.mockModel({
        streams: [streamOf('{"city":"I\'m not sure, but ', 'maybe \\"Oslo\\" or Bergen', '"}')],
      });
      const result = kit.streamObject({ model: kit.wrap(model), schema, prompt: 'Which city?' });
      await collect(result.partialObjectStream);
      expect(await result.object).toEqual({ city: 'I\'m not sure, but maybe "Oslo" or Bergen' });
      const qualm = qualmOf(await result.providerMetadata);
      expect(qualm.signals).toEqual(
        validateResponse('I\'m not sure, but maybe "Oslo" or Bergen\n', { minLength: 0 }).signals,
      );
      expect(qualm.signals.map((signal) => signal.type)).toContain('low_confidence');
    });
  });
}
