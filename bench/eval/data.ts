/*
 * Loaders for the labelled response data in ../shared/data/responses (read-only; nothing from it
 * is copied into the repository).
 *
 * Every row belongs to a group: the rows that share a prompt (or a question). Splits are made by
 * group, never by row, so the same prompt is never on both sides: a stable hash of the group puts
 * it in `dev` (where rules may be read and thresholds chosen) or `test` (what is reported).
 * GPTFuzz keeps its authors' own split, which already separates questions.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type Split = 'dev' | 'test';

/** The labelled sources, in the order tables list them. */
export const SOURCES = [
  'gptfuzz',
  'jailbreakbench',
  'refusalbench',
  'truthfulqa',
  'halueval',
] as const;
export type SourceName = (typeof SOURCES)[number];

/** Sources with refusal labels; the others hold only answers to trust (or not, for other reasons). */
export const REFUSAL_SOURCES: readonly SourceName[] = ['gptfuzz', 'jailbreakbench', 'refusalbench'];

/**
 * What a row is, as far as refusal goes: `refusal` (direct or indirect), `compliance` (an answer
 * to trust, refusal-wise), or `other` (a label that is neither, reported apart).
 */
export type RefusalClass = 'refusal' | 'compliance' | 'other';

/** One labelled response. */
export interface LabelledResponse {
  source: SourceName;
  /** Unique within the source. */
  key: string;
  /** Rows sharing a prompt or question share a group. */
  group: string;
  split: Split;
  text: string;
  /** The data set's own label, as written there. */
  label: string;
  refusal: RefusalClass;
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

/** Half the groups go to dev, half to test, by hash of the group. */
export function splitOfGroup(group: string): Split {
  return stableHash(group) % 100 < 50 ? 'dev' : 'test';
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

function readJsonLines<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, index) => {
      try {
        return JSON.parse(line) as T;
      } catch (error) {
        throw new Error(`${path}:${index + 1}: not JSON (${(error as Error).message})`);
      }
    });
}

/** GPTFuzz: hand labels refusal / compliance; the authors' train split is dev, evaluate is test. */
export function loadGptFuzz(path: string): LabelledResponse[] {
  return readJsonLines<{
    id: string;
    split: string;
    question_index: string;
    response: string;
    label: string;
  }>(path).map((record) => ({
    source: 'gptfuzz',
    key: record.id,
    group: `question ${record.question_index}`,
    split: record.split === 'train' ? 'dev' : 'test',
    text: record.response ?? '',
    label: record.label,
    refusal: record.label === 'refusal' ? 'refusal' : 'compliance',
  }));
}

/** JailbreakBench: a judge's jailbroken flag; grouped by the behaviour asked for (`goal`). */
export function loadJailbreakBench(path: string): LabelledResponse[] {
  return readJsonLines<{ id: string; goal: string; response: string; label: string }>(path).map(
    (record) => ({
      source: 'jailbreakbench',
      key: record.id,
      group: record.goal,
      split: splitOfGroup(record.goal),
      text: record.response ?? '',
      label: record.label,
      refusal: record.label === 'refusal' ? 'refusal' : 'compliance',
    }),
  );
}

/**
 * RefusalBench: eval/*.csv responses joined with adjudicated.csv labels on
 * (prompt_id, model, trial_idx), grouped by prompt. Only rows with real text: the literal
 * `[CONTENT_FILTERED]` rows are a provider's filter, not a model's words.
 */
export function loadRefusalBench(directory: string): {
  rows: LabelledResponse[];
  unjoined: number;
  filtered: number;
} {
  const labels = new Map<string, string>();
  for (const record of readCsvRecords(join(directory, 'adjudicated.csv'))) {
    const key = `${record.prompt_id}|${record.model}|${record.trial_idx}`;
    labels.set(key, record.modal_compliance ?? '');
  }
  const rows: LabelledResponse[] = [];
  let unjoined = 0;
  let filtered = 0;
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
      const text = record.response_text ?? '';
      if (text.trim() === '[CONTENT_FILTERED]') {
        filtered += 1;
        continue;
      }
      const group = record.prompt_id ?? key;
      rows.push({
        source: 'refusalbench',
        key,
        group,
        split: splitOfGroup(group),
        text,
        label,
        refusal:
          label === 'direct_refusal' || label === 'indirect_refusal'
            ? 'refusal'
            : label === 'compliance'
              ? 'compliance'
              : 'other',
      });
    }
  }
  return { rows, unjoined, filtered };
}

/** TruthfulQA finetune_info.jsonl: the answer between "\nA:" and "\nHelpful:", grouped by question. */
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
    const question = record.prompt.slice(0, start);
    const label = record.completion.trim();
    rows.push({
      source: 'truthfulqa',
      key: String(index + 1),
      group: question,
      split: splitOfGroup(question),
      text: record.prompt.slice(start + 3, end).trim(),
      label,
      // informative answers are answers to trust refusal-wise; uninformative ones are not
      // refusals either (most are off-topic or tautological), so they are reported apart
      refusal: label === 'yes' ? 'compliance' : 'other',
    });
  });
  return rows;
}

/** HaluEval general: ChatGPT answers to user queries with a yes/no hallucination label. */
export function loadHaluEval(path: string): LabelledResponse[] {
  return readJsonLines<{
    ID: string | number;
    user_query: string;
    chatgpt_response: string;
    hallucination: string;
  }>(path).map((record) => ({
    source: 'halueval',
    key: String(record.ID),
    group: record.user_query,
    split: splitOfGroup(record.user_query),
    text: record.chatgpt_response ?? '',
    label: record.hallucination,
    // no refusal labels: the answers are what ChatGPT gave, refusals included
    refusal: 'other',
  }));
}

/** Where each source lives under the responses folder (undefined when it is absent). */
export function locateSources(root: string): Record<SourceName, string | undefined> {
  const paths: Record<SourceName, string> = {
    gptfuzz: join(root, 'gptfuzz', 'labeled_responses.jsonl'),
    jailbreakbench: join(root, 'jailbreakbench', 'judged_responses.jsonl'),
    refusalbench: join(root, 'refusalbench'),
    truthfulqa: join(root, 'truthfulqa', 'finetune_info.jsonl'),
    halueval: join(root, 'halueval', 'general_data.json'),
  };
  const present = (source: SourceName) =>
    source === 'refusalbench'
      ? existsSync(join(paths.refusalbench, 'adjudicated.csv'))
      : existsSync(paths[source]);
  return Object.fromEntries(
    SOURCES.map((source) => [source, present(source) ? paths[source] : undefined]),
  ) as Record<SourceName, string | undefined>;
}

/** Loads every source that is present; an absent one is an empty list. */
export function loadSources(root: string): Record<SourceName, LabelledResponse[]> {
  const located = locateSources(root);
  return {
    gptfuzz: located.gptfuzz ? loadGptFuzz(located.gptfuzz) : [],
    jailbreakbench: located.jailbreakbench ? loadJailbreakBench(located.jailbreakbench) : [],
    refusalbench: located.refusalbench ? loadRefusalBench(located.refusalbench).rows : [],
    truthfulqa: located.truthfulqa ? loadTruthfulQa(located.truthfulqa) : [],
    halueval: located.halueval ? loadHaluEval(located.halueval) : [],
  };
}
