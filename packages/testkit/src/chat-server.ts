import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One chat message as the chat-completions protocol carries it. */
export interface ChatServerMessage {
  role: string;
  content: string | null | unknown[];
  [key: string]: unknown;
}

/** The parsed body of a `POST /v1/chat/completions` request. */
export interface ChatServerRequestBody {
  model?: string;
  messages: ChatServerMessage[];
  temperature?: number;
  response_format?: {
    type: string;
    json_schema?: { name?: string; schema?: Record<string, unknown>; strict?: boolean };
  };
  [key: string]: unknown;
}

/** A request the server received, kept in arrival order so tests can assert on it. */
export interface ChatServerRecord {
  /** Position of this request among all requests the server received, from 0. */
  index: number;
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Milliseconds since the server started when the request arrived. */
  receivedAt: number;
  /** Parsed JSON body of a chat-completions request; undefined for other requests. */
  body: ChatServerRequestBody | undefined;
}

/** Token counts a scripted reply reports; missing counts are estimated from the text. */
export interface ChatServerUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
}

/**
 * A successful reply: text content, or a JSON value sent as the message content. A request with
 * `stream: true` gets it as server-sent events, one per piece of `streamChunks` (default: one per
 * word).
 */
export type ChatServerAnswer =
  | {
      content: string;
      usage?: ChatServerUsage;
      finishReason?: string;
      delayMs?: number;
      streamChunks?: readonly string[];
    }
  | {
      json: unknown;
      usage?: ChatServerUsage;
      finishReason?: string;
      delayMs?: number;
      streamChunks?: readonly string[];
    };

/** A reply that misbehaves on purpose. */
export type ChatServerFault =
  /** 429 with a `retry-after` header (seconds or an HTTP date) when given. */
  | { fault: 'rate_limit'; retryAfter?: string | number; retryAfterMs?: number; delayMs?: number }
  /** A 5xx status (500 unless given) with an OpenAI-style error body. */
  | { fault: 'server_error'; status?: number; message?: string; delayMs?: number }
  /** Any status with an error body, e.g. 400 for a rejected `response_format`. */
  | {
      fault: 'status';
      status: number;
      message?: string;
      headers?: Record<string, string>;
      delayMs?: number;
    }
  /** Never answers; the connection stays open until the client gives up or the server closes. */
  | { fault: 'hang' }
  /** A 200 whose body is not valid JSON. */
  | { fault: 'malformed_json'; delayMs?: number }
  /** A 200 whose body is JSON but not a chat completion: no `choices`. */
  | { fault: 'no_choices'; delayMs?: number }
  /** Destroys the socket without sending a response. */
  | { fault: 'close'; delayMs?: number }
  /** Any status with a body sent as it is, e.g. a proxy's HTML error page. */
  | { fault: 'raw'; status: number; body: string; contentType?: string; delayMs?: number };

/** What a handler returns for one chat-completions request. */
export type ChatServerReply = ChatServerAnswer | ChatServerFault;

/** Context a handler sees beside the request body. */
export interface ChatServerHandlerContext {
  /** Position of this request among all requests received, from 0. */
  index: number;
  /** Everything received so far, this request included. */
  requests: readonly ChatServerRecord[];
  record: ChatServerRecord;
}

/** Scripts the server's answer to each chat-completions request. */
export type ChatServerHandler = (
  body: ChatServerRequestBody,
  context: ChatServerHandlerContext,
) => ChatServerReply | Promise<ChatServerReply>;

/** Options of {@link startChatServer}. */
export interface ChatServerOptions {
  /** Scripts replies; the default answers every request with the text "ok". */
  handler?: ChatServerHandler;
  /** Simulated latency added before every reply, in milliseconds. */
  latencyMs?: number;
  /** Model ids `GET /v1/models` lists. */
  models?: readonly string[];
  /** A fault `GET /v1/models` answers with instead of the list (a server without the route). */
  modelsReply?: ChatServerFault;
  /** Keep every request in `requests` (on by default). */
  record?: boolean;
}

/** A running loopback chat-completions server. */
export interface ChatServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** `http://127.0.0.1:<port>/v1`, the value an OpenAI client takes as `baseURL`. */
  readonly baseURL: string;
  readonly port: number;
  /** Every request received, in arrival order. */
  readonly requests: ChatServerRecord[];
  /** Chat-completions requests only, in arrival order. */
  chatRequests(): ChatServerRecord[];
  /** Replaces the handler for the requests that follow. */
  setHandler(handler: ChatServerHandler): void;
  /** Forgets the recorded requests. */
  clearRequests(): void;
  /** Stops listening and drops every open connection, hanging ones included. */
  close(): Promise<void>;
}

const defaultHandler: ChatServerHandler = () => ({ content: 'ok' });

/**
 * Starts a real HTTP server on 127.0.0.1 with an ephemeral port that speaks the OpenAI
 * chat-completions protocol (plain and streamed) and answers as the handler scripts it.
 */
