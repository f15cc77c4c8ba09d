import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

const repositoryRoot = fileURLToPath(new URL('.', import.meta.url));

/**
 * Test files to leave out of this run, from QUALM_TEST_SKIP: paths from the repository root, comma
 * separated ("packages/validator/test/fast-scan.test.ts"). CI sets it for its second pass, on Node
 * 22, for files that pass 1 already ran on Node 22 or that check pure logic at length; see
 * .ci/run. Those of other packages are ignored here.
 */
function skippedHere(): string[] {
  const here = relative(repositoryRoot, process.cwd());
  return (process.env.QUALM_TEST_SKIP ?? '')
    .split(',')
    .map((path) => path.trim())
    .filter((path) => path.startsWith(`${here}/`))
    .map((path) => path.slice(here.length + 1));
}

/** Vitest settings every package shares: sources of sibling packages, and a JSON report for CI. */
export function packageTestConfig(options: { testTimeout?: number; maxWorkers?: number } = {}) {
  return defineConfig({
    resolve: { conditions: ['@qualm/source'] },
    ssr: { resolve: { conditions: ['@qualm/source'] } },
    test: {
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      exclude: [...configDefaults.exclude, ...skippedHere()],
      passWithNoTests: true,
      // test files run one after another in the same worker, sharing its loaded modules: no test
      // mocks a module or leaves a global changed, and loading the packages and their
      // dependencies once per worker, not once per file, more than halves the CPU time of several
      // packages' tests
      isolate: false,
      // generous: on a shared 2-core machine a model's first load can take ten times its usual time
      testTimeout: options.testTimeout ?? 60_000,
      ...(options.maxWorkers !== undefined ? { maxWorkers: options.maxWorkers } : {}),
      reporters: ['default', 'json'],
      outputFile: { json: './test-results.json' },
    },
  });
}
