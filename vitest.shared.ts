import { defineConfig } from 'vitest/config';

/** Vitest settings every package shares: sources of sibling packages, and a JSON report for CI. */
export function packageTestConfig(options: { testTimeout?: number; maxWorkers?: number } = {}) {
  return defineConfig({
    resolve: { conditions: ['@qualm/source'] },
    ssr: { resolve: { conditions: ['@qualm/source'] } },
    test: {
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      passWithNoTests: true,
      // generous: on a shared 2-core machine a model's first load can take ten times its usual time
      testTimeout: options.testTimeout ?? 60_000,
      ...(options.maxWorkers !== undefined ? { maxWorkers: options.maxWorkers } : {}),
      reporters: ['default', 'json'],
      outputFile: { json: './test-results.json' },
    },
  });
}
