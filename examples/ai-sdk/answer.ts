// Asks a model one question through any OpenAI-compatible endpoint, streams the answer, and says
// whether qualm trusts it. Run: OPENAI_API_KEY=… pnpm start "How do I rotate a log file?"
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { FlaggedAnswerError, type QualmMetadata, qualmMiddleware } from '@qualm/ai-sdk';
import { streamText, wrapLanguageModel } from 'ai';

const usage = `usage: answer.ts [--policy annotate|throw|retry|fallback] [--evidence FILE]... QUESTION

  --policy     what to do with a flagged answer (default annotate: print it and say why)
  --evidence   a file the answer must rest on; qualm then also checks for abstention

  OPENAI_BASE_URL (default https://api.openai.com/v1), OPENAI_API_KEY, MODEL (default gpt-4o-mini)`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    policy: { type: 'string', default: 'annotate' },
    evidence: { type: 'string', multiple: true, default: [] },
    help: { type: 'boolean', default: false },
  },
});
const question = positionals.join(' ').trim();
if (values.help || question === '') {
  console.error(usage);
  process.exit(values.help ? 0 : 2);
}
const policies = ['annotate', 'throw', 'retry', 'fallback'] as const;
const policy = values.policy as (typeof policies)[number];
if (!policies.includes(policy))
  fail(`--policy must be one of ${policies.join(', ')}, got "${values.policy}"`);
const evidence = values.evidence.map((path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    return fail(`cannot read --evidence ${path}: ${(error as Error).message}`);
  }
});

const provider = createOpenAICompatible({
  name: 'chat',
  baseURL: process.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1',
  apiKey: process.env.OPENAI_API_KEY,
});
const model = wrapLanguageModel({
  model: provider.chatModel(process.env.MODEL ?? 'gpt-4o-mini'),
  middleware: qualmMiddleware({
    policy,
    ...(policy === 'fallback'
      ? { fallback: 'A person from the team will answer this question shortly.' }
      : {}),
  }),
});

// the AI SDK reports a stream's error here (by default it prints the whole error object)
let failure: unknown;
try {
  const result = streamText({
    model,
    prompt: question,
    onError: ({ error }) => {
      failure ??= error;
    },
    ...(evidence.length > 0
      ? {
          system: `Answer from these notes:\n\n${evidence.join('\n\n')}`,
          providerOptions: { qualm: { evidence } },
        }
      : {}),
  });
  for await (const text of result.textStream) process.stdout.write(text);
  process.stdout.write('\n');
  if (failure !== undefined) throw failure;
  const qualm = (await result.providerMetadata)?.qualm as QualmMetadata | undefined;
  if (qualm === undefined) {
    console.error('qualm: no answer to assess (the model only called tools)');
  } else {
    const verdict = qualm.flagged ? 'flagged' : 'trusted';
    const action = qualm.action === 'none' ? '' : ` after ${qualm.action}`;
    console.error(`qualm: ${verdict}${action}, score ${qualm.score.toFixed(2)}: ${qualm.reason}`);
    if (qualm.abstention) console.error(`qualm: evidence: ${qualm.abstention.details}`);
  }
} catch (error) {
  if (FlaggedAnswerError.isInstance(error)) {
    console.error(`\nqualm: ${error.message}`);
    process.exit(1);
  }
  // the endpoint or the model failed: one line, as the AI SDK words it
  console.error(`\nanswer.ts: ${(error as Error).message}`);
  process.exit(1);
}

/** Prints a usage problem in one line and exits 2. */
function fail(message: string): never {
  console.error(`answer.ts: ${message}`);
  process.exit(2);
}
