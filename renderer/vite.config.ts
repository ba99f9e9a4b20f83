import { fileURLToPath } from 'node:url';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The one part of electron/ the popover may import, the bridge contract, as `$bridge/…`. Shared with
 * the component tests (vitest.config.ts); renderer/tsconfig.json's `paths` says the same for the type checkers.
 */
export const rendererAliases = { $bridge: here('../electron/bridge') };

export default defineConfig({
  root: here('.'),
  // Relative asset URLs: the same build is served by `vite preview` and by main's perch://app/ scheme.
  base: './',
  plugins: [svelte({ configFile: false })],
  resolve: { alias: rendererAliases },
  build: {
    // main.ts loads the popover from dist/renderer.
    outDir: here('../dist/renderer'),
    emptyOutDir: true,
    target: 'chrome120',
  },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
});
