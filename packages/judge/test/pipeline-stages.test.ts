import { type ChatServer, type ChatServerReply, startChatServer } from '@qualm/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  defineTemplate,
  JudgeErrorCode,
  rubricVerdictSchema,
  stageOrder,
  VerificationConfig,
  verify,
} from '../src/index.js';
import { type CallKind, callKind, capitalItem, capitalTemplate, testClient } from './helpers.js';

let server: ChatServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Script = Partial<Record<CallKind, ChatServerReply>>;

const fine: Required<Script> = {
  abstention: { json: { reasoning: 'It names Paris.', abstained: false } },
  sufficiency: { json: { reasoning: 'Both fields given.', missingFields: [], sufficient: true } },
  parsing: { json: { city: 'Paris', population: 2.1 } },
  rubric: { json: { reasoning: 'Clear.', scores: { concise: true, clarity: 4 } } },
  answering: { content: 'Paris, about 2.1 million people.' },
};

async function judgeServer(script: Script = {}) {
  server = await startChatServer({
    handler: (body) => {
      const kind = callKind(body);
      return script[kind] ?? fine[kind];
    },
  });
  return { server, judge: testClient(server.baseURL) };
}

const kinds = () => (server?.chatRequests() ?? []).map((record) => callKind(record.body));

describe('pipeline stages and call counts', () => {
  it('makes one parsing call when neither check is on (both are off by default)', async () => {
    const { judge } = await judgeServer();
    const result = await verify(capitalItem, { judge, template: capitalTemplate });
    expect(kinds()).toEqual(['parsing']);
    expect(result.llmCalls).toBe(1);
    expect(result.verifyResult).toBe(true);
    expect(result.parsed).toEqual({ city: 'Paris', population: 2.1 });
    expect(result).toMatchObject({
      abstentionCheckPerformed: false,
      abstentionDetected: null,
      abstentionOverrideApplied: false,
      sufficiencyCheckPerformed: false,
      sufficiencyDetected: null,
      sufficiencyOverrideApplied: false,
      failedStage: null,
      error: null,
    });
  });

  it('makes two calls with the abstention check on: abstention, then parsing', async () => {
    const { judge } = await judgeServer();
    const result = await verify(capitalItem, {
      judge,
      template: capitalTemplate,
      config: VerificationConfig.fromOverrides({ abstention: true }),
    });
    expect(kinds()).toEqual(['abstention', 'parsing']);
    expect(result.llmCalls).toBe(2);
    expect(result).toMatchObject({
      abstentionCheckPerformed: true,
      abstentionDetected: false,
      abstentionReasoning: 'It names Paris.',
      abstentionOverrideApplied: false,
      verifyResult: true,
    });
  });

  it('makes two calls with the sufficiency check on: sufficiency, then parsing', async () => {
    const { judge } = await judgeServer();
    const result = await verify(capitalItem, {
      judge,
      template: capitalTemplate,
      config: VerificationConfig.fromOverrides({ sufficiency: true }),
    });
    expect(kinds()).toEqual(['sufficiency', 'parsing']);
    expect(result.llmCalls).toBe(2);
    expect(result).toMatchObject({
      sufficiencyCheckPerformed: true,
      sufficiencyDetected: true,
      sufficiencyReasoning: 'Both fields given.',
      sufficiencyOverrideApplied: false,
    });
  });

  it('makes three calls with both checks on, abstention first', async () => {
    const { judge } = await judgeServer();
    const result = await verify(capitalItem, {
      judge,
      template: capitalTemplate,
      config: { abstentionEnabled: true, sufficiencyEnabled: true },
    });
    expect(kinds()).toEqual(['abstention', 'sufficiency', 'parsing']);
    expect(result.llmCalls).toBe(3);
    expect(result.stages.map((stage) => stage.stage)).toEqual(stageOrder);
    expect(result.stages.filter((stage) => stage.llmCalls > 0).map((stage) => stage.stage)).toEqual(
      ['abstention_check', 'sufficiency_check', 'parse_template'],
    );
  });

  it('stops at a detected abstention: no sufficiency call, no parsing call, verifyResult false', async () => {
    const { judge } = await judgeServer({
      abstention: { json: { reasoning: 'It only refers to other sources.', abstained: true } },
    });
    const result = await verify(
      { ...capitalItem, response: 'I cannot help with that; please check an atlas.' },
      {
        judge,
        template: capitalTemplate,
        config: { abstentionEnabled: true, sufficiencyEnabled: true },
      },
    );
    expect(kinds()).toEqual(['abstention']);
    expect(result.llmCalls).toBe(1);
    expect(result).toMatchObject({
      verifyResult: false,
      failedStage: 'abstention_check',
      abstentionCheckPerformed: true,
      abstentionDetected: true,
      abstentionOverrideApplied: true,
      abstentionReasoning: 'It only refers to other sources.',
      sufficiencyCheckPerformed: false,
      sufficiencyDetected: null,
      sufficiencyOverrideApplied: false,
      parsed: null,
    });
    const status = Object.fromEntries(result.stages.map((stage) => [stage.stage, stage.status]));
    expect(status).toMatchObject({
      abstention_check: 'failed',
      sufficiency_check: 'skipped',
      parse_template: 'skipped',
      verify_template: 'skipped',
      finalize: 'passed',
    });
    expect(result.stages.find((stage) => stage.stage === 'parse_template')?.reason).toBe(
      'the item ended at abstention_check',
    );
  });

  it('stops at an insufficient response: no parsing call, verifyResult false', async () => {
    const { judge } = await judgeServer({
      sufficiency: {
        json: { reasoning: 'No population.', missingFields: ['population'], sufficient: false },
      },
    });
    const result = await verify(
      { ...capitalItem, response: 'Paris.' },
      {
        judge,
        template: capitalTemplate,
        config: { abstentionEnabled: true, sufficiencyEnabled: true },
      },
    );
    expect(kinds()).toEqual(['abstention', 'sufficiency']);
    expect(result).toMatchObject({
      verifyResult: false,
      failedStage: 'sufficiency_check',
      abstentionOverrideApplied: false,
      sufficiencyCheckPerformed: true,
      sufficiencyDetected: false,
      sufficiencyOverrideApplied: true,
      sufficiencyMissingFields: ['population'],
      parsed: null,
    });
  });

  it('fails safe when the abstention judge keeps failing: not abstained, error kept, pipeline goes on', async () => {
    const { judge } = await judgeServer({ abstention: { fault: 'server_error', status: 502 } });
    const result = await verify(capitalItem, {
      judge,
      template: capitalTemplate,
      config: { abstentionEnabled: true, sufficiencyEnabled: true },
    });
    expect(kinds()).toEqual(['abstention', 'abstention', 'abstention', 'sufficiency', 'parsing']);
    expect(result).toMatchObject({
      abstentionCheckPerformed: false,
      abstentionDetected: null,
      abstentionReasoning: null,
      abstentionOverrideApplied: false,
      abstentionError: { stage: 'abstention_check', code: JudgeErrorCode.ENDPOINT_UNAVAILABLE },
      sufficiencyCheckPerformed: true,
      verifyResult: true,
      failedStage: null,
      error: null,
    });
    const stage = result.stages.find((record) => record.stage === 'abstention_check');
    expect(stage).toMatchObject({ status: 'error', llmCalls: 0 });
    expect(stage?.usage.requests).toBe(3);
  });

  it('fails safe when the sufficiency judge keeps answering off-schema: sufficient, parsing goes on', async () => {
    const { judge } = await judgeServer({ sufficiency: { json: { verdict: 'fine' } } });
    const result = await verify(capitalItem, {
      judge,
      template: capitalTemplate,
      config: { sufficiencyEnabled: true },
    });
    expect(kinds()).toEqual(['sufficiency', 'sufficiency', 'sufficiency', 'parsing']);
    expect(result).toMatchObject({
      sufficiencyCheckPerformed: false,
      sufficiencyDetected: null,
      sufficiencyOverrideApplied: false,
      sufficiencyError: { code: JudgeErrorCode.INVALID_RESPONSE },
      verifyResult: true,
    });
    // the three unusable replies were still paid for
    expect(result.stages.find((stage) => stage.stage === 'sufficiency_check')?.llmCalls).toBe(3);
    expect(result.llmCalls).toBe(4);
  });

  it('records the error and fails the item when parsing cannot be done', async () => {
    const { judge } = await judgeServer({ parsing: { fault: 'status', status: 400 } });
    const result = await verify(capitalItem, {
      judge: testClient(server!.baseURL, { structuredOutput: 'json_schema' }),
      template: capitalTemplate,
    });
    expect(judge).toBeDefined();
    expect(result).toMatchObject({
      verifyResult: false,
      failedStage: 'parse_template',
      error: { stage: 'parse_template', code: JudgeErrorCode.REQUEST_REJECTED },
      parsed: null,
    });
  });

  it('compares the parsed answer to the expected values', async () => {
    const { judge } = await judgeServer({ parsing: { json: { city: 'Lyon', population: 0.5 } } });
    const result = await verify(capitalItem, { judge, template: capitalTemplate });
    expect(result.verifyResult).toBe(false);
    expect(result.failedStage).toBe('verify_template');
    expect(result.verifyMismatches).toEqual([
      'city: expected "Paris", got "Lyon"',
      'population: expected 2.1, got 0.5',
    ]);
  });

  it('runs the verify function instead of the expected values when the template has one', async () => {
    const { judge } = await judgeServer();
    const seen: unknown[] = [];
    const template = defineTemplate({
      schema: capitalTemplate.schema,
      verify: (parsed, context) => {
        seen.push(parsed, context.expected);
        return parsed.population > 2;
      },
    });
    const result = await verify(capitalItem, { judge, template });
    expect(result.verifyResult).toBe(true);
    expect(seen).toEqual([{ city: 'Paris', population: 2.1 }, capitalItem.expected]);
  });

  it('leaves verifyResult null when there is nothing to verify against', async () => {
    const { judge } = await judgeServer();
    const result = await verify(
      { question: capitalItem.question, response: capitalItem.response },
      { judge, template: capitalTemplate },
    );
    expect(result.verifyResult).toBeNull();
    expect(result.parsed).toEqual({ city: 'Paris', population: 2.1 });
  });

  it('rejects a template that is not an object schema at stage 1, before any call', async () => {
    const { judge } = await judgeServer();
    const result = await verify(capitalItem, {
      judge,
      template: { schema: z.string() as never },
      config: { abstentionEnabled: true },
    });
    expect(kinds()).toEqual([]);
    expect(result).toMatchObject({
      verifyResult: false,
      failedStage: 'validate_template',
      error: {
        stage: 'validate_template',
        code: JudgeErrorCode.INVALID_TEMPLATE,
        message:
          'a template schema must be a zod object schema (z.object), got a zod string schema',
      },
    });
  });

  it('rejects expected values that do not fit the template at stage 1', async () => {
    const { judge } = await judgeServer();
    const result = await verify(
      { ...capitalItem, expected: { population: 'two million' } },
      { judge, template: capitalTemplate },
    );
    expect(kinds()).toEqual([]);
    expect(result.failedStage).toBe('validate_template');
    expect(result.error?.message).toContain('population');
  });

  it('auto-fails a trace that hit its recursion limit, without any call', async () => {
    const { judge } = await judgeServer();
    const result = await verify(
      {
        question: capitalItem.question,
        trace: {
          messages: [
            { role: 'user', content: capitalItem.question },
            { role: 'assistant', content: 'Paris, about 2.1 million.' },
          ],
          recursionLimitReached: true,
        },
      },
      { judge, template: capitalTemplate, config: { abstentionEnabled: true } },
    );
    expect(kinds()).toEqual([]);
    expect(result).toMatchObject({ verifyResult: false, failedStage: 'trace_check' });
    expect(result.stages.find((stage) => stage.stage === 'trace_check')?.reason).toBe(
      'the agent hit its recursion limit',
    );
  });

  it('auto-fails a trace that does not end with an assistant message', async () => {
    const { judge } = await judgeServer();
    const result = await verify(
      {
        question: capitalItem.question,
        trace: {
          messages: [
            { role: 'user', content: capitalItem.question },
            { role: 'tool', content: '{"error": "timeout"}' },
          ],
        },
      },
      { judge, template: capitalTemplate },
    );
    expect(kinds()).toEqual([]);
    expect(result.failedStage).toBe('trace_check');
  });

  it('judges the last assistant message of a trace that passes', async () => {
    const { judge } = await judgeServer();
    const result = await verify(
      {
        ...capitalItem,
        response: undefined,
        trace: {
          messages: [
            { role: 'user', content: capitalItem.question },
            { role: 'assistant', content: 'Paris, about 2.1 million.' },
          ],
        },
      },
      { judge, template: capitalTemplate },
    );
    expect(result.response).toBe('Paris, about 2.1 million.');
    expect(result.verifyResult).toBe(true);
  });

  it('generates the answer through the answering model when none is given, before the checks', async () => {
    const { judge } = await judgeServer();
    const answering = testClient(server!.baseURL, { model: 'answer-model', temperature: 0.7 });
    const result = await verify(
      { question: capitalItem.question, expected: capitalItem.expected },
      { judge, answering, template: capitalTemplate, config: { abstentionEnabled: true } },
    );
    expect(kinds()).toEqual(['answering', 'abstention', 'parsing']);
    const [answer, check] = server!.chatRequests();
    expect(answer?.body).toMatchObject({ model: 'answer-model', temperature: 0.7 });
    expect(check?.body).toMatchObject({ model: 'judge-model', temperature: 0 });
    expect(result.response).toBe('Paris, about 2.1 million people.');
    expect(result.verifyResult).toBe(true);
  });

  it('fails at generate_answer when there is no response and no answering model', async () => {
    const { judge } = await judgeServer();
    const result = await verify({ question: 'Why?' }, { judge, template: capitalTemplate });
    expect(kinds()).toEqual([]);
    expect(result).toMatchObject({ failedStage: 'generate_answer', verifyResult: false });
  });

  it('sends every judge call at temperature 0', async () => {
    const { judge } = await judgeServer();
    await verify(capitalItem, {
      judge,
      template: capitalTemplate,
      config: { abstentionEnabled: true, sufficiencyEnabled: true },
    });
    expect(server!.chatRequests().map((record) => record.body?.temperature)).toEqual([0, 0, 0]);
  });

  it('accounts LLM calls and tokens per stage', async () => {
    await judgeServer({
      abstention: {
        json: { reasoning: 'Answers.', abstained: false },
        usage: { prompt_tokens: 300, completion_tokens: 20 },
      },
      parsing: {
        json: { city: 'Paris', population: 2.1 },
        usage: { prompt_tokens: 200, completion_tokens: 10 },
      },
    });
    const result = await verify(capitalItem, {
      judge: testClient(server!.baseURL),
      template: capitalTemplate,
      config: { abstentionEnabled: true },
    });
    const byStage = Object.fromEntries(result.stages.map((stage) => [stage.stage, stage.usage]));
    expect(byStage.abstention_check).toMatchObject({
      calls: 1,
      promptTokens: 300,
      totalTokens: 320,
    });
    expect(byStage.parse_template).toMatchObject({ calls: 1, promptTokens: 200, totalTokens: 210 });
    expect(result.usage).toMatchObject({ calls: 2, promptTokens: 500, completionTokens: 30 });
  });
});

