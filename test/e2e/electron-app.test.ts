/**
 * Perch in a real Electron: the packaged shell, preload and renderer together. Needs the Electron
 * binary, which cannot be downloaded on our build machines: there the test is reported as
 * skipped, by name, with the reason. `require('electron')` is not used to find the binary, since
 * outside Electron it tries to download it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandNames } from '../../electron/bridge.js';
import { appEntryUrl } from '../../electron/core/desktop/security.js';
import { buildApp } from '../../build/scripts/app-build.js';

type Electron = typeof import('electron');

/** The part of Playwright's `_electron` API this test uses; Playwright is loaded only when needed. */
interface ElectronPage {
  url(): string;
  waitForLoadState(state: 'domcontentloaded'): Promise<void>;
  evaluate<R>(fn: () => R | Promise<R>): Promise<R>;
  screenshot(options: { path: string }): Promise<unknown>;
}
interface ElectronApplication {
  firstWindow(): Promise<ElectronPage>;
  evaluate<R>(fn: (electron: Electron) => R | Promise<R>): Promise<R>;
  close(): Promise<void>;
}
interface PlaywrightElectron {
  launch(options: { executablePath: string; args: string[]; env: Record<string, string>; timeout: number }): Promise<ElectronApplication>;
}

const appRoot = path.resolve(import.meta.dirname, '../..');

function findElectronBinary(): { binary: string } | { reason: string } {
  let packageDir: string;
  try {
    packageDir = path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return { reason: 'the electron package is not installed' };
  }
  const pathFile = path.join(packageDir, 'path.txt');
  if (!existsSync(pathFile)) return { reason: `no Electron binary: ${pathFile} is missing (the binary download failed or was skipped)` };
  const dist = process.env['ELECTRON_OVERRIDE_DIST_PATH'] ?? path.join(packageDir, 'dist');
  const binary = path.join(dist, readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? { binary } : { reason: `no Electron binary at ${binary}` };
}

const testName = 'launches Perch in Electron, shows the tray popover, and tries it on this computer';
const found = findElectronBinary();
const electronBinary = 'binary' in found ? found.binary : null;
if ('reason' in found) console.info(`Skipped "Perch in Electron > ${testName}": ${found.reason}.`);

async function loadPlaywrightElectron(): Promise<PlaywrightElectron> {
  // Any of these carries `_electron`; the names are variables so type-checking does not need them installed.
  for (const name of ['playwright', 'playwright-core', '@playwright/test']) {
    try {
      const module = (await import(name)) as { _electron?: PlaywrightElectron };
      if (module._electron) return module._electron;
    } catch {
      // Not installed; try the next.
    }
  }
  throw new Error('The Electron test needs Playwright: npm install --save-dev @playwright/test');
}

describe('Perch in Electron', () => {
  it.skipIf(electronBinary === null)(testName, { timeout: 60_000 }, async () => {
    await buildApp();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'perch-electron-'));
    const electron = await loadPlaywrightElectron();
    const perch = await electron.launch({
      executablePath: electronBinary!,
      // A fresh data folder: nothing of the developer's own Perch is read or changed.
      args: [appRoot, `--user-data-dir=${dataDir}`],
      env: { ...(process.env as Record<string, string>), XDG_CONFIG_HOME: dataDir, APPDATA: dataDir },
      timeout: 30_000,
    });
    try {
      const page = await perch.firstWindow();
      await page.waitForLoadState('domcontentloaded');
      expect(page.url()).toBe(appEntryUrl);
      // The popover starts hidden; opening it is what a tray click does.
      expect(await perch.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.isVisible())).toBe(false);
      await perch.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.show());
      expect(await perch.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.isVisible())).toBe(true);

      const exposed = await page.evaluate(() => {
        const scope = globalThis as unknown as { perch: Record<string, unknown>; require?: unknown; process?: unknown };
        return { bridge: Object.keys(scope.perch).sort(), require: typeof scope.require, process: typeof scope.process };
      });
      expect(exposed).toEqual({ bridge: [...commandNames, 'on'].sort(), require: 'undefined', process: 'undefined' });

      const state = await page.evaluate(async () => {
        const perchApi = (globalThis as unknown as { perch: { getState(): Promise<{ phase: string; keychain: unknown }> } }).perch;
        return perchApi.getState();
      });
      expect(['signedOut', 'signingIn', 'ready']).toContain(state.phase);

      // First run in the real app: the local service in an Electron utility process, demo resources free now.
      const tried = await page.evaluate(async () => {
        const perchApi = (globalThis as unknown as { perch: { tryThisComputer(): Promise<{ ok: boolean; value?: { phase: string; freeNow: unknown[] } }> } }).perch;
        return perchApi.tryThisComputer();
      });
      expect(tried.ok).toBe(true);
      expect(tried.value?.phase).toBe('ready');
      expect(tried.value?.freeNow.length).toBeGreaterThan(0);

      const artifacts = path.join(appRoot, 'test-results');
      await mkdir(artifacts, { recursive: true });
      await page.screenshot({ path: path.join(artifacts, 'electron-popover.png') });
    } finally {
      await perch.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
