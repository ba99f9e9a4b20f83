import { svelte } from '@sveltejs/vite-plugin-svelte';
import { svelteTesting } from '@testing-library/svelte/vite';
import { defineConfig } from 'vitest/config';
import { rendererAliases } from './renderer/vite.config.js';

/** Tests that build the app into dist/ (the package) or run what is there (Electron). */
const appBuildTests = ['test/shell/package.test.ts', 'test/shell/native-modules.test.ts', 'test/e2e/electron-app.test.ts'];

export default defineConfig({
  test: {
    // Every integration test file starts its own service on a fresh database; two cores.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 20_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/renderer/**', ...appBuildTests],
          environment: 'node',
          sequence: { groupOrder: 0 },
        },
      },
      {
        // These build dist/ and then use it: one at a time, after everything else.
        extends: true,
        test: { name: 'app build', include: appBuildTests, environment: 'node', fileParallelism: false, sequence: { groupOrder: 1 } },
      },
      {
        // Component tests: the popover's Svelte components in a DOM, with Svelte's browser build.
        extends: true,
        plugins: [svelte({ configFile: false }), svelteTesting()],
        resolve: { alias: rendererAliases },
        test: { name: 'renderer', include: ['test/renderer/**/*.test.ts'], environment: 'jsdom', sequence: { groupOrder: 0 } },
      },
    ],
  },
});
