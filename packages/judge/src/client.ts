import OpenAI, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import type { ResponseFormatJSONSchema } from 'openai/resources/shared';
import { z } from 'zod';
import { linkSignal } from './abort-link.js';
import { JudgeError, JudgeErrorCode } from './errors.js';
import { extractJson } from './json-extraction.js';
import { type BackoffOptions, parseRetryAfter, retryDelay, sleep } from './retry.js';
import { emptyUsage, type TokenUsage } from './usage.js';

/** One message of a chat conversation. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/**
 * How structured replies are obtained: `json_schema` sends `response_format` with the schema,
 * `text` asks for JSON in the prompt and reads it from the text, `auto` starts with
 * `json_schema` and switches to `text` for good once the server rejects `response_format`.
 */
export type StructuredOutputMode = 'auto' | 'json_schema' | 'text';

/**
 * The request field that carries the reply length: `max_tokens`, what the LongMemEval harness
 * sends and what every OpenAI-compatible server takes, or `max_completion_tokens`, the newer name
 * OpenAI requires for its reasoning models (and that older vLLM, llama.cpp and many proxies reject
 * or ignore).
 */
export type MaxTokensParameter = 'max_tokens' | 'max_completion_tokens';

/** The reply-length fields, for option parsing. */
export const maxTokensParameters: readonly MaxTokensParameter[] = [
  'max_tokens',
  'max_completion_tokens',
];

/** Options of {@link createChatClient}. */
export interface ChatClientOptions {
  /** Model id sent with every request. */
  model: string;
  /** OpenAI-compatible endpoint, e.g. `http://127.0.0.1:8000/v1` (default `OPENAI_BASE_URL`, else OpenAI). */
  baseURL?: string;
  /** API key (default `OPENAI_API_KEY`); a client without one cannot be created. */
  apiKey?: string;
  /** Sampling temperature (default 0, as judges should be). */
  temperature?: number;
  /** Upper bound of tokens in each reply, sent (as `maxTokensParameter`) when given. */
  maxTokens?: number;
  /** The field the reply length is sent in (`max_tokens`). */
  maxTokensParameter?: MaxTokensParameter;
  /** Time allowed for one request before it counts as timed out (default 60,000 ms). */
  timeoutMs?: number;
  /** Requests per call, the first included, before a transient failure is final (default 3). */
  maxAttempts?: number;
  /** Delays between attempts. */
  backoff?: BackoffOptions;
  /** How structured replies are obtained (default `auto`). */
  structuredOutput?: StructuredOutputMode;
  /** Replies asked for per structured call, re-asks included, before giving up (default 3). */
  maxParseAttempts?: number;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
}

/** Per-call overrides. */
export interface CompleteOptions {
  signal?: AbortSignal;
  temperature?: number;
  maxTokens?: number;
}

/** Per-call overrides of a structured call. */
export interface CompleteStructuredOptions extends CompleteOptions {
  /** Name of the schema in `response_format` (letters, digits, `_` and `-`; default `response`). */
  name?: string;
}

/** A text reply. */
export interface CompletionResult {
  text: string;
  /** Why the model stopped (`stop`, `length`, …). */
  finishReason: string | null;
  usage: TokenUsage;
  /** HTTP requests sent for this reply, retries included. */
  attempts: number;
}

/** A reply read into a schema. */
export interface StructuredResult<Value> {
  value: Value;
  /** The raw text of the reply that was accepted. */
  text: string;
  usage: TokenUsage;
  /** Replies asked for until one matched the schema (1 when the first one did). */
  attempts: number;
  /** How the accepted reply was obtained. */
  mode: 'json_schema' | 'text';
}

