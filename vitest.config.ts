import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'apps/server/src/**/*.test.ts',
      'apps/server/test/**/*.test.ts',
      'apps/web/src/**/*.test.{ts,tsx}',
      'bench/smoke.test.ts',
      'bench/lean-http-client.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration suites each start a real server; two cores, so keep the pool small.
    maxWorkers: 2,
    // Files share their worker's modules instead of importing the server afresh each (import time
    // was ~145 s of a 386 s run); every suite starts its own server and database, so none leans on another's.
    isolate: false,
    // One migrated database per kind for the run; test servers start from copies of it.
    globalSetup: ['apps/server/src/testing/global-setup.ts'],
  },
});
