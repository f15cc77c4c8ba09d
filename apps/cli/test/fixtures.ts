import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Environment, QualmRun } from './qualm-process.js';

const bin = fileURLToPath(new URL('../bin/qualm.js', import.meta.url));

const turn = (role: 'user' | 'assistant', content: string, hasAnswer?: boolean) =>
  hasAnswer === undefined ? { role, content } : { role, content, has_answer: hasAnswer };

/**
 * A made-up LongMemEval file about lockers: question `lockerN` asks for the code of locker N and
 * one session says it. Ids ending `_abs` are abstention questions.
 */
export function lockerQuestions(count: number) {
  return Array.from({ length: count }, (_, index) => ({
    question_id: `locker${index}`,
    question_type: 'single-session-user',
    question: `What is the code of locker ${index}?`,
    answer: `${1000 + index}`,
    question_date: '2024/02/01 (Thu) 09:00',
    haystack_dates: ['2024/01/10 (Wed) 18:00', '2024/01/12 (Fri) 07:45'],
    haystack_session_ids: [`gym_${index}`, `weather_${index}`],
    haystack_sessions: [
      [
        turn('user', `The code of locker ${index} is ${1000 + index}.`, true),
        turn('assistant', 'Noted, I will remember it.'),
      ],
      [turn('user', 'Will it snow tomorrow?'), turn('assistant', 'Light snow is likely.')],
    ],
    answer_session_ids: [`gym_${index}`],
  }));
}

/** Writes a LongMemEval file of `count` locker questions and returns its path. */
export function writeLockerData(directory: string, count: number, name = 'lockers.json'): string {
  const path = join(directory, name);
  writeFileSync(path, JSON.stringify(lockerQuestions(count)));
  return path;
}

/** Judged answers to the first `count` locker questions, as eval-results JSON Lines text. */
export function judgedLines(count: number, prefix = 'locker'): string {
  return Array.from(
    { length: count },
    (_, index) =>
      `${JSON.stringify({
        question_id: `${prefix}${index}`,
        hypothesis: `The code is ${1000 + index}.`,
        autoeval_label: { model: 'gpt-4o-2024-08-06', label: index % 2 === 0 },
      })}\n`,
  ).join('');
}

/** Writes a JSON Lines file and returns its path. */
export function writeLines(path: string, rows: readonly unknown[]): string {
  writeFileSync(path, rows.map((row) => `${JSON.stringify(row)}\n`).join(''));
  return path;
}

/** The parsed lines of a JSON Lines file, or none when it does not exist. */
export function readLines(path: string): Record<string, unknown>[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/**
 * Runs the built `qualm` binary and sends it SIGINT, as Ctrl-C does, once `ready` says so (it is
 * polled every 20 ms with what stdout has shown so far); never throws.
 */
export function qualmInterrupted(
  args: readonly string[],
  env: Environment,
  ready: (stdout: string) => boolean,
): Promise<QualmRun> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [bin, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setInterval(() => {
      if (ready(stdout)) {
        clearInterval(timer);
        child.kill('SIGINT');
      }
    }, 20);
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(timer);
      resolve({ stdout, stderr, code: code ?? -1 });
    });
  });
}

/** Whether `script` (util-linux) is there to run a command in a pseudo-terminal. */
export const hasScript = spawnSync('script', ['--version']).status === 0;

/**
 * Runs the built `qualm` binary in a pseudo-terminal (stdin, stdout and stderr all a terminal),
 * typing each of `keys` after a pause; what the terminal showed comes back in `stdout`.
 */
export function qualmInTerminal(
  args: readonly string[],
  keys: readonly string[],
  env: Environment = {},
): Promise<QualmRun> {
  const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;
  const command = [process.execPath, bin, ...args].map(quote).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ stdout, stderr: '', code: code ?? -1 }));
    let delay = 0;
    for (const key of keys) {
      delay += 400;
      setTimeout(() => child.stdin.write(key), delay);
    }
  });
}

/** Bytes that start like an executable: a header, NUL bytes and random-looking data. */
export function executableBytes(): Buffer {
  const bytes = Buffer.alloc(4096);
  bytes.write('\u007fELF', 0, 'latin1');
  for (let index = 64; index < bytes.length; index += 1) bytes[index] = (index * 131) % 256;
  return bytes;
}

/** Whether text holds a control character other than a line feed: raw bytes a terminal obeys. */
export function hasControlCharacters(text: string): boolean {
  for (const character of text) {
    const code = character.charCodeAt(0);
    if ((code < 0x20 && code !== 0x0a) || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}