/** A chat-completions client with one retry policy, usage accounting and structured replies. */
export interface ChatClient {
  readonly model: string;
  /** The field the reply length is sent in. */
  readonly maxTokensParameter?: MaxTokensParameter;
  readonly baseURL: string;
  readonly temperature: number;
  /** The mode the next structured call will use (`auto` resolves once the server has answered). */
  readonly structuredOutput: StructuredOutputMode;
  /** Sends a conversation and returns the reply text. */
  complete(messages: readonly ChatMessage[], options?: CompleteOptions): Promise<CompletionResult>;
  /** Sends a conversation and returns the reply parsed and validated by the schema. */
  completeStructured<Schema extends z.ZodType>(
    messages: readonly ChatMessage[],
    schema: Schema,
    options?: CompleteStructuredOptions,
  ): Promise<StructuredResult<z.output<Schema>>>;
  /** Lists the endpoint's models (`GET /models`); fails with a clear error when it cannot be reached. */
  listModels(options?: { signal?: AbortSignal }): Promise<string[]>;
  /**
   * Checks, before a run, that the endpoint can answer, with one `GET /models`: an endpoint with
   * nothing listening or an unknown host fails at once with `INVALID_ENDPOINT` (no retries), a
   * rejected key (401, 403) with `AUTHENTICATION_FAILED`. Any other HTTP answer passes, 5xx
   * included (a server without `/models`, or one failing it, may still answer chat completions,
   * and those calls have their own retries). No answer within the timeout fails after that one
   * attempt with `TIMEOUT` (kind `unavailable`): a server that cannot list its models in that time
   * would keep every item waiting as long. A dropped connection is retried, then fails; both
   * messages name the check.
   */
  checkEndpoint(options?: { signal?: AbortSignal }): Promise<void>;
}

const defaultBaseURL = 'https://api.openai.com/v1';

