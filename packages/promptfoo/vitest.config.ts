import { packageTestConfig } from '../../vitest.shared.js';

// promptfoo eval starts a Node 22 process and loads promptfoo: seconds, more on a busy machine
export default packageTestConfig({ testTimeout: 120_000 });
