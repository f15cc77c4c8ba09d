import { packageTestConfig } from '../../vitest.shared.js';

// the pool tests start worker threads and read files of several megabytes
export default packageTestConfig({ testTimeout: 60_000 });
