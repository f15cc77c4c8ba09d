import { open, readFile } from 'node:fs/promises';

/** What is wrong with a file of a model folder, worded to follow its name; undefined when nothing is. */
export type FileProblem = string | undefined;

const number = (value: number) => value.toLocaleString('en-US');

/**
 * Reads a JSON file of a model folder and checks it holds an object. An empty file is reported as
 * such: transformers.js 3.8.1 reads one as whatever bytes its buffer pool held, and then fails on
 * them with a message that says nothing about the file.
 */
export async function readJsonObject(
  file: string,
): Promise<{ value: Record<string, unknown> } | { problem: string }> {
  const text = await readFile(file, 'utf8');
  if (text.trim() === '') return { problem: 'is empty' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: `is not valid JSON (${(error as Error).message})` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const found = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    return { problem: `holds ${found}, not a JSON object` };
  }
  return { value: value as Record<string, unknown> };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The fields of `config.json` that transformers.js needs before it can pick the model's class. */
export function configProblem(config: Record<string, unknown>): FileProblem {
  if (typeof config.model_type !== 'string' || config.model_type.trim() === '') {
    return 'has no "model_type" (such as "bert"), which says what architecture the model has';
  }
  return undefined;
}

/** The parts of `tokenizer.json` that transformers.js builds its tokenizer from without checking. */
export function tokenizerProblem(tokenizer: Record<string, unknown>): FileProblem {
  if (!isObject(tokenizer.model)) {
    return 'has no "model" section, so it is not a tokenizer file of the tokenizers library';
  }
  if (!Array.isArray(tokenizer.added_tokens)) return 'has no "added_tokens" list';
  return undefined;
}

// a protobuf varint at `offset`: its value and length, `short` when the bytes end inside it
function readVarint(
  bytes: Uint8Array,
  offset: number,
  end: number,
): { value: number; length: number } | 'short' | 'invalid' {
  let value = 0;
  let scale = 1;
  for (let index = 0; index < 10; index += 1) {
    if (offset + index >= end) return 'short';
    const byte = bytes[offset + index]!;
    value += (byte & 0x7f) * scale;
    scale *= 128;
    if ((byte & 0x80) === 0) return { value, length: index + 1 };
  }
  return 'invalid';
}

// ModelProto's `graph` and `opset_import` fields (onnx.proto): every model since IR version 3 has
// both, and a serializer writes them in field order, so a file cut after the graph lacks the second
const GRAPH_FIELD = 7;
const OPSET_IMPORT_FIELD = 8;
// the top level of a model holds a dozen fields; a scan that finds far more is reading garbage
const MAX_TOP_LEVEL_FIELDS = 100_000;

/**
 * Checks that an ONNX file is whole before ONNX Runtime reads it, by walking the top-level fields
 * of its protobuf `ModelProto` (a few bytes read per field, whatever the file's size): an empty
 * file, one that is not protobuf (an HTML error page, a Git LFS pointer), one cut short by an
 * interrupted copy or download, or one without a graph. This matters beyond the wording: in
 * transformers.js 3.8.1 a failed first session creation fails every later one in the process
 * (huggingface/transformers.js#1767), so a broken file must not reach ONNX Runtime.
 */
export async function onnxProblem(file: string): Promise<FileProblem> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size === 0) return 'is empty';
    const truncated = (needed: number) =>
      `is truncated: it has ${number(size)} bytes, but its contents run to at least byte ${number(needed)} (an interrupted copy or download?)`;
    const window = new Uint8Array(32);
    let offset = 0;
    const seen = new Set<number>();
    for (let fields = 0; offset < size; fields += 1) {
      if (fields >= MAX_TOP_LEVEL_FIELDS) return undefined;
      const { bytesRead } = await handle.read(window, 0, window.length, offset);
      const key = readVarint(window, 0, bytesRead);
      if (key === 'short') return truncated(offset + bytesRead + 1);
      const field = Math.floor((key === 'invalid' ? 0 : key.value) / 8);
      const wireType = key === 'invalid' ? -1 : key.value % 8;
      if (key === 'invalid' || field === 0 || ![0, 1, 2, 5].includes(wireType)) {
        return offset === 0
          ? 'is not an ONNX model: it does not start as a protobuf ModelProto'
          : `is corrupt: byte ${number(offset)} does not start a protobuf field`;
      }
      let end: number;
      if (wireType === 0) {
        const value = readVarint(window, key.length, bytesRead);
        if (value === 'invalid') return `is corrupt: byte ${number(offset)} holds a broken number`;
        end = value === 'short' ? size + 1 : offset + key.length + value.length;
      } else if (wireType === 2) {
        const length = readVarint(window, key.length, bytesRead);
        if (length === 'invalid') {
          return `is corrupt: byte ${number(offset)} holds a broken length`;
        }
        end = length === 'short' ? size + 1 : offset + key.length + length.length + length.value;
      } else {
        end = offset + key.length + (wireType === 1 ? 8 : 4);
      }
      if (end > size) return truncated(end);
      if (wireType === 2) seen.add(field);
      offset = end;
    }
    if (!seen.has(GRAPH_FIELD)) return 'holds no graph, so it is not an ONNX model';
    if (!seen.has(OPSET_IMPORT_FIELD)) {
      return 'ends after its graph without the opset_import that follows it (truncated?)';
    }
    return undefined;
  } finally {
    await handle.close();
  }
}
