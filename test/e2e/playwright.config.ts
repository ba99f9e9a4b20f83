import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from '../../build/scripts/chromium.js';

/**
 * The popover end to end: the built renderer in real Chromium, `window.perch` bound to a real core
 * in the test process, which talks to a real local service with the demo organisation.
 * Debian's chromium where it exists (Playwright cannot download browsers here); set CHROMIUM_PATH
 * to use another, or leave it unset on a machine with Playwright's own Chromium installed.
 */
export default defineConfig({
  testDir: '.',
  // Only *.spec.ts: the *.test.ts files in this folder belong to vitest.
  testMatch: '*.spec.ts',
  outputDir: '../../test-results/e2e',
  globalSetup: './support/global-setup.ts',
  fullyParallel: false,
  workers: 2,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  retries: 0,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: chromiumLaunchOptions,
    viewport: { width: 380, height: 560 },
    locale: 'en-GB',
    timezoneId: 'Europe/Berlin',
    trace: 'off',
    screenshot: 'only-on-failure',
  },
});