/** Creates a {@link ChatClient} on the `openai` package, with the SDK's own retries turned off. */
export function createChatClient(options: ChatClientOptions): ChatClient {
  const apiKey = options.apiKey ?? process.env.OPENAI_API_KEY;
  if (apiKey === undefined || apiKey.trim() === '') {
    throw new JudgeError(
      JudgeErrorCode.MISSING_CREDENTIALS,
      'no API key: set OPENAI_API_KEY (any non-empty value for a local server that ignores it)',
    );
  }
  const settings = z
    .object({
      model: z.string().min(1, 'model must not be empty'),
      temperature: z.number().min(0).max(2),
      timeoutMs: z.number().positive(),
      maxAttempts: z.number().int().min(1),
      maxParseAttempts: z.number().int().min(1),
      maxTokens: z.number().int().positive().optional(),
      maxTokensParameter: z.enum(['max_tokens', 'max_completion_tokens']),
    })
    .safeParse({
      model: options.model,
      temperature: options.temperature ?? 0,
      timeoutMs: options.timeoutMs ?? 60_000,
      maxAttempts: options.maxAttempts ?? 3,
      maxParseAttempts: options.maxParseAttempts ?? 3,
      maxTokens: options.maxTokens,
      maxTokensParameter: options.maxTokensParameter ?? 'max_tokens',
    });
  if (!settings.success) {
    const issue = settings.error.issues[0];
    throw new JudgeError(
      JudgeErrorCode.INVALID_CONFIG,
      `invalid chat client option ${issue?.path.join('.')}: ${issue?.message}`,
    );
  }
  const baseURL = checkBaseURL(options.baseURL);
  const {
    model,
    temperature,
    timeoutMs,
    maxAttempts,
    maxParseAttempts,
    maxTokens,
    maxTokensParameter,
  } = settings.data;
  const sdk = new OpenAI({
    apiKey,
    baseURL,
    maxRetries: 0,
    timeout: timeoutMs,
    defaultHeaders: options.headers,
  });
  let structuredOutput: StructuredOutputMode = options.structuredOutput ?? 'auto';
  const redact = (text: string) =>
    apiKey.length >= 4 ? text.split(apiKey).join('[redacted]') : text;

  async function request<Result>(
    send: (signal: AbortSignal) => Promise<Result>,
    usage: TokenUsage,
    signal: AbortSignal | undefined,
    retry: (failure: Failure) => boolean = (failure) => failure.retryable,
  ): Promise<Result> {
    for (let attempt = 1; ; attempt += 1) {
      usage.requests += 1;
      // each attempt has a signal of its own, as the SDK leaves a listener on the signal it is
      // given; the calls in flight on one signal share a single listener on it (see linkSignal)
      const attemptController = linkSignal(signal);
      try {
        return await send(attemptController.signal);
      } catch (error) {
        const failure = classify(error, { baseURL, timeoutMs, redact });
        const retryable = retry(failure);
        const last = attempt >= maxAttempts;
        if (!retryable || last || signal?.aborted) {
          const suffix = retryable && attempt > 1 ? ` (${attempt} attempts)` : '';
          throw new JudgeError(
            signal?.aborted ? JudgeErrorCode.ABORTED : failure.code,
            signal?.aborted ? 'the call was aborted' : `${failure.message}${suffix}`,
            {
              cause: error,
              status: failure.status,
              attempts: attempt,
              usage: { ...usage },
            },
          );
        }
        try {
          await sleep(
            retryDelay({
              retry: attempt,
              retryAfterMs: failure.retryAfterMs,
              backoff: options.backoff,
            }),
            attemptController.signal,
          );
        } catch (abort) {
          throw new JudgeError(JudgeErrorCode.ABORTED, 'the call was aborted', {
            cause: abort,
            attempts: attempt,
            usage: { ...usage },
          });
        }
      } finally {
        attemptController.release();
      }
    }
  }

  async function chat(
    messages: readonly ChatMessage[],
    callOptions: CompleteOptions,
    usage: TokenUsage,
    responseFormat?: ResponseFormatJSONSchema,
  ): Promise<{ text: string; finishReason: string | null }> {
    const { completion, choice } = await request(
      async (signal) => {
        const completion = await sdk.chat.completions.create(
          {
            model,
            messages: messages.map((message) => ({ role: message.role, content: message.content })),
            // one choice, said explicitly as the LongMemEval harness says it
            n: 1,
            temperature: callOptions.temperature ?? temperature,
            ...((callOptions.maxTokens ?? maxTokens)
              ? { [maxTokensParameter]: callOptions.maxTokens ?? maxTokens }
              : {}),
            ...(responseFormat ? { response_format: responseFormat } : {}),
          },
          { signal },
        );
        const choice = completion?.choices?.[0];
        if (!choice || typeof choice !== 'object') throw new MalformedReply('has no choices');
        return { completion, choice };
      },
      usage,
      callOptions.signal,
    );
    usage.calls += 1;
    usage.promptTokens += completion.usage?.prompt_tokens ?? 0;
    usage.completionTokens += completion.usage?.completion_tokens ?? 0;
    usage.totalTokens +=
      completion.usage?.total_tokens ??
      (completion.usage?.prompt_tokens ?? 0) + (completion.usage?.completion_tokens ?? 0);
    const text = choice.message?.content ?? choice.message?.refusal ?? '';
    return { text, finishReason: choice.finish_reason ?? null };
  }

  return {
    model,
    baseURL,
    temperature,
    maxTokensParameter,
    get structuredOutput() {
      return structuredOutput;
    },

    async complete(messages, callOptions = {}) {
      const usage = emptyUsage();
      const reply = await chat(messages, callOptions, usage);
      return { ...reply, usage, attempts: usage.requests };
    },

    async completeStructured(messages, schema, callOptions = {}) {
      const name = (callOptions.name ?? 'response').replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
      const usage = emptyUsage();
      let mode: 'json_schema' | 'text' = structuredOutput === 'text' ? 'text' : 'json_schema';
      let conversation = mode === 'text' ? withJsonInstruction(messages, schema) : [...messages];
      let problem = '';
      let fellBack = false;
      for (let attempt = 1; attempt <= maxParseAttempts; attempt += 1) {
        let reply: { text: string; finishReason: string | null };
        try {
          reply = await chat(
            conversation,
            callOptions,
            usage,
            mode === 'json_schema' ? responseFormatFor(schema, name) : undefined,
          );
        } catch (error) {
          const rejected =
            error instanceof JudgeError &&
            error.code === JudgeErrorCode.REQUEST_REJECTED &&
            (error.status === 400 || error.status === 422);
          if (mode === 'json_schema' && structuredOutput === 'auto' && rejected && !fellBack) {
            // the server does not take response_format: ask for JSON in the prompt instead
            fellBack = true;
            mode = 'text';
            conversation = withJsonInstruction(messages, schema);
            attempt -= 1;
            continue;
          }
          if (error instanceof JudgeError) {
            throw new JudgeError(error.code, error.message, {
              cause: error.cause,
              status: error.status,
              attempts: error.attempts,
              usage: { ...usage },
            });
          }
          throw error;
        }
        if (fellBack && structuredOutput === 'auto') structuredOutput = 'text';
        const parsed = readStructured(reply.text, schema);
        if (parsed.ok) {
          return { value: parsed.value, text: reply.text, usage, attempts: attempt, mode };
        }
        problem = parsed.problem;
        conversation = [
          ...conversation,
          { role: 'assistant', content: reply.text },
          { role: 'user', content: reAsk(problem) },
        ];
      }
      throw new JudgeError(
        JudgeErrorCode.INVALID_RESPONSE,
        `the reply from ${model} did not match the schema after ${maxParseAttempts} attempts: ${problem}`,
        { attempts: maxParseAttempts, usage },
      );
    },

    async listModels(listOptions = {}) {
      const usage = emptyUsage();
      const page = await request(
        (signal) => sdk.models.list({ signal }),
        usage,
        listOptions.signal,
      );
      return page.data.map((entry) => entry.id);
    },

    async checkEndpoint(checkOptions = {}) {
      try {
        // an HTTP answer of any kind is not retried: it already says a server is there; nothing
        // listening, or no such host, is a wrong URL before a run: said at once, not retried. A
        // request that got no answer in time is not retried either: every item of the run would
        // wait as long, so the run stops after one wait rather than after several
        await request(
          (signal) => sdk.models.list({ signal }),
          emptyUsage(),
          checkOptions.signal,
          (failure) =>
            failure.retryable &&
            failure.connection === undefined &&
            failure.status === undefined &&
            failure.code !== JudgeErrorCode.TIMEOUT,
        );
      } catch (error) {
        if (!(error instanceof JudgeError)) throw error;
        // aborted, or a URL that cannot work (its message names the URL): as it is
        if (
          error.code === JudgeErrorCode.ABORTED ||
          error.code === JudgeErrorCode.INVALID_ENDPOINT
        ) {
          throw error;
        }
        // GET /models is not what a run needs: an endpoint that lacks it (4xx, 501), fails it
        // (5xx) or answers it with something else still may answer chat completions, which decide
        if (
          error.code === JudgeErrorCode.REQUEST_REJECTED ||
          error.code === JudgeErrorCode.ENDPOINT_NOT_FOUND ||
          error.code === JudgeErrorCode.MALFORMED_REPLY ||
          (error.code === JudgeErrorCode.ENDPOINT_UNAVAILABLE && error.status !== undefined)
        ) {
          return;
        }
        const failure = classify(error.cause, { baseURL, timeoutMs, redact });
        const check = `the endpoint check before the run (GET ${baseURL}/models) failed`;
        if (failure.connection !== undefined) {
          throw new JudgeError(
            JudgeErrorCode.INVALID_ENDPOINT,
            `${failure.message}; check the endpoint URL and that its server is running`,
            { cause: error.cause },
          );
        }
        const hint =
          error.code === JudgeErrorCode.TIMEOUT
            ? '; nothing was judged: check that the server is up and answering, or allow a longer timeout'
            : '';
        throw new JudgeError(error.code, `${check}: ${error.message}${hint}`, {
          cause: error.cause,
          status: error.status,
          attempts: error.attempts,
        });
      }
    },
  };
}

