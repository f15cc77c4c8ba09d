/*
 * Loaders for the labelled response data in ../shared/data/responses (read-only; nothing from it
 * is copied into the repository). Each row gets a stable key and a split: a hash of the key puts
 * half the rows in `dev` (where patterns may be tuned) and half in `test` (what is reported).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type Split = 'dev' | 'test';

/** One labelled response. */
export interface LabelledResponse {
  key: string;
  split: Split;
  text: string;
  /** The data set's own label, as written there. */
  label: string;
}

/** FNV-1a, 32 bits, over the UTF-8 bytes of a string: stable across runs and machines. */
export function stableHash(value: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(value)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** Half the keys go to dev, half to test, by hash. */
export function splitOf(key: string): Split {
  return stableHash(key) % 100 < 50 ? 'dev' : 'test';
}

/**
 * Parses CSV text as RFC 4180 has it: fields in double quotes may hold commas, doubled quotes and
 * line breaks. Returns rows of fields.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let index = 0;
  let quoted = false;
  let fieldStarted = false;
  while (index < text.length) {
    const character = text[index];
    if (quoted) {
      if (character === '"') {
        if (text[index + 1] === '"') {
          field += '"';
          index += 2;
          continue;
        }
        quoted = false;
        index += 1;
        continue;
      }
      field += character;
      index += 1;
      continue;
    }
    if (character === '"' && !fieldStarted) {
      quoted = true;
      fieldStarted = true;
      index += 1;
    } else if (character === ',') {
      row.push(field);
      field = '';
      fieldStarted = false;
      index += 1;
    } else if (character === '\n' || character === '\r') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      fieldStarted = false;
      index += character === '\r' && text[index + 1] === '\n' ? 2 : 1;
    } else {
      field += character;
      fieldStarted = true;
      index += 1;
    }
  }
  if (fieldStarted || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** CSV rows as objects keyed by the header line. */
function readCsvRecords(path: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(readFileSync(path, 'utf8'));
  if (!header) return [];
  return rows
    .filter((row) => row.length > 1 || (row[0] ?? '') !== '')
    .map((row) => {
      if (row.length !== header.length) {
        throw new Error(`${path}: a row has ${row.length} fields, the header ${header.length}`);
      }
      return Object.fromEntries(header.map((name, column) => [name, row[column] ?? '']));
    });
}

/**
 * RefusalBench: eval/*.csv responses joined with adjudicated.csv labels on
 * (prompt_id, model, trial_idx).
 */
export function loadRefusalBench(directory: string): {
  rows: LabelledResponse[];
  unjoined: number;
} {
  const labels = new Map<string, string>();
  for (const record of readCsvRecords(join(directory, 'adjudicated.csv'))) {
    const key = `${record.prompt_id}|${record.model}|${record.trial_idx}`;
    labels.set(key, record.modal_compliance ?? '');
  }
  const rows: LabelledResponse[] = [];
  let unjoined = 0;
  const evalDirectory = join(directory, 'eval');
  for (const file of readdirSync(evalDirectory)
    .filter((name) => name.endsWith('.csv'))
    .sort()) {
    for (const record of readCsvRecords(join(evalDirectory, file))) {
      const key = `${record.prompt_id}|${record.model}|${record.trial_idx}`;
      const label = labels.get(key);
      if (label === undefined) {
        unjoined += 1;
        continue;
      }
      rows.push({ key, split: splitOf(key), text: record.response_text ?? '', label });
    }
  }
  return { rows, unjoined };
}

/** TruthfulQA finetune_info.jsonl: the answer between "\nA:" and "\nHelpful:", label yes/no. */
export function loadTruthfulQa(path: string): LabelledResponse[] {
  const rows: LabelledResponse[] = [];
  const lines = readFileSync(path, 'utf8').split('\n');
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const record = JSON.parse(line) as { prompt: string; completion: string };
    const start = record.prompt.indexOf('\nA:');
    const end = record.prompt.lastIndexOf('\nHelpful:');
    if (start === -1 || end === -1 || end < start) {
      throw new Error(`${path}:${index + 1}: no answer between "\\nA:" and "\\nHelpful:"`);
    }
    const text = record.prompt.slice(start + 3, end).trim();
    // the same question and answer can appear twice; the line number keeps keys distinct
    const key = `${index + 1}|${record.prompt}`;
    rows.push({ key, split: splitOf(key), text, label: record.completion.trim() });
  });
  return rows;
}

/** HaluEval general_data.json (JSON Lines): ChatGPT answers with a yes/no hallucination label. */
export function loadHaluEval(path: string): LabelledResponse[] {
  const rows: LabelledResponse[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const record = JSON.parse(line) as {
      ID: string | number;
      chatgpt_response: string;
      hallucination: string;
    };
    const key = String(record.ID);
    rows.push({
      key,
      split: splitOf(key),
      text: record.chatgpt_response ?? '',
      label: record.hallucination,
    });
  }
  return rows;
}

/** Where each data set lives under the responses folder, and whether it is there. */
export function locateData(root: string) {
  const refusalBench = join(root, 'refusalbench');
  const truthfulQa = join(root, 'truthfulqa', 'finetune_info.jsonl');
  const haluEval = join(root, 'halueval', 'general_data.json');
  return {
    refusalBench: existsSync(join(refusalBench, 'adjudicated.csv')) ? refusalBench : undefined,
    truthfulQa: existsSync(truthfulQa) ? truthfulQa : undefined,
    haluEval: existsSync(haluEval) ? haluEval : undefined,
  };
}
