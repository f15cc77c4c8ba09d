import { afterEach, describe, expect, it } from 'vitest';
import { type ChatServer, startChatServer, unusedPort } from '../src/index.js';

let server: ChatServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

function post(target: ChatServer, body: unknown, signal?: AbortSignal) {
  return fetch(`${target.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer test-key' },
    body: JSON.stringify(body),
    signal,
  });
}

const question = { model: 'judge', messages: [{ role: 'user', content: 'What is 2 + 2?' }] };

describe('loopback chat-completions server', () => {
  it('listens on 127.0.0.1 with an ephemeral port and lists its models', async () => {
    server = await startChatServer({ models: ['alpha', 'beta'] });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.port).toBeGreaterThan(0);
    const response = await fetch(`${server.baseURL}/models`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: { id: string }[] };
    expect(body.data.map((model) => model.id)).toEqual(['alpha', 'beta']);
  });

  it('answers with the scripted text, the usage it was given and the requested model', async () => {
    server = await startChatServer({
      handler: () => ({ content: 'four', usage: { prompt_tokens: 12, completion_tokens: 3 } }),
    });
    const response = await post(server, question);
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      model: string;
      choices: { message: { role: string; content: string }; finish_reason: string }[];
      usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
    };
    expect(body.model).toBe('judge');
    expect(body.choices[0]?.message).toMatchObject({ role: 'assistant', content: 'four' });
    expect(body.choices[0]?.finish_reason).toBe('stop');
    expect(body.usage).toEqual({ prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 });
  });

  it('sends a JSON reply as the message content', async () => {
    server = await startChatServer({ handler: () => ({ json: { answer: 4 } }) });
    const body = (await (await post(server, question)).json()) as {
      choices: { message: { content: string } }[];
    };
    expect(JSON.parse(body.choices[0]?.message.content ?? '')).toEqual({ answer: 4 });
  });

  it('streams a reply as server-sent events, in the pieces it was given, with usage on request', async () => {
    server = await startChatServer({
      handler: () => ({
        content: 'two plus two is four',
        streamChunks: ['two pl', 'us two is', ' four'],
      }),
    });
    const response = await post(server, {
      ...question,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = (await response.text())
      .split('\n\n')
      .filter(Boolean)
      .map((event) => event.replace(/^data: /, ''));
    expect(events.at(-1)).toBe('[DONE]');
    const chunks = events.slice(0, -1).map(
      (event) =>
        JSON.parse(event) as {
          choices: { delta: { content?: string }; finish_reason: string | null }[];
          usage?: { total_tokens: number };
        },
    );
    expect(
      chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta.content ?? '')),
    ).toEqual(['', 'two pl', 'us two is', ' four', '']);
    expect(
      chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.finish_reason)),
    ).toContain('stop');
    expect(chunks.at(-1)?.usage?.total_tokens).toBeGreaterThan(0);
  });

  it('records every request in order with its temperature, response_format and prompts', async () => {
    server = await startChatServer({ handler: (body) => ({ content: String(body.temperature) }) });
    const format = { type: 'json_schema', json_schema: { name: 'answer', schema: {} } };
    await post(server, { ...question, temperature: 0 });
    await post(server, { ...question, temperature: 0.7, response_format: format });
    const records = server.chatRequests();
    expect(records.map((record) => record.index)).toEqual([0, 1]);
    expect(records.map((record) => record.body?.temperature)).toEqual([0, 0.7]);
    expect(records[0]?.body?.response_format).toBeUndefined();
    expect(records[1]?.body?.response_format).toEqual(format);
    expect(records[1]?.body?.messages[0]?.content).toBe('What is 2 + 2?');
    expect(records[1]?.headers.authorization).toBe('Bearer test-key');
  });

  it('lets the handler see how many requests came before', async () => {
    server = await startChatServer({
      handler: (_body, context) =>
        context.index < 2 ? { fault: 'server_error' } : { content: 'third time' },
    });
    expect((await post(server, question)).status).toBe(500);
    expect((await post(server, question)).status).toBe(500);
    expect((await post(server, question)).status).toBe(200);
  });

  it('answers 429 with the retry-after header it was told to send', async () => {
    server = await startChatServer({ handler: () => ({ fault: 'rate_limit', retryAfter: 2 }) });
    const response = await post(server, question);
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('2');
    const body = (await response.json()) as { error: { type: string } };
    expect(body.error.type).toBe('rate_limit_error');
  });

  it('answers any scripted status, such as 400 for a rejected response_format', async () => {
    server = await startChatServer({
      handler: () => ({ fault: 'status', status: 400, message: 'response_format not supported' }),
    });
    const response = await post(server, question);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      'response_format not supported',
    );
  });

  it('sends a body that is not valid JSON when told to', async () => {
    server = await startChatServer({ handler: () => ({ fault: 'malformed_json' }) });
    const response = await post(server, question);
    expect(response.status).toBe(200);
    await expect(response.json()).rejects.toThrow(SyntaxError);
  });

  it('sends a chat completion without choices when told to', async () => {
    server = await startChatServer({ handler: () => ({ fault: 'no_choices' }) });
    const response = await post(server, question);
    expect(response.status).toBe(200);
    expect(await response.json()).not.toHaveProperty('choices');
  });

  it('drops the connection without a response when told to', async () => {
    server = await startChatServer({ handler: () => ({ fault: 'close' }) });
    await expect(post(server, question)).rejects.toThrow(/fetch failed/);
  });

  it('never answers a hanging request, and closing the server ends it', async () => {
    server = await startChatServer({ handler: () => ({ fault: 'hang' }) });
    const pending = post(server, question);
    const outcome = await Promise.race([
      pending.then(
        () => 'answered',
        () => 'failed',
      ),
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 300)),
    ]);
    expect(outcome).toBe('still waiting');
    await server.close();
    server = undefined;
    await expect(pending).rejects.toThrow();
  });

  it('adds the simulated latency before each reply', async () => {
    server = await startChatServer({ latencyMs: 120 });
    const started = performance.now();
    await (await post(server, question)).json();
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
  });

  it('refuses connections on the port unusedPort returns', async () => {
    const port = await unusedPort();
    await expect(fetch(`http://127.0.0.1:${port}/v1/models`)).rejects.toMatchObject({
      cause: { code: 'ECONNREFUSED' },
    });
  });
});