/** A 200 reply that is not a chat completion; retried like a server fault. */
class MalformedReply extends Error {}

/**
 * The endpoint URL, from the option or `OPENAI_BASE_URL`, checked: it must be an `http://` or
 * `https://` URL with a host, or no request to it could ever work.
 */
function checkBaseURL(option: string | undefined): string {
  const source =
    option !== undefined
      ? 'the endpoint URL'
      : process.env.OPENAI_BASE_URL
        ? 'OPENAI_BASE_URL'
        : undefined;
  const raw = option ?? (process.env.OPENAI_BASE_URL || defaultBaseURL);
  const trimmed = raw.trim().replace(/\/+$/, '');
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(trimmed)?.[1]?.toLowerCase();
  let problem: string | undefined;
  if (scheme === undefined) problem = 'must start with http:// or https://';
  else if (scheme !== 'http' && scheme !== 'https') {
    problem = `has the scheme ${scheme}; it must be http or https`;
  } else if (!URL.canParse(trimmed)) problem = 'is not a URL';
  else if (new URL(trimmed).hostname === '') problem = 'has no host';
  if (problem !== undefined) {
    throw new JudgeError(
      JudgeErrorCode.INVALID_ENDPOINT,
      `${source ?? 'the endpoint URL'} "${raw}" ${problem} (for example http://127.0.0.1:8000/v1)`,
    );
  }
  return trimmed;
}

