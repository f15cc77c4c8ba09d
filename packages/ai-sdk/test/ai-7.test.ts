import { CURRENT_NODE_MAJOR } from '@qualm/node-22';
import type { LanguageModel } from 'ai-v7';
import type { MockLanguageModelV4 } from 'ai-v7/test';
import { describe, it } from 'vitest';
import { z } from 'zod';
import { qualmMiddleware } from '../src/index.js';
import { describeMiddleware, type KitModel, type SdkKit } from './middleware-suite.js';
import { recordedCalls, scriptedCalls, V3_SHAPES } from './scripted-model.js';

// AI SDK 7 needs Node 22; under an older Node, ai-7-on-node-22.test.ts runs this file on Node 22
if (CURRENT_NODE_MAJOR >= 22) {
  const { generateObject, generateText, streamObject, streamText, tool, wrapLanguageModel } =
    await import('ai-v7');
  const { MockLanguageModelV4: Mock } = await import('ai-v7/test');
  type MockOptions = NonNullable<ConstructorParameters<typeof MockLanguageModelV4>[0]>;
  const mocks = new WeakMap<KitModel, MockLanguageModelV4>();
  const lookupTool = {
    lookup: tool({ description: 'Looks a word up.', inputSchema: z.object({ q: z.string() }) }),
  };

  const kit: SdkKit = {
    label: 'AI SDK 7',
    mockModel(script) {
      const calls = scriptedCalls(script, V3_SHAPES);
      const mock = new Mock({
        doGenerate: calls.doGenerate as MockOptions['doGenerate'],
        doStream: calls.doStream as MockOptions['doStream'],
      });
      const model: KitModel = {
        get generateCalls() {
          return recordedCalls(mock.doGenerateCalls);
        },
        get streamCalls() {
          return recordedCalls(mock.doStreamCalls);
        },
      };
      mocks.set(model, mock);
      return model;
    },
    wrap: (model, options) =>
      wrapLanguageModel({ model: mocks.get(model)!, middleware: qualmMiddleware(options) }),
    asModel: (model) => mocks.get(model)!,
    generateText: ({ model, withLookupTool, ...options }) =>
      generateText({
        ...options,
        model: model as LanguageModel,
        ...(withLookupTool ? { tools: lookupTool } : {}),
      }),
    streamText: ({ model, withLookupTool, ...options }) =>
      streamText({
        ...options,
        model: model as LanguageModel,
        ...(withLookupTool ? { tools: lookupTool } : {}),
      }),
    generateObject: ({ model, withLookupTool: _, ...options }) =>
      generateObject({ ...options, model: model as LanguageModel }),
    streamObject: ({ model, withLookupTool: _, ...options }) =>
      streamObject({ ...options, model: model as LanguageModel }),
  };

  describeMiddleware(kit);
} else {
  describe('AI SDK 7', () => {
    it.skip(`needs Node 22 (this is Node ${process.versions.node}): ai-7-on-node-22.test.ts runs it there`, () => {});
  });
}
