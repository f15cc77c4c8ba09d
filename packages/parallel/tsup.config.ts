import { defineConfig } from 'tsup';

export default defineConfig({
  // the worker is its own entry: worker threads load it by file name
  entry: ['src/index.ts', 'src/worker.ts'],
  format: ['esm'],
  dts: { entry: 'src/index.ts' },
  clean: true,
  sourcemap: true,
  target: 'node20',
});