/** The result of reading a reply into a schema. */
type StructuredRead<Value> = { ok: true; value: Value } | { ok: false; problem: string };

function readStructured<Schema extends z.ZodType>(
  text: string,
  schema: Schema,
): StructuredRead<z.output<Schema>> {
  const extracted = extractJson(text);
  if (!extracted.ok) return { ok: false, problem: extracted.problem };
  const result = schema.safeParse(extracted.value);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, problem: formatIssues(result.error.issues) };
}

/** Renders zod issues as `path: message; …`, the form re-asks and error messages use. */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 8)
    .map((issue) => {
      const path = issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)';
      return `${path}: ${issue.message}`;
    })
    .join('; ');
}

function reAsk(problem: string): string {
  return `Your previous reply could not be used: ${problem}. Reply again with only the JSON object, matching the schema exactly, and no other text.`;
}

/** The JSON Schema of a zod schema, for prompts; a schema zod cannot render gives undefined. */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> | undefined {
  try {
    const json = z.toJSONSchema(schema, { target: 'draft-7', unrepresentable: 'any' }) as Record<
      string,
      unknown
    >;
    delete json.$schema;
    return json;
  } catch {
    return undefined;
  }
}

function withJsonInstruction(messages: readonly ChatMessage[], schema: z.ZodType): ChatMessage[] {
  const json = jsonSchemaOf(schema);
  const instruction = [
    'Reply with only a JSON object, with no other text before or after it, that matches this JSON Schema:',
    json
      ? JSON.stringify(json)
      : '(the schema could not be rendered; use the fields described above)',
  ].join('\n');
  const conversation = [...messages];
  const lastUser = conversation.map((message) => message.role).lastIndexOf('user');
  if (lastUser === -1) {
    conversation.push({ role: 'user', content: instruction });
  } else {
    const message = conversation[lastUser]!;
    conversation[lastUser] = { role: 'user', content: `${message.content}\n\n${instruction}` };
  }
  return conversation;
}

const responseFormats = new WeakMap<z.ZodType, Map<string, ResponseFormatJSONSchema>>();

// strict mode where the schema allows it (every field required), the plain schema otherwise
function responseFormatFor(schema: z.ZodType, name: string): ResponseFormatJSONSchema {
  let byName = responseFormats.get(schema);
  if (!byName) {
    byName = new Map();
    responseFormats.set(schema, byName);
  }
  const cached = byName.get(name);
  if (cached) return cached;
  let format: ResponseFormatJSONSchema;
  try {
    const strict = zodResponseFormat(schema as never, name);
    format = { type: 'json_schema', json_schema: strict.json_schema };
  } catch {
    format = {
      type: 'json_schema',
      json_schema: { name, strict: false, schema: jsonSchemaOf(schema) ?? { type: 'object' } },
    };
  }
  byName.set(name, format);
  return format;
}

interface Failure {
  code: JudgeErrorCode;
  message: string;
  retryable: boolean;
  status?: number;
  retryAfterMs?: number;
  /** Why a connection could not be made, when none was: refused, no such host. */
  connection?: string;
}

