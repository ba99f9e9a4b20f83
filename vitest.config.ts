import { svelte } from '@sveltejs/vite-plugin-svelte';
import { svelteTesting } from '@testing-library/svelte/vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Every integration test file starts its own service on a fresh database; two cores.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 20_000,
    projects: [
      {
        extends: true,
        test: { name: 'node', include: ['test/**/*.test.ts'], exclude: ['test/renderer/**'], environment: 'node' },
      },
      {
        // Component tests: the popover's Svelte components in a DOM, with Svelte's browser build.
        extends: true,
        plugins: [svelte({ configFile: false }), svelteTesting()],
        test: { name: 'renderer', include: ['test/renderer/**/*.test.ts'], environment: 'jsdom' },
      },
    ],
  },
});