export async function startChatServer(options: ChatServerOptions = {}): Promise<ChatServer> {
  let handler = options.handler ?? defaultHandler;
  const latencyMs = options.latencyMs ?? 0;
  const models = options.models ?? ['test-model'];
  const keepRecords = options.record ?? true;
  const requests: ChatServerRecord[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const started = performance.now();
  let received = 0;
  let closing = false;

  const wait = (milliseconds: number) =>
    new Promise<void>((resolve) => {
      if (milliseconds <= 0) return resolve();
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, milliseconds);
      timers.add(timer);
    });

  const server: Server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      if (!response.headersSent && !response.destroyed) {
        sendJson(response, 500, {
          error: { message: `chat server handler failed: ${String(error)}`, type: 'server_error' },
        });
      }
    });
  });
  server.keepAliveTimeout = 10_000;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const record: ChatServerRecord = {
      index: received,
      method: request.method ?? 'GET',
      path,
      headers: { ...request.headers },
      receivedAt: performance.now() - started,
      body: undefined,
    };
    received += 1;

    if (request.method === 'GET' && path === '/v1/models') {
      if (keepRecords) requests.push(record);
      if (options.modelsReply) {
        await wait('delayMs' in options.modelsReply ? (options.modelsReply.delayMs ?? 0) : 0);
        sendFault(options.modelsReply, request, response);
        return;
      }
      sendJson(response, 200, {
        object: 'list',
        data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'qualm-testkit' })),
      });
      return;
    }
    if (request.method !== 'POST' || path !== '/v1/chat/completions') {
      if (keepRecords) requests.push(record);
      sendJson(response, 404, {
        error: { message: `no route for ${request.method} ${path}`, type: 'invalid_request_error' },
      });
      return;
    }

    let body: ChatServerRequestBody;
    try {
      body = JSON.parse(raw) as ChatServerRequestBody;
    } catch {
      if (keepRecords) requests.push(record);
      sendJson(response, 400, {
        error: { message: 'request body is not valid JSON', type: 'invalid_request_error' },
      });
      return;
    }
    record.body = body;
    if (keepRecords) requests.push(record);

    const reply = await handler(body, { index: record.index, requests, record });
    await wait(latencyMs + ('delayMs' in reply ? (reply.delayMs ?? 0) : 0));
    if (closing || response.destroyed) return;

    if ('fault' in reply) {
      sendFault(reply, request, response);
      return;
    }
    const content = 'json' in reply ? JSON.stringify(reply.json) : reply.content;
    const promptText = body.messages
      .map((message) => (typeof message.content === 'string' ? message.content : ''))
      .join('\n');
    const promptTokens = reply.usage?.prompt_tokens ?? estimateTokens(promptText);
    const completionTokens = reply.usage?.completion_tokens ?? estimateTokens(content);
    const usage = {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
    };
    if (body.stream === true) {
      const pieces = reply.streamChunks ?? content.match(/\S+\s*|\s+/g) ?? [];
      const chunk = (delta: Record<string, unknown>, finishReason: string | null) => ({
        id: `chatcmpl-${record.index}`,
        object: 'chat.completion.chunk',
        created: Math.floor(Date.now() / 1000),
        model: body.model ?? models[0] ?? 'test-model',
        choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
      });
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const send = (value: unknown) => response.write(`data: ${JSON.stringify(value)}\n\n`);
      send(chunk({ role: 'assistant', content: '' }, null));
      for (const piece of pieces) send(chunk({ content: piece }, null));
      send(chunk({}, reply.finishReason ?? 'stop'));
      const streamOptions = body.stream_options as { include_usage?: boolean } | undefined;
      if (streamOptions?.include_usage) send({ ...chunk({}, null), choices: [], usage });
      response.end('data: [DONE]\n\n');
      return;
    }
    sendJson(response, 200, {
      id: `chatcmpl-${record.index}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model ?? models[0] ?? 'test-model',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content, refusal: null },
          finish_reason: reply.finishReason ?? 'stop',
          logprobs: null,
        },
      ],
      usage,
    });
  }

  function sendFault(fault: ChatServerFault, request: IncomingMessage, response: ServerResponse) {
    switch (fault.fault) {
      case 'hang':
        return;
      case 'close':
        request.socket.destroy();
        return;
      case 'malformed_json':
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"id": "chatcmpl-broken", "choices": [');
        return;
      case 'no_choices':
        sendJson(response, 200, { id: 'chatcmpl-empty', object: 'chat.completion', created: 0 });
        return;
      case 'rate_limit': {
        const headers: Record<string, string> = {};
        if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
        if (fault.retryAfterMs !== undefined)
          headers['retry-after-ms'] = String(fault.retryAfterMs);
        sendJson(
          response,
          429,
          { error: { message: 'rate limit reached', type: 'rate_limit_error' } },
          headers,
        );
        return;
      }
      case 'server_error':
        sendJson(response, fault.status ?? 500, {
          error: { message: fault.message ?? 'internal server error', type: 'server_error' },
        });
        return;
      case 'status':
        sendJson(
          response,
          fault.status,
          { error: { message: fault.message ?? `status ${fault.status}`, type: 'error' } },
          fault.headers,
        );
        return;
      case 'raw':
        response.writeHead(fault.status, {
          'content-type': fault.contentType ?? 'text/html; charset=utf-8',
        });
        response.end(fault.body);
        return;
    }
  }

  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    baseURL: `${url}/v1`,
    port,
    requests,
    chatRequests: () => requests.filter((record) => record.body !== undefined),
    setHandler(next) {
      handler = next;
    },
    clearRequests() {
      requests.length = 0;
    },
    async close() {
      closing = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await closed;
    },
  };
}

/**
 * A loopback port with nothing listening on it, for testing "connection refused": the port is
 * taken from the operating system and released again before this resolves.
 */
export async function unusedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function sendJson(
  response: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(value);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

// a rough count (four characters a token) so usage accounting has numbers to add up
function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}
