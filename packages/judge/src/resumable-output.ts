import {
  accessSync,
  appendFileSync,
  constants,
  existsSync,
  mkdirSync,
  readFileSync,
  statSync,
  truncateSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { JudgeError, JudgeErrorCode } from './errors.js';

/** A JSON Lines output that a rerun continues: what is already in it, and how to add to it. */
export interface ResumableOutput {
  path: string;
  /** The lines already in the file, parsed, in file order. */
  records: Record<string, unknown>[];
  /** The key (`question_id` unless another `keyField` was given) of every line already in the file. */
  doneIds: Set<string>;
  /** Appends one record as a line at once, so a killed run loses at most the line being written. */
  append(record: Record<string, unknown>): void;
}

/** Options of {@link openResumableOutput}. */
export interface ResumableOutputOptions {
  /** The field holding the non-empty string that identifies each line (default `question_id`). */
  keyField?: string;
  /** What error messages call the output, e.g. the flag that named it (default `output`). */
  label?: string;
  /**
   * Keep the records already in the file in `records` (default true); a caller that needs only
   * their keys saves the memory of a large output.
   */
  keepRecords?: boolean;
}

/**
 * Opens a JSON Lines output for a resumable run. Lines already there count as done; a last line
 * cut short by a killed run is dropped (and its item redone), a complete last line without its
 * newline is kept. Any other line that is not a JSON object with its key (`question_id` unless
 * `keyField` says otherwise) is an error naming the line, since appending to a file that is not an
 * output of this kind would spoil it. A missing folder is created. Everything is checked before the
 * run starts, so a wrong output fails before any work.
 */
export function openResumableOutput(
  path: string,
  options: ResumableOutputOptions = {},
): ResumableOutput {
  const keyField = options.keyField ?? 'question_id';
  const label = options.label ?? 'output';
  const another = options.label ?? 'output file';
  const keepRecords = options.keepRecords ?? true;
  const records: Record<string, unknown>[] = [];
  const doneIds = new Set<string>();
  if (existsSync(path)) {
    if (statSync(path).isDirectory()) {
      throw new JudgeError(JudgeErrorCode.INVALID_INPUT, `${label} is a directory: ${path}`);
    }
    let text = readFileSync(path, 'utf8');
    if (text !== '' && !text.endsWith('\n')) {
      const end = text.lastIndexOf('\n') + 1;
      const last = text.slice(end);
      if (parseRecord(last, keyField)) {
        appendFileSync(path, '\n');
        text += '\n';
      } else {
        truncateSync(path, Buffer.byteLength(text.slice(0, end)));
        text = text.slice(0, end);
      }
    }
    for (const [index, line] of text.split('\n').entries()) {
      if (line.trim() === '') continue;
      const record = parseRecord(line, keyField);
      if (!record) {
        throw new JudgeError(
          JudgeErrorCode.INVALID_INPUT,
          `${path}:${index + 1} is not a result line with ${/^[aeiou]/i.test(keyField) ? 'an' : 'a'} ${keyField}; remove it or choose another ${another}`,
        );
      }
      if (keepRecords) records.push(record);
      doneIds.add(record[keyField] as string);
    }
  } else {
    const folder = dirname(path);
    try {
      mkdirSync(folder, { recursive: true });
      // a folder that cannot be written fails now, before any work
      accessSync(folder, constants.W_OK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'an error';
      throw new JudgeError(
        JudgeErrorCode.INVALID_INPUT,
        `${label}: cannot write ${path} (${code}${code === 'ENOTDIR' || code === 'EEXIST' ? `: a part of ${folder} is a file` : ''})`,
        { cause: error },
      );
    }
  }
  return {
    path,
    records,
    doneIds,
    append(record) {
      appendFileSync(path, `${JSON.stringify(record)}\n`);
      if (keepRecords) records.push(record);
      doneIds.add(String(record[keyField]));
    },
  };
}

function parseRecord(line: string, keyField: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const record = value as Record<string, unknown>;
    const key = record[keyField];
    return typeof key === 'string' && key !== '' ? record : undefined;
  } catch {
    return undefined;
  }
}
