import { packageTestConfig } from '../../vitest.shared.js';

// the example app's tests run `pnpm start` in a child process, which on a loaded 2-core machine
// has taken a minute
export default packageTestConfig({ testTimeout: 120_000 });
