import {
  generateObject,
  generateText,
  type LanguageModel,
  streamObject,
  streamText,
  tool,
  wrapLanguageModel,
} from 'ai-v5';
import { MockLanguageModelV2 } from 'ai-v5/test';
import { z } from 'zod';
import { qualmMiddleware } from '../src/index.js';
import { describeMiddleware, type KitModel, type SdkKit } from './middleware-suite.js';
import { recordedCalls, scriptedCalls, V2_SHAPES } from './scripted-model.js';

type Mock = MockLanguageModelV2;
type MockOptions = NonNullable<ConstructorParameters<typeof MockLanguageModelV2>[0]>;
const mocks = new WeakMap<KitModel, Mock>();
const lookupTool = {
  lookup: tool({ description: 'Looks a word up.', inputSchema: z.object({ q: z.string() }) }),
};

const kit: SdkKit = {
  label: 'AI SDK 5',
  mockModel(script) {
    const calls = scriptedCalls(script, V2_SHAPES);
    const mock = new MockLanguageModelV2({
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
