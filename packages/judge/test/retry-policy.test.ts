import { type ChatServer, startChatServer, unusedPort } from '@qualm/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import {
  backoffDelay,
  createChatClient,
  JudgeError,
  JudgeErrorCode,
  parseRetryAfter,
} from '../src/index.js';
import { testClient } from './helpers.js';

let server: ChatServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const question = [{ role: 'user' as const, content: 'What is 2 + 2?' }];

async function failure(promise: Promise<unknown>): Promise<JudgeError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof JudgeError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

function gaps(target: ChatServer): number[] {
  const times = target.chatRequests().map((record) => record.receivedAt);
  return times.slice(1).map((time, index) => time - (times[index] ?? 0));
}

describe('the request the chat client sends', () => {
  it('sends the reply length as max_tokens with n 1 by default, as the LongMemEval harness does', async () => {
    server = await startChatServer({ handler: () => ({ content: 'four' }) });
    await testClient(server.baseURL).complete(question, { maxTokens: 12 });
    const body = server.chatRequests()[0]?.body;
    expect(body).toMatchObject({ n: 1, max_tokens: 12 });
    expect(body).not.toHaveProperty('max_completion_tokens');
  });

  it('sends max_completion_tokens instead for endpoints that want the newer name', async () => {
    server = await startChatServer({ handler: () => ({ content: 'four' }) });
    const client = createChatClient({
      model: 'judge-model',
      baseURL: server.baseURL,
      apiKey: 'k',
      maxTokens: 7,
      maxTokensParameter: 'max_completion_tokens',
    });
    expect(client.maxTokensParameter).toBe('max_completion_tokens');
    await client.complete(question);
    const body = server.chatRequests()[0]?.body;
    expect(body).toMatchObject({ n: 1, max_completion_tokens: 7 });
    expect(body).not.toHaveProperty('max_tokens');
  });

  it('rejects an unknown reply-length field', () => {
    expect(() =>
      createChatClient({
        model: 'm',
        apiKey: 'k',
        maxTokensParameter: 'max_new_tokens' as 'max_tokens',
      }),
    ).toThrow(/maxTokensParameter/);
  });
});

