import {
  accessSync,
  appendFileSync,
  constants,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { withoutByteOrderMark } from '@qualm/errors';
import { JudgeError, JudgeErrorCode } from './errors.js';

/** A JSON Lines output that a rerun continues: what is already in it, and how to add to it. */
export interface ResumableOutput {
  path: string;
  /** The lines already in the file, parsed, in file order. */
  records: Record<string, unknown>[];
  /**
   * The key (`question_id` unless another `keyField` was given) of every finished line already in
   * the file.
   */
  doneIds: Set<string>;
  /**
   * The keys of lines already in the file that `isFinished` says are not finished: a rerun does
   * them again (after {@link ResumableOutput.remove} takes their old lines out).
   */
  unfinishedIds: Set<string>;
  /** Appends one record as a line at once, so a killed run loses at most the line being written. */
  append(record: Record<string, unknown>): void;
  /**
   * Takes the lines of these keys out of the file (rewritten whole, then renamed over the old one,
   * so a crash leaves the old file or the new one, never half of one).
   */
  remove(keys: ReadonlySet<string>): void;
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
  /**
   * Whether a line already in the file is a finished result (default: every line is). An
   * unfinished one is not in `doneIds` but in `unfinishedIds`, so a rerun does its item again.
   */
  isFinished?: (record: Record<string, unknown>) => boolean;
}

/**
 * Opens a JSON Lines output for a resumable run. Lines already there count as done (unless
 * `isFinished` says otherwise); a last line
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
  const isFinished = options.isFinished ?? (() => true);
  let records: Record<string, unknown>[] = [];
  const doneIds = new Set<string>();
  const unfinishedIds = new Set<string>();
  if (existsSync(path)) {
    if (statSync(path).isDirectory()) {
      throw new JudgeError(JudgeErrorCode.INVALID_INPUT, `${label} is a directory: ${path}`);
    }
    const read = readFileSync(path, 'utf8');
    // a mark that some editors write at the start of a file is not part of the first line
    let text = withoutByteOrderMark(read);
    const markBytes = Buffer.byteLength(read) - Buffer.byteLength(text);
    if (text !== '' && !text.endsWith('\n')) {
      const end = text.lastIndexOf('\n') + 1;
      const last = text.slice(end);
      if (parseRecord(last, keyField)) {
        appendFileSync(path, '\n');
        text += '\n';
      } else {
        truncateSync(path, markBytes + Buffer.byteLength(text.slice(0, end)));
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
      const key = record[keyField] as string;
      if (isFinished(record)) {
        doneIds.add(key);
        unfinishedIds.delete(key);
      } else {
        unfinishedIds.add(key);
        doneIds.delete(key);
      }
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
    get records() {
      return records;
    },
    doneIds,
    unfinishedIds,
    append(record) {
      appendFileSync(path, `${JSON.stringify(record)}\n`);
      if (keepRecords) records.push(record);
      const key = String(record[keyField]);
      if (isFinished(record)) doneIds.add(key);
      else unfinishedIds.add(key);
    },
    remove(keys) {
      if (keys.size === 0 || !existsSync(path)) return;
      const kept = readFileSync(path, 'utf8')
        .split('\n')
        .filter((line) => {
          if (line.trim() === '') return false;
          const key = parseRecord(line, keyField)?.[keyField];
          return typeof key !== 'string' || !keys.has(key);
        });
      const temporary = `${path}.${process.pid}.rewrite`;
      writeFileSync(temporary, kept.map((line) => `${line}\n`).join(''));
      renameSync(temporary, path);
      records = records.filter((record) => !keys.has(String(record[keyField])));
      for (const key of keys) {
        doneIds.delete(key);
        unfinishedIds.delete(key);
      }
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