function classify(
  error: unknown,
  context: { baseURL: string; timeoutMs: number; redact: (text: string) => string },
): Failure {
  const { baseURL, timeoutMs, redact } = context;
  if (error instanceof APIUserAbortError) {
    return { code: JudgeErrorCode.ABORTED, message: 'the call was aborted', retryable: false };
  }
  if (error instanceof APIConnectionTimeoutError) {
    return {
      code: JudgeErrorCode.TIMEOUT,
      message: `no answer from ${baseURL} within ${timeoutMs} ms`,
      retryable: true,
    };
  }
  if (error instanceof APIConnectionError) {
    const reason = connectionReason(error);
    if (reason.blockedPort) {
      return {
        code: JudgeErrorCode.INVALID_ENDPOINT,
        message: `cannot reach ${baseURL}: ${reason.text}`,
        retryable: false,
      };
    }
    return {
      code: JudgeErrorCode.ENDPOINT_UNAVAILABLE,
      message: `cannot reach ${baseURL}: ${reason.text}`,
      retryable: true,
      ...(reason.noConnection ? { connection: reason.text } : {}),
    };
  }
  if (error instanceof MalformedReply) {
    return {
      code: JudgeErrorCode.MALFORMED_REPLY,
      message: `the reply from ${baseURL} is not a chat completion: it ${error.message}`,
      retryable: true,
    };
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const status = error.status;
    const detail = redact(serverMessage(error));
    const retryAfterMs = parseRetryAfter(error.headers ?? undefined);
    if (status === 401 || status === 403) {
      return {
        code: JudgeErrorCode.AUTHENTICATION_FAILED,
        message: `${baseURL} rejected the API key (${status}): ${detail}`,
        retryable: false,
        status,
      };
    }
    if (status === 429) {
      return {
        code: JudgeErrorCode.RATE_LIMITED,
        message: `${baseURL} kept rate-limiting the requests (429): ${detail}`,
        retryable: true,
        status,
        retryAfterMs,
      };
    }
    if (status === 408) {
      return {
        code: JudgeErrorCode.TIMEOUT,
        message: `${baseURL} timed out the request (408): ${detail}`,
        retryable: true,
        status,
        retryAfterMs,
      };
    }
    if (status === 404) {
      return {
        code: JudgeErrorCode.ENDPOINT_NOT_FOUND,
        message: `${baseURL} answered 404 (${detail}): check the model name and the URL (most servers' paths start with /v1)`,
        retryable: false,
        status,
      };
    }
    if (status === 409 || status >= 500) {
      return {
        code: JudgeErrorCode.ENDPOINT_UNAVAILABLE,
        message: `${baseURL} failed (${status}): ${detail}`,
        retryable: true,
        status,
        retryAfterMs,
      };
    }
    return {
      code: JudgeErrorCode.REQUEST_REJECTED,
      message: `${baseURL} rejected the request (${status}): ${detail}`,
      retryable: false,
      status,
    };
  }
  if (error instanceof SyntaxError) {
    // a body that is not JSON comes from a broken server or proxy: treated as a server fault
    return {
      code: JudgeErrorCode.MALFORMED_REPLY,
      message: `${baseURL} sent a body that is not valid JSON (${error.message})`,
      retryable: true,
    };
  }
  return {
    code: JudgeErrorCode.ENDPOINT_UNAVAILABLE,
    message: `the request to ${baseURL} failed: ${redact(error instanceof Error ? error.message : String(error))}`,
    retryable: false,
  };
}

const longestDetail = 200;

/**
 * What the server said about a failed request, on one short line: the message of a JSON error
 * body, else the body's text (an HTML page's title, or its text without tags), cut to 200
 * characters.
 */
function serverMessage(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  const raw =
    body && typeof body.message === 'string' && body.message !== ''
      ? body.message
      : error.message.replace(/^\d{3}\s*/, '');
  return oneLine(raw) || 'no detail';
}

function oneLine(text: string): string {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1];
  const plain = (title ?? text)
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length > longestDetail ? `${plain.slice(0, longestDetail - 1)}…` : plain;
}

interface ConnectionReason {
  text: string;
  /** No connection was made: nothing listening, or no such host. */
  noConnection: boolean;
  /** The port is one fetch never connects to (6000, 1, …). */
  blockedPort: boolean;
}

function connectionReason(error: APIConnectionError): ConnectionReason {
  let cause: unknown = error.cause;
  let deepest: string | undefined;
  const reason = (text: string, noConnection = false, blockedPort = false) => ({
    text,
    noConnection,
    blockedPort,
  });
  for (let depth = 0; depth < 5 && cause; depth += 1) {
    // connecting to a name with several addresses fails with one error per address
    const inner = (cause as { errors?: unknown[] }).errors?.[0];
    const code = (cause as { code?: unknown }).code ?? (inner as { code?: unknown })?.code;
    const message = (cause as { message?: unknown }).message;
    if (code === 'ECONNREFUSED') return reason('connection refused (ECONNREFUSED)', true);
    if (code === 'ENOTFOUND') return reason('host not found (ENOTFOUND)', true);
    if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') {
      return reason(`the connection was closed before a response (${code})`);
    }
    if (message === 'bad port') {
      return reason('fetch never connects to this port (bad port); use another one', false, true);
    }
    if (typeof code === 'string') return reason(code);
    if (typeof message === 'string' && message !== '' && message !== 'fetch failed') {
      deepest = message;
    }
    cause = (cause as { cause?: unknown }).cause;
  }
  return reason(deepest ?? 'the connection failed');
}
