import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    // Every integration test file starts its own service on a fresh database; two cores.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 20_000,
  },
});
