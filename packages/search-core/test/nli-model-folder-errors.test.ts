import { cp, mkdir, mkdtemp, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeTinyClassifier } from '@qualm/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEmbedder, loadNliModel, SearchCoreError } from '../src/index.js';

// every folder is on disk in a temporary root; a models folder turns remote loading off, and a
// path is never downloaded, so nothing here reaches the network
let root: string;
let good: string;
let broken = 0;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'qualm-broken-nli-'));
  good = (await writeTinyClassifier(root, { modelId: 'good/nli' })).directory;
  // a good model loads first: in transformers.js 3.8.1 a failed first ONNX session would fail
  // every later one in the process (huggingface/transformers.js#1767)
  await loadNliModel({ modelId: good });
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A copy of the good model folder, changed by `damage`; returns its model id under `root`. */
async function brokenCopy(damage: (folder: string) => Promise<void>): Promise<string> {
  broken += 1;
  const modelId = `broken/model-${broken}`;
  const folder = path.join(root, modelId);
  await cp(good, folder, { recursive: true });
  await damage(folder);
  return modelId;
}

async function loadError(options: {
  modelId: string;
  modelsDir?: string;
}): Promise<SearchCoreError> {
  const error = await loadNliModel(options).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!SearchCoreError.isInstance(error))
    throw new Error(`expected a SearchCoreError, got ${error}`);
  return error;
}

const fromModelsDir = async (damage: (folder: string) => Promise<void>) => {
  const modelId = await brokenCopy(damage);
  return { error: await loadError({ modelId, modelsDir: root }), folder: path.join(root, modelId) };
};

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const writeConfig = async (folder: string, change: (config: Record<string, unknown>) => void) => {
  const file = path.join(folder, 'config.json');
  const config = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  change(config);
  await writeFile(file, JSON.stringify(config));
};

describe('a broken NLI model folder', () => {
  it('names a truncated model.onnx, with its size and where its contents run to', async () => {
    const { error, folder } = await fromModelsDir(async (folder) => {
      const file = path.join(folder, 'onnx', 'model.onnx');
      await truncate(file, Math.floor((await stat(file)).size / 2));
    });
    expect(error.code).toBe('MODEL_LOAD_FAILED');
    expect(error.message).toMatch(
      new RegExp(
        `^NLI model "broken/model-\\d+" in ${escaped(folder)}: onnx/model\\.onnx is truncated: it has [\\d,]+ bytes, but its contents run to at least byte [\\d,]+`,
      ),
    );
    expect(error.message).toContain('replace it with onnx/model.onnx from https://huggingface.co/');
  });

  it('names an empty model.onnx, and one that is not an ONNX file at all', async () => {
    const empty = await fromModelsDir((folder) =>
      writeFile(path.join(folder, 'onnx', 'model.onnx'), ''),
    );
    expect(empty.error.message).toContain(`in ${empty.folder}: onnx/model.onnx is empty;`);
    const html = await fromModelsDir((folder) =>
      writeFile(path.join(folder, 'onnx', 'model.onnx'), '<html>502 Bad Gateway</html>'),
    );
    expect(html.error.message).toContain(
      `in ${html.folder}: onnx/model.onnx is not an ONNX model: it does not start as a protobuf ModelProto;`,
    );
  });

  it('names a model.onnx that ONNX Runtime refuses, and a good model still loads after it', async () => {
    const { error, folder } = await fromModelsDir(async (folder) => {
      const file = path.join(folder, 'onnx', 'model.onnx');
      const bytes = await readFile(file);
      // whole at the top level, garbage inside the graph
      bytes.fill(0xff, 200, 260);
      await writeFile(file, bytes);
    });
    expect(error.code).toBe('MODEL_LOAD_FAILED');
    expect(error.message).toMatch(
      new RegExp(
        `^NLI model "broken/model-\\d+" in ${escaped(folder)}: ONNX Runtime cannot load onnx/model\\.onnx \\(.+\\); replace it`,
      ),
    );
    const model = await loadNliModel({ modelId: 'good/nli', modelsDir: root });
    expect(model.labelIndices).toEqual({ entailment: 0, contradiction: 1, neutral: 2 });
  });

  it('names an empty config.json', async () => {
    const { error, folder } = await fromModelsDir((folder) =>
      writeFile(path.join(folder, 'config.json'), ''),
    );
    expect(error.code).toBe('MODEL_LOAD_FAILED');
    expect(error.message).toMatch(
      new RegExp(
        `^NLI model "broken/model-\\d+" in ${escaped(folder)}: config\\.json is empty; replace it with config\\.json from https://huggingface\\.co/broken/model-\\d+$`,
      ),
    );
  });

  it('names a config.json that is not JSON, with the parser’s complaint', async () => {
    const { error, folder } = await fromModelsDir((folder) =>
      writeFile(path.join(folder, 'config.json'), '{"model_type": "bert",'),
    );
    expect(error.code).toBe('MODEL_LOAD_FAILED');
    expect(error.message).toContain(`in ${folder}: config.json is not valid JSON (`);
  });

  it('names a config.json that holds no object, or no model_type', async () => {
    const nothing = await fromModelsDir((folder) =>
      writeFile(path.join(folder, 'config.json'), 'null'),
    );
    expect(nothing.error.message).toContain(
      `in ${nothing.folder}: config.json holds null, not a JSON object;`,
    );
    const untyped = await fromModelsDir((folder) =>
      writeConfig(folder, (config) => {
        delete config.model_type;
      }),
    );
    expect(untyped.error.message).toContain(
      `in ${untyped.folder}: config.json has no "model_type"`,
    );
  });

  it('names a missing tokenizer.json', async () => {
    const { error, folder } = await fromModelsDir((folder) =>
      rm(path.join(folder, 'tokenizer.json')),
    );
    expect(error.code).toBe('MODEL_NOT_FOUND');
    expect(error.message).toMatch(
      new RegExp(
        `^NLI model "broken/model-\\d+" in ${escaped(folder)}: tokenizer\\.json is missing; copy it from https://huggingface\\.co/broken/model-\\d+ into the folder$`,
      ),
    );
    // not the advice for a model that is not there at all
    expect(error.missingModel).toBeUndefined();
  });

  it('names a tokenizer.json without a model section, instead of "Cannot read properties of undefined"', async () => {
    const { error, folder } = await fromModelsDir((folder) =>
      writeFile(path.join(folder, 'tokenizer.json'), '{}'),
    );
    expect(error.code).toBe('MODEL_LOAD_FAILED');
    expect(error.message).toContain(`in ${folder}: tokenizer.json has no "model" section`);
    expect(error.message).not.toContain('Cannot read properties');
  });

  it('names a tokenizer_config.json that holds null', async () => {
    const { error, folder } = await fromModelsDir((folder) =>
      writeFile(path.join(folder, 'tokenizer_config.json'), 'null'),
    );
    expect(error.message).toContain(
      `in ${folder}: tokenizer_config.json holds null, not a JSON object;`,
    );
  });

  it('reports a folder with no files as a missing model, with where it looked', async () => {
    const empty = path.join(root, 'broken', 'empty');
    await mkdir(empty, { recursive: true });
    const error = await loadError({ modelId: 'broken/empty', modelsDir: root });
    expect(error.code).toBe('MODEL_NOT_FOUND');
    expect(error.message).toContain(
      `NLI model "broken/empty" not found: ${empty} holds none of its files`,
    );
    expect(error.missingModel).toMatchObject({ modelId: 'broken/empty', folder: empty });
  });

  it('refuses a label map without entailment and contradiction before loading the weights', async () => {
    const { error, folder } = await fromModelsDir(async (folder) => {
      await writeConfig(folder, (config) => {
        config.id2label = { 0: 'LABEL_0', 1: 'NEUTRAL', 2: 'LABEL_2' };
        delete config.label2id;
      });
      // were the weights read, this would fail first
      await writeFile(path.join(folder, 'onnx', 'model.onnx'), 'unread');
    });
    expect(error.code).toBe('UNSUPPORTED_MODEL');
    expect(error.message).toMatch(
      new RegExp(
        `^NLI model "broken/model-\\d+" in ${escaped(folder)} is not an NLI classifier: config\\.json's id2label declares \\[LABEL_0, NEUTRAL, LABEL_2\\], but entailment, neutral and contradiction labels are needed`,
      ),
    );
  });

  it('refuses labels that are not names with a clear error, not a TypeError', async () => {
    const { error } = await fromModelsDir((folder) =>
      writeConfig(folder, (config) => {
        config.id2label = { 0: 1, 1: 2, 2: 3 };
      }),
    );
    expect(error.code).toBe('UNSUPPORTED_MODEL');
    expect(error.message).toContain("config.json's id2label declares [1, 2, 3]");
  });
});

