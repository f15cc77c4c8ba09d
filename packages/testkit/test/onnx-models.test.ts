import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import onnxProto from 'onnx-proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TINY_MODEL_IR_VERSION,
  TINY_MODEL_OPSET,
  TINY_NLI_LABELS,
  TINY_SPECIAL_TOKENS,
  tinyClassifierGraph,
  tinyFeatureExtractorGraph,
  tinyTokenizerFiles,
  writeTinyClassifier,
  writeTinyFeatureExtractor,
} from '../src/index.js';

const { onnx } = onnxProto;

let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'qualm-onnx-'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

interface PlainValue {
  name: string;
  type: { tensorType: { shape: { dim: { dimParam?: string; dimValue?: number }[] } } };
}
interface PlainModel {
  irVersion: number;
  opsetImport: { version: number }[];
  graph: {
    input: PlainValue[];
    output: PlainValue[];
    initializer: { name: string; dims: number[]; dataType: number; rawData: Uint8Array }[];
    node: { opType: string; input: string[]; output: string[] }[];
  };
}

function decode(bytes: Uint8Array): PlainModel {
  const message = onnx.ModelProto.decode(bytes);
  return onnx.ModelProto.toObject(message, {
    longs: Number,
    arrays: true,
    defaults: true,
  }) as unknown as PlainModel;
}

function dims(value: PlainValue): (string | number | undefined)[] {
  return value.type.tensorType.shape.dim.map((dim) => dim.dimParam || dim.dimValue);
}

// every node reads only graph inputs, initializers or outputs of nodes before it
function expectTopologicallySorted(model: PlainModel) {
  const graph = model.graph;
  const known = new Set([
    ...graph.input.map((value) => value.name),
    ...graph.initializer.map((tensor) => tensor.name),
  ]);
  for (const node of graph.node) {
    for (const input of node.input) expect(known, `${node.opType} reads ${input}`).toContain(input);
    for (const output of node.output) known.add(output);
  }
  for (const output of graph.output) expect(known).toContain(output.name);
}

const ELEMENT_BYTES: Record<number, number> = {
  [onnx.TensorProto.DataType.FLOAT]: 4,
  [onnx.TensorProto.DataType.INT64]: 8,
  [onnx.TensorProto.DataType.INT8]: 1,
};

