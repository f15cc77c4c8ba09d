import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/qualm.js', import.meta.url));

/** Variables laid over the test's own environment; `undefined` removes a variable. */
export type Environment = Record<string, string | undefined>;

/** What a run of the built `qualm` binary printed, and how it exited. */
export interface QualmRun {
  stdout: string;
  stderr: string;
  code: number;
}

/** Options of a run beyond its arguments and environment. */
export interface QualmRunOptions {
  /** Text written to the run's stdin, which is then closed (it is closed empty otherwise). */
  input?: string;
}

/** Runs the built `qualm` binary with arguments and extra environment, never throwing. */
export function qualm(
  args: readonly string[],
  env: Environment = {},
  options: QualmRunOptions = {},
): Promise<QualmRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ stdout, stderr, code: code ?? -1 }));
    child.stdin.end(options.input ?? '');
  });
}

/**
 * Runs the built `qualm` binary and closes the reading end of its stdout once `bytes` bytes have
 * arrived (at once for 0), as `| head -c` does; never throws.
 */
export function qualmWithClosedOutput(
  args: readonly string[],
  bytes: number,
  env: Environment = {},
): Promise<QualmRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    const stop = () => {
      if (stdout.length >= bytes) child.stdout.destroy();
    };
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      stop();
    });
    stop();
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ stdout, stderr, code: code ?? -1 }));
    child.stdin.end();
  });
}

/** A {@link qualm} whose every run starts from `base`, the usual environment of a test file. */
export function qualmWithEnvironment(base: Environment): typeof qualm {
  return (args, env = {}, options = {}) => qualm(args, { ...base, ...env }, options);
}

/** Starts the built `qualm` binary without waiting for it, output ignored, for a test that kills it. */
export function startQualm(args: readonly string[], env: Environment = {}): ChildProcess {
  return spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, ...env },
    stdio: 'ignore',
  });
}

/**
 * The environment of a run against a test endpoint: this API key, and no `OPENAI_BASE_URL` or
 * `QUALM_JUDGE_MODEL` from the shell the tests run in.
 */
export function endpointEnvironment(apiKey: string): Environment {
  return { OPENAI_API_KEY: apiKey, OPENAI_BASE_URL: undefined, QUALM_JUDGE_MODEL: undefined };
}
