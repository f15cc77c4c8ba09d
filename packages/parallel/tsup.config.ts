import { packageBuildConfig } from '../../tsup.shared.js';

// the worker is its own entry: worker threads load it by file name
export default packageBuildConfig({ entry: ['src/index.ts', 'src/worker.ts'] });