describe('retry policy of the chat client', () => {
  it('retries a 500 twice and returns the third answer, with three requests and one call', async () => {
    server = await startChatServer({
      handler: (_body, { index }) =>
        index < 2
          ? { fault: 'server_error' }
          : { content: 'four', usage: { prompt_tokens: 9, completion_tokens: 1 } },
    });
    const reply = await testClient(server.baseURL).complete(question);
    expect(reply.text).toBe('four');
    expect(server.chatRequests()).toHaveLength(3);
    expect(reply.attempts).toBe(3);
    expect(reply.usage).toEqual({
      calls: 1,
      requests: 3,
      promptTokens: 9,
      completionTokens: 1,
      totalTokens: 10,
    });
  });

  it('gives up after exactly maxAttempts requests on a 5xx that does not go away', async () => {
    server = await startChatServer({ handler: () => ({ fault: 'server_error', status: 503 }) });
    const error = await failure(testClient(server.baseURL).complete(question));
    expect(error.code).toBe(JudgeErrorCode.ENDPOINT_UNAVAILABLE);
    expect(error.status).toBe(503);
    expect(error.attempts).toBe(3);
    expect(error.message).toContain('(503)');
    expect(server.chatRequests()).toHaveLength(3);
  });

  it('honours maxAttempts: one attempt means no retry', async () => {
    server = await startChatServer({ handler: () => ({ fault: 'server_error' }) });
    await failure(testClient(server.baseURL, { maxAttempts: 1 }).complete(question));
    expect(server.chatRequests()).toHaveLength(1);
  });

  it.each([408, 409])('retries a %i', async (status) => {
    server = await startChatServer({
      handler: (_body, { index }) =>
        index === 0 ? { fault: 'status', status } : { content: 'ok' },
    });
    const reply = await testClient(server.baseURL).complete(question);
    expect(reply.text).toBe('ok');
    expect(server.chatRequests()).toHaveLength(2);
  });

  it.each([400, 422])('does not retry a %i', async (status) => {
    server = await startChatServer({ handler: () => ({ fault: 'status', status }) });
    const error = await failure(testClient(server.baseURL).complete(question));
    expect(error.code).toBe(JudgeErrorCode.REQUEST_REJECTED);
    expect(error.status).toBe(status);
    expect(server.chatRequests()).toHaveLength(1);
  });

  it('does not retry a 404 and says to check the model and the URL, as a set-up error', async () => {
    server = await startChatServer({
      handler: () => ({ fault: 'status', status: 404, message: 'model "gpt-9" does not exist' }),
    });
    const error = await failure(testClient(server.baseURL).complete(question));
    expect(error.code).toBe(JudgeErrorCode.ENDPOINT_NOT_FOUND);
    expect(error.kind).toBe('setup');
    expect(error.message).toContain('model "gpt-9" does not exist');
    expect(error.message).toContain('/v1');
    expect(server.chatRequests()).toHaveLength(1);
  });

  it('does not retry a 401 and never repeats the API key the server echoes', async () => {
    server = await startChatServer({
      handler: () => ({
        fault: 'status',
        status: 401,
        message: 'Incorrect API key provided: sk-test-key-123456',
      }),
    });
    const error = await failure(testClient(server.baseURL).complete(question));
    expect(error.code).toBe(JudgeErrorCode.AUTHENTICATION_FAILED);
    expect(error.message).not.toContain('sk-test-key-123456');
    expect(error.message).toContain('[redacted]');
    expect(server.chatRequests()).toHaveLength(1);
  });

  it('waits the seconds a 429 asks for in retry-after before retrying', async () => {
    server = await startChatServer({
      handler: (_body, { index }) =>
        index === 0 ? { fault: 'rate_limit', retryAfter: 1 } : { content: 'ok' },
    });
    const reply = await testClient(server.baseURL).complete(question);
    expect(reply.text).toBe('ok');
    expect(gaps(server)[0]).toBeGreaterThanOrEqual(950);
  });

  it('reads retry-after given as an HTTP date, capped by maxRetryAfterMs', async () => {
    server = await startChatServer({
      handler: (_body, { index }) =>
        index === 0
          ? { fault: 'rate_limit', retryAfter: new Date(Date.now() + 5_000).toUTCString() }
          : { content: 'ok' },
    });
    const client = testClient(server.baseURL, {
      backoff: { baseDelayMs: 1, jitter: 0, maxRetryAfterMs: 400 },
    });
    await client.complete(question);
    const [gap] = gaps(server);
    expect(gap).toBeGreaterThanOrEqual(380);
    expect(gap).toBeLessThan(1_500);
  });

  it('caps a long retry-after so one server cannot stall the run', async () => {
    server = await startChatServer({
      handler: (_body, { index }) =>
        index === 0 ? { fault: 'rate_limit', retryAfter: 120 } : { content: 'ok' },
    });
    const client = testClient(server.baseURL, {
      backoff: { baseDelayMs: 1, jitter: 0, maxRetryAfterMs: 100 },
    });
    const started = performance.now();
    await client.complete(question);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(gaps(server)[0]).toBeGreaterThanOrEqual(90);
  });

  it('reports RATE_LIMITED after three 429 answers', async () => {
    server = await startChatServer({ handler: () => ({ fault: 'rate_limit' }) });
    const error = await failure(testClient(server.baseURL).complete(question));
    expect(error.code).toBe(JudgeErrorCode.RATE_LIMITED);
    expect(server.chatRequests()).toHaveLength(3);
  });

  it('backs off exponentially between attempts', async () => {
    server = await startChatServer({ handler: () => ({ fault: 'server_error' }) });
    const client = testClient(server.baseURL, {
      maxAttempts: 4,
      backoff: { baseDelayMs: 80, maxDelayMs: 10_000, jitter: 0 },
    });
    await failure(client.complete(question));
    const [first, second, third] = gaps(server);
    expect(first).toBeGreaterThanOrEqual(75);
    expect(second).toBeGreaterThanOrEqual(155);
    expect(third).toBeGreaterThanOrEqual(315);
    expect(third).toBeLessThan(1_500);
  });

  it('times out a hanging request and retries it, three requests in all', async () => {
    server = await startChatServer({ handler: () => ({ fault: 'hang' }) });
    const started = performance.now();
    const error = await failure(testClient(server.baseURL, { timeoutMs: 150 }).complete(question));
    const elapsed = performance.now() - started;
    expect(error.code).toBe(JudgeErrorCode.TIMEOUT);
    expect(error.message).toContain('within 150 ms');
    expect(server.chatRequests()).toHaveLength(3);
    expect(elapsed).toBeGreaterThanOrEqual(440);
    expect(elapsed).toBeLessThan(3_000);
  });

  it('retries a connection closed without a response', async () => {
    server = await startChatServer({
      handler: (_body, { index }) => (index === 0 ? { fault: 'close' } : { content: 'ok' }),
    });
    expect((await testClient(server.baseURL).complete(question)).text).toBe('ok');
    expect(server.chatRequests()).toHaveLength(2);
  });

  it('retries a body that is not valid JSON', async () => {
    server = await startChatServer({
      handler: (_body, { index }) =>
        index === 0 ? { fault: 'malformed_json' } : { content: 'ok' },
    });
    expect((await testClient(server.baseURL).complete(question)).text).toBe('ok');
    expect(server.chatRequests()).toHaveLength(2);
  });

  it('retries a 200 without choices, then fails with MALFORMED_REPLY, a transient failure', async () => {
    server = await startChatServer({ handler: () => ({ fault: 'no_choices' }) });
    const error = await failure(testClient(server.baseURL).complete(question));
    expect(error.code).toBe(JudgeErrorCode.MALFORMED_REPLY);
    expect(error.kind).toBe('unavailable');
    expect(error.message).toContain('has no choices');
    expect(error.attempts).toBe(3);
    expect(server.chatRequests()).toHaveLength(3);
  });

  it('fails with MALFORMED_REPLY, a transient failure, when the body is never JSON', async () => {
    server = await startChatServer({ handler: () => ({ fault: 'malformed_json' }) });
    const error = await failure(testClient(server.baseURL).complete(question));
    expect(error.code).toBe(JudgeErrorCode.MALFORMED_REPLY);
    expect(error.kind).toBe('unavailable');
    expect(server.chatRequests()).toHaveLength(3);
  });

  it('fails with ENDPOINT_UNAVAILABLE naming a refused connection after three attempts', async () => {
    const port = await unusedPort();
    const error = await failure(testClient(`http://127.0.0.1:${port}/v1`).complete(question));
    expect(error.code).toBe(JudgeErrorCode.ENDPOINT_UNAVAILABLE);
    expect(error.message).toContain('connection refused');
    expect(error.message).toContain(`127.0.0.1:${port}`);
    expect(error.attempts).toBe(3);
  });

  it('never warns of an abort-listener leak when one signal serves many calls', async () => {
    server = await startChatServer();
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const client = testClient(server.baseURL);
      const controller = new AbortController();
      for (let call = 0; call < 30; call += 1) {
        await client.complete(question, { signal: controller.signal });
      }
      // warnings are emitted on the next tick
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });

  it('stops retrying when the caller aborts', async () => {
    server = await startChatServer({ handler: () => ({ fault: 'server_error' }) });
    const controller = new AbortController();
    const client = testClient(server.baseURL, {
      maxAttempts: 10,
      backoff: { baseDelayMs: 200, jitter: 0 },
    });
    setTimeout(() => controller.abort(), 100);
    const error = await failure(client.complete(question, { signal: controller.signal }));
    expect(error.code).toBe(JudgeErrorCode.ABORTED);
    expect(server.chatRequests()).toHaveLength(1);
  });

  it('sends the model and temperature 0 by default', async () => {
    server = await startChatServer();
    await testClient(server.baseURL).complete(question);
    const body = server.chatRequests()[0]?.body;
    expect(body?.model).toBe('judge-model');
    expect(body?.temperature).toBe(0);
    expect(server.chatRequests()[0]?.headers.authorization).toBe('Bearer sk-test-key-123456');
  });

  it('refuses to start without an API key', () => {
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      expect(() => createChatClient({ model: 'm', baseURL: 'http://127.0.0.1:1/v1' })).toThrow(
        expect.objectContaining({ code: JudgeErrorCode.MISSING_CREDENTIALS }),
      );
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
  });
});

