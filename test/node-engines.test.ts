/**
 * The Node versions Perch supports (package.json `engines`): the suite runs on one of them, and
 * every installed package that declares a newer Node than ours (npm ci warns EBADENGINE for it)
 * was checked to work on ours, for the part of Perch that loads it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { projectRoot } from '../build/scripts/project-root.js';

// npm's own version-range rules (a dependency of the build tools; it ships no types).
const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
};

interface PackageManifest {
  name?: string;
  version?: string;
  engines?: { node?: string };
}

function manifest(path: string): PackageManifest {
  return JSON.parse(readFileSync(path, 'utf8')) as PackageManifest;
}

const supported = manifest(join(projectRoot, 'package.json')).engines?.node ?? '';

/**
 * Each package that asks for a newer Node than Perch's oldest, with where it runs and how that
 * was checked on Node 20.20.
 */
const checkedOnOurNode: Record<string, string> = {
  // `node node_modules/electron/install.js` (README): downloaded, verified and unpacked Electron
  // from a local mirror; its ESM-only packages load through require(esm), on from Node 20.19.
  electron: 'the electron package: install.js and cli.js',
  '@electron/get': "electron's install.js: the download",
  '@electron-internal/extract-zip': "electron's install.js: unpacking",
  // app-builder-lib loads them; `npmRebuild: false` rebuilds nothing (test/shell/package.test.ts builds a package).
  '@electron/rebuild': 'npm run dist (loaded, not run)',
  'node-abi': 'npm run dist (loaded, not run)',
  // The end-to-end tests' accessibility checks.
  '@axe-core/playwright': 'test/e2e',
  // fastify's inject() (light-my-request, loaded on its first use); ESM only, through require(esm).
  cookie: "fastify's inject()",
};

function packagesAskingForNewerNode(folder: string, found: Map<string, string>): void {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const path = join(folder, entry.name);
    if (entry.name.startsWith('@')) {
      packagesAskingForNewerNode(path, found);
      continue;
    }
    let own: PackageManifest;
    try {
      own = manifest(join(path, 'package.json'));
    } catch {
      continue;
    }
    const wanted = own.engines?.node;
    if (own.name !== undefined && wanted !== undefined && !semver.satisfies(semver.minVersion(supported)?.version ?? '', wanted)) {
      found.set(own.name, `${own.name}@${own.version ?? '?'} wants Node ${wanted}`);
    }
    try {
      packagesAskingForNewerNode(join(path, 'node_modules'), found);
    } catch {
      // no nested node_modules
    }
  }
}

it('runs on a Node that package.json supports', () => {
  expect(supported).toBe('^20.19.0 || >=22.12.0');
  expect(semver.satisfies(process.versions.node, supported), `Node ${process.versions.node}`).toBe(true);
});

it('leaves out the Node 22 releases before 22.12, which load no ES module through require()', () => {
  expect(semver.satisfies('22.11.0', supported)).toBe(false);
  expect(semver.satisfies('20.18.3', supported)).toBe(false);
});

it('knows every installed package that asks for a newer Node than ours, and where each was checked', () => {
  const found = new Map<string, string>();
  packagesAskingForNewerNode(join(projectRoot, 'node_modules'), found);
  expect(
    [...found.keys()].filter((name) => !(name in checkedOnOurNode)),
    [...found.values()].join('\n'),
  ).toEqual([]);
  expect(Object.keys(checkedOnOurNode).filter((name) => !found.has(name))).toEqual([]);
});
