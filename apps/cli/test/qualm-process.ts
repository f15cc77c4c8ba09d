import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const bin = fileURLToPath(new URL('../bin/qualm.js', import.meta.url));

/** What a run of the built `qualm` binary printed, and how it exited. */
export interface QualmRun {
  stdout: string;
  stderr: string;
  code: number;
}

/** Runs the built `qualm` binary with arguments and extra environment, never throwing. */
export async function qualm(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<QualmRun> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], {
      env: { ...process.env, ...env },
      maxBuffer: 64 * 1024 * 1024,
    });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failure = error as { stdout: string; stderr: string; code: number };
    return { stdout: failure.stdout, stderr: failure.stderr, code: failure.code };
  }
}