describe('tiny ONNX models', () => {
  it('writes the folder layout transformers.js loads a classifier from', async () => {
    const info = await writeTinyClassifier(root, { precisions: ['fp32', 'q8'] });
    expect(info.directory).toBe(path.join(root, 'qualm-test', 'tiny-nli'));
    for (const file of [
      'config.json',
      'tokenizer.json',
      'tokenizer_config.json',
      'onnx/model.onnx',
      'onnx/model_quantized.onnx',
    ]) {
      expect((await stat(path.join(info.directory, file))).size).toBeGreaterThan(0);
    }
    const config = JSON.parse(await readFile(path.join(info.directory, 'config.json'), 'utf8'));
    expect(config.model_type).toBe('bert');
    expect(config.architectures).toEqual(['BertForSequenceClassification']);
    expect(config.id2label).toEqual({ 0: 'ENTAILMENT', 1: 'CONTRADICTION', 2: 'NEUTRAL' });
    expect(config.label2id).toEqual({ ENTAILMENT: 0, CONTRADICTION: 1, NEUTRAL: 2 });
    const tokenizerConfig = JSON.parse(
      await readFile(path.join(info.directory, 'tokenizer_config.json'), 'utf8'),
    );
    expect(tokenizerConfig.tokenizer_class).toBe('BertTokenizer');
    expect(tokenizerConfig.model_max_length).toBe(info.maxLength);
  });

  it('declares the NLI labels out of alphabetical order, so a mapping by position is caught', () => {
    expect([...TINY_NLI_LABELS]).not.toEqual([...TINY_NLI_LABELS].sort());
  });

  it('builds a classifier graph with BERT inputs and logits of one column per label', () => {
    const model = decode(
      tinyClassifierGraph({
        vocabularySize: 50,
        hiddenSize: 8,
        seed: 1,
        precision: 'fp32',
        labelCount: 3,
      }),
    );
    expect(Number(model.irVersion)).toBe(TINY_MODEL_IR_VERSION);
    expect(Number(model.opsetImport[0]?.version)).toBe(TINY_MODEL_OPSET);
    const graph = model.graph;
    expect(graph.input.map((value) => value.name)).toEqual([
      'input_ids',
      'attention_mask',
      'token_type_ids',
    ]);
    expect(graph.input.map(dims)).toEqual(Array(3).fill(['batch_size', 'sequence_length']));
    expect(graph.output.map((value) => value.name)).toEqual(['logits']);
    expect(dims(graph.output[0]!)).toEqual(['batch_size', 3]);
    expectTopologicallySorted(model);
  });

  it('leaves token_type_ids out of the inputs when asked, as DeBERTa-v3 exports do', () => {
    const model = decode(
      tinyClassifierGraph({
        vocabularySize: 50,
        hiddenSize: 8,
        seed: 1,
        precision: 'fp32',
        labelCount: 3,
        tokenTypes: false,
      }),
    );
    expect(model.graph.input.map((value) => value.name)).toEqual(['input_ids', 'attention_mask']);
    expectTopologicallySorted(model);
  });

  it('builds a feature extractor graph with a hidden state per token', () => {
    const model = decode(
      tinyFeatureExtractorGraph({ vocabularySize: 50, hiddenSize: 8, seed: 1, precision: 'fp32' }),
    );
    const graph = model.graph;
    expect(graph.output.map((value) => value.name)).toEqual(['last_hidden_state']);
    expect(dims(graph.output[0]!)).toEqual(['batch_size', 'sequence_length', 8]);
    expectTopologicallySorted(model);
  });

  it('stores initializers whose bytes match their shapes', () => {
    for (const precision of ['fp32', 'q8'] as const) {
      const model = decode(
        tinyClassifierGraph({
          vocabularySize: 40,
          hiddenSize: 6,
          seed: 3,
          precision,
          labelCount: 3,
        }),
      );
      for (const tensor of model.graph.initializer) {
        const count = tensor.dims.reduce((product, dim) => product * dim, 1);
        expect(tensor.rawData.length, tensor.name).toBe(count * ELEMENT_BYTES[tensor.dataType]!);
      }
    }
  });

  it('stores q8 weights as int8 with a scale, dequantised inside the graph', () => {
    const model = decode(
      tinyClassifierGraph({
        vocabularySize: 40,
        hiddenSize: 6,
        seed: 3,
        precision: 'q8',
        labelCount: 3,
      }),
    );
    const embeddings = model.graph.initializer.find(
      (tensor) => tensor.name === 'word_embeddings_quantized',
    );
    expect(embeddings?.dataType).toBe(onnx.TensorProto.DataType.INT8);
    expect(model.graph.node.filter((node) => node.opType === 'DequantizeLinear')).toHaveLength(3);
  });

  it('writes the same bytes for the same seed and different weights for another seed', () => {
    const spec = { vocabularySize: 30, hiddenSize: 4, precision: 'fp32' as const, labelCount: 3 };
    const first = tinyClassifierGraph({ ...spec, seed: 5 });
    expect(Buffer.from(tinyClassifierGraph({ ...spec, seed: 5 })).equals(Buffer.from(first))).toBe(
      true,
    );
    expect(Buffer.from(tinyClassifierGraph({ ...spec, seed: 6 })).equals(Buffer.from(first))).toBe(
      false,
    );
  });

  it('builds a WordPiece tokenizer with special tokens first and a pair template of two types', () => {
    const files = tinyTokenizerFiles({ extraWords: ['Grounding'] });
    const model = files.tokenizerJson.model as { vocab: Record<string, number>; type: string };
    expect(model.type).toBe('WordPiece');
    TINY_SPECIAL_TOKENS.forEach((token, id) => {
      expect(model.vocab[token]).toBe(id);
    });
    expect(model.vocab.grounding).toBeDefined();
    const ids = Object.values(model.vocab).sort((left, right) => left - right);
    expect(ids).toEqual(ids.map((_, index) => index));
    const processor = files.tokenizerJson.post_processor as {
      pair: { Sequence?: { id: string; type_id: number } }[];
    };
    const sequences = processor.pair.flatMap((item) => (item.Sequence ? [item.Sequence] : []));
    expect(sequences).toEqual([
      { id: 'A', type_id: 0 },
      { id: 'B', type_id: 1 },
    ]);
    expect(files.tokenizerJson.normalizer).toMatchObject({
      type: 'BertNormalizer',
      lowercase: true,
    });
  });

  it('writes a feature extractor under its own model id', async () => {
    const info = await writeTinyFeatureExtractor(root, { modelId: 'org/embedder', hiddenSize: 12 });
    const config = JSON.parse(await readFile(path.join(info.directory, 'config.json'), 'utf8'));
    expect(config.architectures).toEqual(['BertModel']);
    expect(config.hidden_size).toBe(12);
    const model = decode(await readFile(path.join(info.directory, 'onnx/model.onnx')));
    expect(dims(model.graph.output[0]!)).toEqual(['batch_size', 'sequence_length', 12]);
  });

  it('rejects a model id that is not <org>/<name>', async () => {
    await expect(writeTinyClassifier(root, { modelId: 'no-slash' })).rejects.toThrow(
      /must look like <org>\/<name>/,
    );
  });
});
