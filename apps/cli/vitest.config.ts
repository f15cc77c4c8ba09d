import { packageTestConfig } from '../../vitest.shared.js';

// the CLI's tests mostly wait on child processes, so two test files at a time pay off even on two cores
export default packageTestConfig({ testTimeout: 60_000, maxWorkers: 2 });
