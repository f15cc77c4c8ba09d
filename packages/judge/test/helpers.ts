import type { ChatServerRequestBody } from '@qualm/testkit';
import { z } from 'zod';
import {
  abstentionSystemPrompt,
  type ChatClientOptions,
  createChatClient,
  defineTemplate,
  parsingSystemPrompt,
  rubricSystemPrompt,
  sufficiencySystemPrompt,
} from '../src/index.js';

/** Which LLM call of the pipeline a request is, read from its system prompt. */
export type CallKind = 'abstention' | 'sufficiency' | 'parsing' | 'rubric' | 'answering';

export function callKind(body: ChatServerRequestBody | undefined): CallKind {
  const system = body?.messages.find((message) => message.role === 'system')?.content;
  if (typeof system === 'string') {
    if (system.startsWith(abstentionSystemPrompt)) return 'abstention';
    if (system.startsWith(sufficiencySystemPrompt)) return 'sufficiency';
    if (system.startsWith(parsingSystemPrompt)) return 'parsing';
    if (system.startsWith(rubricSystemPrompt)) return 'rubric';
  }
  return 'answering';
}

/** The text of the last user message of a request. */
export function lastUserText(body: ChatServerRequestBody | undefined): string {
  const users = (body?.messages ?? []).filter((message) => message.role === 'user');
  const content = users[users.length - 1]?.content;
  return typeof content === 'string' ? content : '';
}

/** A client for the loopback server with fast retries. */
export function testClient(baseURL: string, options: Partial<ChatClientOptions> = {}) {
  return createChatClient({
    baseURL,
    apiKey: 'sk-test-key-123456',
    model: 'judge-model',
    timeoutMs: 2_000,
    backoff: { baseDelayMs: 1, maxDelayMs: 5, jitter: 0 },
    ...options,
  });
}

export const capitalTemplate = defineTemplate({
  schema: z.object({
    city: z.string().describe('the capital city named in the response'),
    population: z.number().describe('the population the response gives, in millions'),
  }),
  name: 'capital',
});

export const capitalItem = {
  id: 'q1',
  question: 'What is the capital of France and roughly how many people live there?',
  response: 'The capital of France is Paris, with about 2.1 million inhabitants.',
  expected: { city: 'Paris', population: 2.1 },
};
