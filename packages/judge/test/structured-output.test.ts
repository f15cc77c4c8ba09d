import { type ChatServer, startChatServer } from '@qualm/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { extractJson, JudgeError, JudgeErrorCode } from '../src/index.js';
import { lastUserText, testClient } from './helpers.js';

let server: ChatServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const schema = z.object({ city: z.string(), population: z.number() });
const messages = [
  { role: 'system' as const, content: 'Extract the fields.' },
  { role: 'user' as const, content: 'Paris, about 2.1 million people.' },
];

describe('structured replies', () => {
  it('sends the schema as a strict json_schema response_format and returns the parsed value', async () => {
    server = await startChatServer({
      handler: () => ({ json: { city: 'Paris', population: 2.1 } }),
    });
    const reply = await testClient(server.baseURL).completeStructured(messages, schema, {
      name: 'capital',
    });
    expect(reply).toMatchObject({
      value: { city: 'Paris', population: 2.1 },
      attempts: 1,
      mode: 'json_schema',
    });
    const format = server.chatRequests()[0]?.body?.response_format;
    expect(format?.type).toBe('json_schema');
    expect(format?.json_schema?.name).toBe('capital');
    expect(format?.json_schema?.strict).toBe(true);
    expect(format?.json_schema?.schema).toMatchObject({
      type: 'object',
      required: ['city', 'population'],
      additionalProperties: false,
    });
  });

  it('sends a schema with optional fields without strict mode', async () => {
    server = await startChatServer({ handler: () => ({ json: { city: 'Paris' } }) });
    const optional = z.object({ city: z.string(), population: z.number().optional() });
    const reply = await testClient(server.baseURL).completeStructured(messages, optional);
    expect(reply.value).toEqual({ city: 'Paris' });
    const format = server.chatRequests()[0]?.body?.response_format;
    expect(format?.json_schema?.strict).toBe(false);
    expect(format?.json_schema?.schema).toMatchObject({ required: ['city'] });
  });

  it('re-asks with the validation error when a reply fails the schema', async () => {
    server = await startChatServer({
      handler: (_body, { index }) =>
        index === 0
          ? { json: { city: 'Paris', population: 'about two million' } }
          : { json: { city: 'Paris', population: 2.1 } },
    });
    const reply = await testClient(server.baseURL).completeStructured(messages, schema);
    expect(reply.value.population).toBe(2.1);
    expect(reply.attempts).toBe(2);
    expect(reply.usage.calls).toBe(2);
    const second = server.chatRequests()[1]?.body;
    expect(lastUserText(second)).toContain('population: Invalid input: expected number');
    // the bad reply is in the conversation, so the model sees what it got wrong
    expect(second?.messages.at(-2)).toMatchObject({ role: 'assistant' });
    expect(String(second?.messages.at(-2)?.content)).toContain('about two million');
  });

  it('gives up after three replies that fail the schema, with INVALID_RESPONSE', async () => {
    server = await startChatServer({ handler: () => ({ json: { city: 7 } }) });
    const error = await testClient(server.baseURL)
      .completeStructured(messages, schema)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(JudgeError);
    expect((error as JudgeError).code).toBe(JudgeErrorCode.INVALID_RESPONSE);
    expect((error as JudgeError).message).toContain('after 3 attempts');
    expect((error as JudgeError).message).toContain('city: Invalid input: expected string');
    expect((error as JudgeError).usage?.calls).toBe(3);
    expect(server.chatRequests()).toHaveLength(3);
  });

  it('re-asks when the reply is not JSON at all', async () => {
    server = await startChatServer({
      handler: (_body, { index }) =>
        index === 0
          ? { content: 'The city is Paris.' }
          : { json: { city: 'Paris', population: 2 } },
    });
    const reply = await testClient(server.baseURL).completeStructured(messages, schema);
    expect(reply.attempts).toBe(2);
    expect(lastUserText(server.chatRequests()[1]?.body)).toContain('contains no JSON object');
  });

  it('falls back to JSON in the text when the server rejects response_format, and stays there', async () => {
    server = await startChatServer({
      handler: (body) =>
        body.response_format
          ? { fault: 'status', status: 400, message: 'response_format is not supported' }
          : { content: '```json\n{"city": "Paris", "population": 2.1}\n```' },
    });
    const client = testClient(server.baseURL);
    const first = await client.completeStructured(messages, schema);
    expect(first).toMatchObject({ value: { city: 'Paris', population: 2.1 }, mode: 'text' });
    expect(first.attempts).toBe(1);
    const [rejected, fallback] = server.chatRequests();
    expect(rejected?.body?.response_format?.type).toBe('json_schema');
    expect(fallback?.body?.response_format).toBeUndefined();
    expect(lastUserText(fallback?.body)).toContain('Reply with only a JSON object');
    expect(lastUserText(fallback?.body)).toContain('"population"');
    expect(client.structuredOutput).toBe('text');

    await client.completeStructured(messages, schema);
    expect(server.chatRequests()).toHaveLength(3);
    expect(server.chatRequests()[2]?.body?.response_format).toBeUndefined();
  });

  it('never sends response_format when configured for text', async () => {
    server = await startChatServer({
      handler: () => ({
        content: 'Here it is: {"city": "Paris", "population": 2.1} Hope it helps.',
      }),
    });
    const reply = await testClient(server.baseURL, { structuredOutput: 'text' }).completeStructured(
      messages,
      schema,
    );
    expect(reply.value.city).toBe('Paris');
    expect(server.chatRequests()[0]?.body?.response_format).toBeUndefined();
  });

  it('does not fall back when configured for json_schema only', async () => {
    server = await startChatServer({ handler: () => ({ fault: 'status', status: 400 }) });
    const error = await testClient(server.baseURL, { structuredOutput: 'json_schema' })
      .completeStructured(messages, schema)
      .catch((caught: unknown) => caught);
    expect((error as JudgeError).code).toBe(JudgeErrorCode.REQUEST_REJECTED);
    expect(server.chatRequests()).toHaveLength(1);
  });

  it('keeps the tokens of rejected replies in the usage', async () => {
    server = await startChatServer({
      handler: (_body, { index }) =>
        index === 0
          ? { json: { city: 1 }, usage: { prompt_tokens: 100, completion_tokens: 5 } }
          : {
              json: { city: 'Paris', population: 2 },
              usage: { prompt_tokens: 120, completion_tokens: 6 },
            },
    });
    const reply = await testClient(server.baseURL).completeStructured(messages, schema);
    expect(reply.usage).toEqual({
      calls: 2,
      requests: 2,
      promptTokens: 220,
      completionTokens: 11,
      totalTokens: 231,
    });
  });
});

describe('reading JSON out of a reply', () => {
  it('reads a bare object', () => {
    expect(extractJson(' {"a": 1} ')).toEqual({ ok: true, value: { a: 1 } });
  });

  it('strips code fences with or without a language', () => {
    expect(extractJson('```json\n{"a": 1}\n```')).toEqual({ ok: true, value: { a: 1 } });
    expect(extractJson('Sure:\n```\n{"a": [1, 2]}\n```\nDone.')).toEqual({
      ok: true,
      value: { a: [1, 2] },
    });
  });

  it('finds the first balanced object in prose, braces inside strings included', () => {
    expect(extractJson('Answer: {"text": "a } b", "n": {"m": 2}} trailing')).toEqual({
      ok: true,
      value: { text: 'a } b', n: { m: 2 } },
    });
  });

  it('says why when there is nothing to read', () => {
    expect(extractJson('')).toEqual({ ok: false, problem: 'the reply was empty' });
    expect(extractJson('no json here')).toEqual({
      ok: false,
      problem: 'the reply contains no JSON object',
    });
    const broken = extractJson('{"a": 1,,}');
    expect(broken.ok).toBe(false);
    expect(broken.ok ? '' : broken.problem).toContain('not valid JSON');
  });
});
