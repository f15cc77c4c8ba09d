import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createChatClient, defineTemplate, verify } from '../src/index.js';

const apiKey = process.env.OPENAI_API_KEY;
const skipReason =
  'live smoke test skipped: OPENAI_API_KEY is not set (set it, and optionally OPENAI_BASE_URL and QUALM_LIVE_MODEL, to run it)';

describe('live endpoint smoke test', () => {
  it('runs both checks and parses a real answer on the configured endpoint', async (context) => {
    if (!apiKey) {
      console.warn(skipReason);
      context.skip(skipReason);
      return;
    }
    const judge = createChatClient({
      apiKey,
      baseURL: process.env.OPENAI_BASE_URL,
      model: process.env.QUALM_LIVE_MODEL ?? 'gpt-4o-mini',
      timeoutMs: 60_000,
    });
    const template = defineTemplate({
      schema: z.object({ city: z.string().describe('the capital city the response names') }),
    });
    const answered = await verify(
      {
        question: 'What is the capital of France?',
        response: 'It is Paris, as far as I know.',
        expected: { city: 'Paris' },
      },
      { judge, template, config: { abstentionEnabled: true, sufficiencyEnabled: true } },
    );
    expect(answered.error).toBeNull();
    expect(answered.abstentionDetected).toBe(false);
    expect(answered.sufficiencyDetected).toBe(true);
    expect(answered.verifyResult).toBe(true);

    const refused = await verify(
      {
        question: 'What is the capital of France?',
        response: 'I am not able to help with geography questions. Please consult an atlas.',
      },
      { judge, template, config: { abstentionEnabled: true } },
    );
    expect(refused.abstentionDetected).toBe(true);
    expect(refused.llmCalls).toBe(1);
  }, 120_000);
});