describe('a broken NLI model folder given as a path', () => {
  it('names the folder and the file, without hub or --models-dir advice', async () => {
    const modelId = await brokenCopy((folder) => writeFile(path.join(folder, 'config.json'), ''));
    const folder = path.join(root, modelId);
    const error = await loadError({ modelId: folder });
    expect(error.message).toBe(
      `NLI model folder ${folder}: config.json is empty; replace it with a good copy of the model's config.json`,
    );
  });

  it('names a missing file of a folder given as a path', async () => {
    const modelId = await brokenCopy((folder) => rm(path.join(folder, 'tokenizer.json')));
    const folder = path.join(root, modelId);
    const error = await loadError({ modelId: folder });
    expect(error.code).toBe('MODEL_NOT_FOUND');
    expect(error.message).toBe(
      `NLI model folder ${folder}: tokenizer.json is missing; copy it into the folder`,
    );
  });

  it('says a folder that does not exist, or holds no model file, is no model', async () => {
    const absent = path.join(root, 'no-such-folder');
    expect((await loadError({ modelId: absent })).message).toBe(
      `NLI model folder ${absent} does not exist; a model folder holds config.json, tokenizer.json, tokenizer_config.json and onnx/model.onnx`,
    );
    const empty = path.join(root, 'empty-folder');
    await mkdir(empty);
    const error = await loadError({ modelId: empty });
    expect(error.code).toBe('MODEL_NOT_FOUND');
    expect(error.message).toBe(
      `NLI model folder ${empty} holds none of the model files; a model folder holds config.json, tokenizer.json, tokenizer_config.json and onnx/model.onnx`,
    );
  });
});

describe('a broken embedding model folder', () => {
  it('is checked the same way', async () => {
    const modelId = await brokenCopy((folder) =>
      writeFile(path.join(folder, 'tokenizer.json'), '{"model": '),
    );
    const error = await loadEmbedder({ modelId, modelsDir: root }).then(
      () => undefined,
      (caught: unknown) => caught as SearchCoreError,
    );
    expect(error?.message).toContain(
      `embedding model "${modelId}" in ${path.join(root, modelId)}: tokenizer.json is not valid JSON (`,
    );
  });
});
