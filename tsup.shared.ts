import { defineConfig } from 'tsup';

/**
 * The build every package shares: ES modules for Node 20 with source maps, and one bundled
 * declaration file. Declarations are checked against the sibling packages' declaration files,
 * which turbo builds first, rather than their sources (the `@qualm/source` condition the tests and
 * `pnpm typecheck` use): the same declarations in half the time, since a package no longer
 * type-checks every package it imports.
 */
export function packageBuildConfig(options: { entry?: string[] } = {}) {
  return defineConfig({
    entry: options.entry ?? ['src/index.ts'],
    format: ['esm'],
    dts: { entry: 'src/index.ts', compilerOptions: { customConditions: [] } },
    clean: true,
    sourcemap: true,
    target: 'node20',
  });
}
