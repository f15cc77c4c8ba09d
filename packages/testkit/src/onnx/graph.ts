import onnxProto, { type onnx as Onnx } from 'onnx-proto';
import { randomWeights, seededRandom } from './random.js';

const { onnx } = onnxProto;

/** ONNX opset the tiny models import; onnxruntime 1.21 runs opsets up to 22. */
export const TINY_MODEL_OPSET = 13;
/** IR version of the tiny models (onnx 1.10 files); onnxruntime 1.21 reads IR versions up to 10. */
export const TINY_MODEL_IR_VERSION = 8;

/** How the weights are stored: plain float32, or int8 with a scale (read by `dtype: 'q8'`). */
export type TinyModelPrecision = 'fp32' | 'q8';

/** Shape and weights of a tiny BERT-shaped encoder. */
export interface TinyEncoderSpec {
  vocabularySize: number;
  hiddenSize: number;
  seed: number;
  precision: TinyModelPrecision;
  /** Whether the graph reads `token_type_ids` (BERT does; DeBERTa-v3 exports often do not). */
  tokenTypes?: boolean;
}

const FLOAT = onnx.TensorProto.DataType.FLOAT;
const INT8 = onnx.TensorProto.DataType.INT8;
const INT64 = onnx.TensorProto.DataType.INT64;

function floatTensor(name: string, dims: number[], values: Float32Array): Onnx.ITensorProto {
  return {
    name,
    dims,
    dataType: FLOAT,
    rawData: new Uint8Array(values.buffer, values.byteOffset, values.byteLength),
  };
}

function int64Tensor(name: string, dims: number[], values: number[]): Onnx.ITensorProto {
  const data = BigInt64Array.from(values.map((value) => BigInt(value)));
  return { name, dims, dataType: INT64, rawData: new Uint8Array(data.buffer) };
}

function int8Tensor(name: string, dims: number[], values: Int8Array): Onnx.ITensorProto {
  return { name, dims, dataType: INT8, rawData: new Uint8Array(values.buffer) };
}

function node(
  opType: string,
  input: string[],
  output: string[],
  attribute: Onnx.IAttributeProto[] = [],
): Onnx.INodeProto {
  return { opType, input, output, name: `${opType}_${output[0]}`, attribute };
}

function intAttribute(name: string, value: number): Onnx.IAttributeProto {
  return { name, type: onnx.AttributeProto.AttributeType.INT, i: value };
}

function tensorValue(
  name: string,
  elementType: number,
  dims: (string | number)[],
): Onnx.IValueInfoProto {
  return {
    name,
    type: {
      tensorType: {
        elemType: elementType,
        shape: {
          dim: dims.map((dim) => (typeof dim === 'string' ? { dimParam: dim } : { dimValue: dim })),
        },
      },
    },
  };
}

// symmetric per-tensor int8 quantisation: the file stores int8 values, a scale and a zero point
function quantisedWeight(name: string, dims: number[], values: Float32Array) {
  let largest = 0;
  for (const value of values) largest = Math.max(largest, Math.abs(value));
  const scale = largest > 0 ? largest / 127 : 1;
  const quantised = Int8Array.from(values, (value) => Math.round(value / scale));
  return {
    initializers: [
      int8Tensor(`${name}_quantized`, dims, quantised),
      floatTensor(`${name}_scale`, [], Float32Array.of(scale)),
      int8Tensor(`${name}_zero_point`, [], Int8Array.of(0)),
    ],
    nodes: [
      node(
        'DequantizeLinear',
        [`${name}_quantized`, `${name}_scale`, `${name}_zero_point`],
        [name],
      ),
    ],
  };
}

/** Collects initializers and nodes, storing each weight as the chosen precision asks. */
class GraphBuilder {
  readonly initializers: Onnx.ITensorProto[] = [];
  readonly nodes: Onnx.INodeProto[] = [];
  private readonly random: () => number;

  constructor(
    seed: number,
    private readonly precision: TinyModelPrecision,
  ) {
    this.random = seededRandom(seed);
  }

  weight(name: string, dims: number[], scale: number): void {
    const values = randomWeights(
      this.random,
      dims.reduce((product, dim) => product * dim, 1),
      scale,
    );
    if (this.precision === 'q8' && dims.length > 1) {
      const quantised = quantisedWeight(name, dims, values);
      this.initializers.push(...quantised.initializers);
      this.nodes.push(...quantised.nodes);
    } else {
      this.initializers.push(floatTensor(name, dims, values));
    }
  }

  add(opType: string, input: string[], output: string, attribute: Onnx.IAttributeProto[] = []) {
    this.nodes.push(node(opType, input, [output], attribute));
  }
}

