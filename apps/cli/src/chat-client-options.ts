import { type ChatClientOptions, type MaxTokensParameter, maxTokensParameters } from '@qualm/judge';
import { type Command, Option } from 'commander';
import { CliError, CliErrorCode } from './errors.js';
import { parseNumberOption } from './io.js';

/** The flags that configure calls to an OpenAI-compatible endpoint, as commander parses them. */
export interface ChatClientFlags {
  baseUrl?: string;
  concurrency: string;
  timeout: string;
  maxAttempts: string;
  retryDelay: string;
  maxTokensParameter: MaxTokensParameter;
}

/** What the flags describe: calls at the same time, and the client options but model and key. */
export interface ChatClientSettings {
  concurrency: number;
  clientOptions: Pick<
    ChatClientOptions,
    'baseURL' | 'timeoutMs' | 'maxAttempts' | 'backoff' | 'maxTokensParameter'
  >;
}

/** Adds `--base-url` to a command. */
export function addBaseUrlOption(command: Command): Command {
  const option = command
    .createOption('--base-url <url>', 'OpenAI-compatible endpoint, http:// or https://')
    .default(undefined, 'OPENAI_BASE_URL, else OpenAI');
  return command.addOption(option);
}

/**
 * Adds `--concurrency` (described for this command), `--timeout`, `--max-attempts`, `--retry-delay`
 * and `--max-tokens-parameter`.
 */
export function addRequestOptions(command: Command, concurrencyDescription: string): Command {
  return command
    .option('--concurrency <n>', concurrencyDescription, '4')
    .option('--timeout <ms>', 'time allowed for one request', '60000')
    .option('--max-attempts <n>', 'requests per call before a transient failure is final', '3')
    .option('--retry-delay <ms>', 'delay before the first retry, doubled for each retry', '500')
    .addOption(
      new Option(
        '--max-tokens-parameter <field>',
        'request field of the reply length: max_tokens (what the LongMemEval harness sends; every OpenAI-compatible server takes it) or max_completion_tokens (OpenAI reasoning models)',
      )
        .choices([...maxTokensParameters])
        .default('max_tokens'),
    );
}

/**
 * Adds a hidden `--model` that says which flag took its place, so an old command line fails
 * with one clear line instead of "unknown option".
 */
export function addRenamedModelOption(command: Command, newFlag: string): Command {
  return command
    .addOption(command.createOption('--model <model>').hideHelp())
    .hook('preAction', (_parent, action) => {
      if (action.getOptionValue('model') !== undefined) {
        throw new CliError(
          CliErrorCode.INVALID_ARGUMENT,
          `--model was renamed ${newFlag}: it names what the model does here`,
        );
      }
    });
}

/** Reads the endpoint and request flags; a bad value throws one line that names the flag. */
export function readChatClientFlags(flags: ChatClientFlags): ChatClientSettings {
  const concurrency = parseNumberOption('--concurrency', flags.concurrency, {
    min: 1,
    max: 256,
    integer: true,
  });
  const timeoutMs = parseNumberOption('--timeout', flags.timeout, { min: 1 });
  const maxAttempts = parseNumberOption('--max-attempts', flags.maxAttempts, {
    min: 1,
    max: 20,
    integer: true,
  });
  const retryDelayMs = parseNumberOption('--retry-delay', flags.retryDelay, { min: 0 });
  return {
    concurrency,
    clientOptions: {
      ...(flags.baseUrl !== undefined ? { baseURL: flags.baseUrl } : {}),
      timeoutMs,
      maxAttempts,
      backoff: { baseDelayMs: retryDelayMs },
      maxTokensParameter: flags.maxTokensParameter,
    },
  };
}

/**
 * The API key from `OPENAI_API_KEY`, or one clear error line when it is not set; `localServer`
 * ends the hint about servers that do not check the key.
 */
export function requireApiKey(localServer: 'needs none' | 'ignores it' = 'needs none'): string {
  const apiKey = process.env.OPENAI_API_KEY;
  if (apiKey === undefined || apiKey.trim() === '') {
    throw new CliError(
      CliErrorCode.MISSING_CREDENTIALS,
      `OPENAI_API_KEY is not set: export the API key of the endpoint (any non-empty value for a local server that ${localServer})`,
    );
  }
  return apiKey;
}