describe('evaluation modes', () => {
  const rubric = {
    traits: [
      { name: 'concise', description: 'The answer is short.', kind: 'boolean' as const },
      { name: 'clarity', description: 'How clear the answer is.', kind: 'score' as const },
    ],
  };

  it('skips sufficiency, parsing and verification in rubric_only mode and grades the rubric', async () => {
    const { judge } = await judgeServer();
    const result = await verify(capitalItem, {
      judge,
      rubric,
      config: { evaluationMode: 'rubric_only', abstentionEnabled: true, sufficiencyEnabled: true },
    });
    expect(kinds()).toEqual(['abstention', 'rubric']);
    expect(result).toMatchObject({
      verifyResult: null,
      sufficiencyCheckPerformed: false,
      parsed: null,
      rubricScores: { concise: true, clarity: 4 },
    });
    expect(result.stages.find((stage) => stage.stage === 'sufficiency_check')?.reason).toBe(
      'rubric_only mode has no template',
    );
  });

  it('parses the template and grades the rubric in template_and_rubric mode', async () => {
    const { judge } = await judgeServer();
    const result = await verify(capitalItem, {
      judge,
      rubric,
      template: capitalTemplate,
      config: { evaluationMode: 'template_and_rubric' },
    });
    expect(kinds()).toEqual(['parsing', 'rubric']);
    expect(result.verifyResult).toBe(true);
    expect(result.rubricScores).toEqual({ concise: true, clarity: 4 });
  });

  it('makes no rubric call after a detected abstention', async () => {
    const { judge } = await judgeServer({
      abstention: { json: { reasoning: 'Refuses.', abstained: true } },
    });
    const result = await verify(capitalItem, {
      judge,
      rubric,
      config: { evaluationMode: 'rubric_only', abstentionEnabled: true },
    });
    expect(kinds()).toEqual(['abstention']);
    expect(result).toMatchObject({ verifyResult: false, abstentionOverrideApplied: true });
  });

  it('rejects a score outside 1 to 5 from the rubric judge and re-asks', async () => {
    let rubricCalls = 0;
    server = await startChatServer({
      handler: () => {
        rubricCalls += 1;
        return rubricCalls === 1
          ? { json: { reasoning: 'x', scores: { concise: true, clarity: 9 } } }
          : { json: { reasoning: 'x', scores: { concise: true, clarity: 5 } } };
      },
    });
    const result = await verify(capitalItem, {
      judge: testClient(server.baseURL),
      rubric,
      config: { evaluationMode: 'rubric_only' },
    });
    expect(rubricCalls).toBe(2);
    expect(result.rubricScores).toEqual({ concise: true, clarity: 5 });
  });

  it('builds the reply schema of a rubric once, for every item graded with it', () => {
    const schema = rubricVerdictSchema(rubric);
    expect(rubricVerdictSchema(rubric)).toBe(schema);
    expect(
      schema.safeParse({ reasoning: 'r', scores: { concise: true, clarity: 6 } }).success,
    ).toBe(false);
    const other = { traits: [rubric.traits[0]!] };
    expect(rubricVerdictSchema(other)).not.toBe(schema);
  });

  it('needs a rubric in the rubric modes', async () => {
    const { judge } = await judgeServer();
    const result = await verify(capitalItem, { judge, config: { evaluationMode: 'rubric_only' } });
    expect(result.failedStage).toBe('validate_template');
    expect(result.error?.message).toBe(
      'evaluation mode rubric_only needs a rubric with at least one trait',
    );
  });
});
