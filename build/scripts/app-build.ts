/**
 * Builds everything the app loads into dist/: the popover (Vite) and the three Node entries
 * (esbuild). `npm run build` runs it (build.ts); `npm start` and `npm run dist` build first.
 */
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { build as bundle, type BuildOptions } from 'esbuild';
import { build as buildRenderer } from 'vite';
import { appLayout } from '../../electron/core/desktop/app-layout.js';
import { projectRoot } from './project-root.js';

// Electron 45 runs Node 22 in main, its utility processes and (sandboxed) preloads.
const electronNodeTarget = 'node22';

interface EntryBundle {
  source: string;
  outfile: string;
  options: BuildOptions;
}

export const entries: EntryBundle[] = [
  {
    source: 'electron/main.ts',
    outfile: appLayout.main,
    // npm packages stay in node_modules (native modules cannot be bundled); only our code is inlined.
    options: { format: 'esm', packages: 'external' },
  },
  {
    source: 'electron/preload.ts',
    outfile: appLayout.preload,
    // A sandboxed preload is a CommonJS script that can require only `electron`: everything else goes in.
    options: { format: 'cjs', external: ['electron'] },
  },
  {
    source: 'electron/service/host.ts',
    outfile: appLayout.serviceHost,
    options: { format: 'esm', packages: 'external' },
  },
];

export async function buildApp(): Promise<void> {
  const missing = entries.filter((entry) => !existsSync(join(projectRoot, entry.source)));
  if (missing.length > 0) throw new Error(`The build's entry ${missing.map((entry) => entry.source).join(', ')} is missing.`);

  // Nothing stale from an earlier build may end up in a package.
  for (const folder of new Set(entries.map((entry) => dirname(entry.outfile)))) {
    await rm(join(projectRoot, folder), { recursive: true, force: true });
  }
  await buildRenderer({ configFile: join(projectRoot, 'renderer/vite.config.ts'), logLevel: 'warn' });
  await Promise.all(
    entries.map((entry) =>
      bundle({
        absWorkingDir: projectRoot,
        entryPoints: [entry.source],
        outfile: entry.outfile,
        bundle: true,
        platform: 'node',
        target: electronNodeTarget,
        logLevel: 'warning',
        ...entry.options,
      }),
    ),
  );
}