describe('backoff and retry-after arithmetic', () => {
  it('doubles the delay per retry up to the maximum', () => {
    const options = { baseDelayMs: 100, maxDelayMs: 350, jitter: 0 };
    expect([1, 2, 3, 4].map((retry) => backoffDelay(retry, options))).toEqual([100, 200, 350, 350]);
  });

  it('draws the jitter inside the configured share of the delay', () => {
    const options = { baseDelayMs: 100, jitter: 0.5 };
    expect(backoffDelay(1, options, () => 0)).toBe(100);
    expect(backoffDelay(1, options, () => 1)).toBe(50);
    expect(backoffDelay(2, options, () => 0.5)).toBe(150);
  });

  it('reads retry-after as seconds, as an HTTP date and as retry-after-ms', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    const headers = (values: Record<string, string>) => ({ get: (name: string) => values[name] });
    expect(parseRetryAfter(headers({ 'retry-after': '3' }), now)).toBe(3_000);
    expect(parseRetryAfter(headers({ 'retry-after': '0.5' }), now)).toBe(500);
    expect(parseRetryAfter(headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:07 GMT' }), now)).toBe(
      7_000,
    );
    expect(parseRetryAfter(headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(
      250,
    );
    expect(parseRetryAfter(headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(parseRetryAfter(headers({}), now)).toBeUndefined();
  });
});

describe('endpoint URL', () => {
  it.each([
    ['notaurl', 'must start with http:// or https://'],
    ['ftp://127.0.0.1/v1', 'scheme ftp'],
    ['127.0.0.1:8000/v1', 'must start with http:// or https://'],
    ['http://127.0.0.1:99999/v1', 'is not a URL'],
  ])('refuses %s before any request, as a set-up error', (baseURL, problem) => {
    let error: unknown;
    try {
      createChatClient({ model: 'test-model', apiKey: 'sk-test', baseURL });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(JudgeError);
    expect((error as JudgeError).code).toBe(JudgeErrorCode.INVALID_ENDPOINT);
    expect((error as JudgeError).kind).toBe('setup');
    expect((error as JudgeError).message).toContain(baseURL);
    expect((error as JudgeError).message).toContain(problem);
  });

  it('checkEndpoint fails at once, without retries, when nothing listens on the port', async () => {
    const port = await unusedPort();
    const started = performance.now();
    const client = testClient(`http://127.0.0.1:${port}/v1`, {
      backoff: { baseDelayMs: 10_000, jitter: 0 },
    });
    const error = await failure(client.checkEndpoint());
    expect(error.code).toBe(JudgeErrorCode.INVALID_ENDPOINT);
    expect(error.kind).toBe('setup');
    expect(error.message).toContain(`http://127.0.0.1:${port}/v1`);
    expect(error.message).toContain('connection refused');
    // a retry would have waited ten seconds (the margin is for a busy machine)
    expect(performance.now() - started).toBeLessThan(8_000);
  });

  it('a port fetch never connects to is a set-up error naming the URL, never retried', async () => {
    const client = testClient('http://127.0.0.1:6000/v1', {
      backoff: { baseDelayMs: 10_000, jitter: 0 },
    });
    const error = await failure(client.complete(question));
    expect(error.code).toBe(JudgeErrorCode.INVALID_ENDPOINT);
    expect(error.message).toContain('http://127.0.0.1:6000/v1');
    expect(error.message).toContain('bad port');
    expect(error.attempts).toBe(1);
  });

  it('checkEndpoint passes, without retrying, an endpoint whose GET /models answers 5xx with an HTML page', async () => {
    const page = `<!DOCTYPE html>\n<html><head><title>501 Not Implemented</title></head>\n<body>${'<p>padding</p>\n'.repeat(200)}</body></html>`;
    for (const status of [501, 503]) {
      server = await startChatServer({ modelsReply: { fault: 'raw', status, body: page } });
      const started = performance.now();
      const client = testClient(server.baseURL, { backoff: { baseDelayMs: 10_000, jitter: 0 } });
      await expect(client.checkEndpoint()).resolves.toBeUndefined();
      expect(server.requests.filter((request) => request.path === '/v1/models')).toHaveLength(1);
      expect(performance.now() - started).toBeLessThan(8_000);
      await server.close();
    }
    server = undefined;
  });

  it('a rejected key on GET /models names the check', async () => {
    server = await startChatServer({
      modelsReply: { fault: 'status', status: 401, message: 'bad key' },
    });
    const error = await failure(testClient(server.baseURL).checkEndpoint());
    expect(error.code).toBe(JudgeErrorCode.AUTHENTICATION_FAILED);
    expect(error.message).toContain(`GET ${server.baseURL}/models`);
    expect(error.message).toContain('bad key');
  });

  it("an HTML error page becomes one short line of the server's message", async () => {
    const page = `<html>\n<head><title>502 Bad Gateway</title></head>\n<body>${'<p>upstream</p>\n'.repeat(300)}</body></html>`;
    server = await startChatServer({ handler: () => ({ fault: 'raw', status: 502, body: page }) });
    const error = await failure(testClient(server.baseURL, { maxAttempts: 1 }).complete(question));
    expect(error.code).toBe(JudgeErrorCode.ENDPOINT_UNAVAILABLE);
    expect(error.message).toContain('(502): 502 Bad Gateway');
    expect(error.message).not.toContain('\n');
    expect(error.message.length).toBeLessThan(300);
  });

  it('checkEndpoint passes an endpoint without GET /models that answers chat completions', async () => {
    server = await startChatServer({ models: [] });
    const client = testClient(`${server.url}/openai/v1`);
    await expect(client.checkEndpoint()).resolves.toBeUndefined();
  });
});