// word and token-type embeddings pass through tanh, so which text of a pair a word sits in matters
function encoder(builder: GraphBuilder, spec: TinyEncoderSpec): string {
  builder.weight('word_embeddings', [spec.vocabularySize, spec.hiddenSize], 1);
  builder.add('Gather', ['word_embeddings', 'input_ids'], 'word_vectors', [
    intAttribute('axis', 0),
  ]);
  if (spec.tokenTypes === false) {
    builder.add('Tanh', ['word_vectors'], 'hidden');
    return 'hidden';
  }
  builder.weight('token_type_embeddings', [2, spec.hiddenSize], 1);
  builder.add('Gather', ['token_type_embeddings', 'token_type_ids'], 'type_vectors', [
    intAttribute('axis', 0),
  ]);
  builder.add('Add', ['word_vectors', 'type_vectors'], 'embedded');
  builder.add('Tanh', ['embedded'], 'hidden');
  return 'hidden';
}

function encodeModel(
  builder: GraphBuilder,
  name: string,
  outputs: Onnx.IValueInfoProto[],
  tokenTypes = true,
): Uint8Array {
  const sequence = ['batch_size', 'sequence_length'];
  const model: Onnx.IModelProto = {
    irVersion: TINY_MODEL_IR_VERSION,
    producerName: '@qualm/testkit',
    producerVersion: '1',
    opsetImport: [{ domain: '', version: TINY_MODEL_OPSET }],
    graph: {
      name,
      node: builder.nodes,
      initializer: builder.initializers,
      input: [
        tensorValue('input_ids', INT64, sequence),
        tensorValue('attention_mask', INT64, sequence),
        ...(tokenTypes ? [tensorValue('token_type_ids', INT64, sequence)] : []),
      ],
      output: outputs,
    },
  };
  return onnx.ModelProto.encode(onnx.ModelProto.create(model)).finish();
}

/**
 * A sequence classifier: embeddings → tanh → mean over the attention mask → linear → `logits`
 * of shape [batch_size, labelCount].
 */
export function tinyClassifierGraph(spec: TinyEncoderSpec & { labelCount: number }): Uint8Array {
  const builder = new GraphBuilder(spec.seed, spec.precision);
  const hidden = encoder(builder, spec);
  builder.weight('classifier_weight', [spec.hiddenSize, spec.labelCount], 2);
  builder.weight('classifier_bias', [spec.labelCount], 0.1);
  builder.initializers.push(
    int64Tensor('last_axis', [1], [-1]),
    int64Tensor('sequence_axis', [1], [1]),
    floatTensor('smallest_count', [], Float32Array.of(1e-9)),
  );
  builder.add('Cast', ['attention_mask'], 'mask_float', [intAttribute('to', FLOAT)]);
  builder.add('Unsqueeze', ['mask_float', 'last_axis'], 'mask_column');
  builder.add('Mul', [hidden, 'mask_column'], 'masked_hidden');
  builder.add('ReduceSum', ['masked_hidden', 'sequence_axis'], 'hidden_sum', [
    intAttribute('keepdims', 0),
  ]);
  builder.add('ReduceSum', ['mask_column', 'sequence_axis'], 'token_count', [
    intAttribute('keepdims', 0),
  ]);
  builder.add('Max', ['token_count', 'smallest_count'], 'safe_count');
  builder.add('Div', ['hidden_sum', 'safe_count'], 'pooled');
  builder.add('MatMul', ['pooled', 'classifier_weight'], 'projected');
  builder.add('Add', ['projected', 'classifier_bias'], 'logits');
  return encodeModel(
    builder,
    'tiny_bert_for_sequence_classification',
    [tensorValue('logits', FLOAT, ['batch_size', spec.labelCount])],
    spec.tokenTypes !== false,
  );
}

/** A feature extractor: embeddings → tanh → dense → tanh → `last_hidden_state` [batch, seq, hidden]. */
export function tinyFeatureExtractorGraph(spec: TinyEncoderSpec): Uint8Array {
  const builder = new GraphBuilder(spec.seed, spec.precision);
  const hidden = encoder(builder, spec);
  builder.weight('dense_weight', [spec.hiddenSize, spec.hiddenSize], 1);
  builder.weight('dense_bias', [spec.hiddenSize], 0.1);
  builder.add('MatMul', [hidden, 'dense_weight'], 'dense_projected');
  builder.add('Add', ['dense_projected', 'dense_bias'], 'dense_output');
  builder.add('Tanh', ['dense_output'], 'last_hidden_state');
  return encodeModel(
    builder,
    'tiny_bert_model',
    [tensorValue('last_hidden_state', FLOAT, ['batch_size', 'sequence_length', spec.hiddenSize])],
    spec.tokenTypes !== false,
  );
}
