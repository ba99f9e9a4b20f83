/**
 * The popover's two budgets (issue 5): from opening the popover with cached state to "Free now"
 * painted, 100 ms (median of several opens), and the built renderer's JavaScript, 100 KB gzipped.
 * Real Chromium (Debian's, or CHROMIUM_PATH) against the built renderer, `window.perch` bound to a
 * real core that already holds state. The budget is judged on what the tray app does when the user
 * clicks the icon: the popover page is already loaded (main keeps it, hidden) and the core is told
 * `popoverOpened()`. The page's cold load is reported too, as the popover window's start-up.
 * Prints the figures, replaces the marked section of BENCHMARKS.md and exits 1 over budget.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from '../../build/scripts/chromium.js';
import { serveBuiltPopover } from '../e2e/support/global-setup.js';
import { bindPerch, startWorld } from '../e2e/support/perch.js';
import { repoRoot, writeReportSection } from './report.js';

const runs = 9;
const paintBudgetMs = 100;
const jsBudgetBytes = 100 * 1024;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/** Every JavaScript file of the build, gzipped at the level servers and asar readers see (9). */
function gzippedScripts(): { files: number; raw: number; gzipped: number } {
  const assets = join(repoRoot, 'dist/renderer/assets');
  const scripts = readdirSync(assets).filter((name) => name.endsWith('.js'));
  let raw = 0;
  let gzipped = 0;
  for (const name of scripts) {
    const content = readFileSync(join(assets, name));
    raw += content.length;
    gzipped += gzipSync(content, { level: 9 }).length;
  }
  return { files: scripts.length, raw, gzipped };
}

async function main(): Promise<void> {
  const popover = await serveBuiltPopover();
  const { url } = popover;
  const size = gzippedScripts();
  const world = await startWorld();
  const browser = await chromium.launch(chromiumLaunchOptions);
  const timings: number[] = [];
  const appTimings: number[] = [];
  const openTimings: number[] = [];
  try {
    // The core holds state before the popover opens, as in the app after its first poll.
    await world.signIn();
    await world.core.idle();
    const freeCount = world.core.snapshot().freeNow.length;
    for (let run = 0; run < runs + 1; run += 1) {
      const page = await browser.newPage({ viewport: { width: 380, height: 560 }, locale: 'en-GB', timezoneId: 'Europe/Berlin' });
      // tsx (esbuild keepNames) wraps named functions in `__name(...)`, which page scripts lack.
      await page.addInitScript('globalThis.__name = (fn) => fn;');
      await bindPerch(page, world.core);
      // Measured from outside the app: the first animation frame after the Free now list (or its
      // empty notice) is in the DOM is the frame that paints it.
      // A string, not a function: the Node project has no DOM types, and this runs in the page.
      await page.addInitScript(`
        const done = () => {
          const heading = [...document.querySelectorAll('h2')].find((element) => element.textContent.trim() === 'Free now');
          const section = heading ? heading.closest('section') ?? heading.parentElement : null;
          return section !== null && section.querySelector('li, p') !== null;
        };
        const watch = () => {
          if (done()) requestAnimationFrame(() => performance.mark('perch:free-now-painted'));
          else requestAnimationFrame(watch);
        };
        requestAnimationFrame(watch);
      `);
      await page.goto(url);
      const painted = await page.waitForFunction(() => performance.getEntriesByName('perch:free-now-painted')[0]?.startTime ?? null, null, {
        timeout: 10_000,
      });
      const ms = (await painted.jsonValue()) as number;
      // The script's arrival splits loading (served over HTTP here, from the app's own scheme in Perch) from the app's own work.
      const scriptLoaded = await page.evaluate(
        () =>
          (
            performance.getEntriesByType('resource').find((entry) => entry.name.endsWith('.js')) as unknown as
              { responseEnd: number } | undefined
          )?.responseEnd ?? 0,
      );
      // The first open warms Chromium's caches; the app's popover window stays warm the same way.
      if (run > 0) {
        timings.push(ms);
        appTimings.push(ms - scriptLoaded);
      }
      await page.close();
    }

    // What the app does (electron/main.ts): the popover window is loaded at start and kept, hidden,
    // holding the cached state; opening shows it and main calls `core.popoverOpened()`, which asks
    // the server for fresh data. Measured from the moment the core is told until the first frame
    // painted after the page applied the fresh snapshot (its `fetchedAt` moved).
    const page = await browser.newPage({ viewport: { width: 380, height: 560 }, locale: 'en-GB', timezoneId: 'Europe/Berlin' });
    await page.addInitScript('globalThis.__name = (fn) => fn;');
    await bindPerch(page, world.core);
    await page.goto(url);
    await page.waitForFunction(`document.querySelector('section[aria-labelledby="free-heading"] li') !== null`, null, { timeout: 10_000 });
    for (let run = 0; run < runs + 1; run += 1) {
      await world.core.idle();
      const before = world.core.snapshot().fetchedAt;
      // The page's listener is added after the app's own, so it runs once the app has adopted the snapshot.
      await page.evaluate(`
        window.__perchOpened = new Promise((resolve) => {
          const stop = window.perch.on('stateChanged', (snapshot) => {
            if (snapshot.fetchedAt === ${JSON.stringify(before)}) return;
            stop();
            // The first frame's callbacks run after Svelte's flush; the second frame starts after that frame painted.
            requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - window.__perchOpenedAt)));
          });
        });
        window.__perchOpenedAt = performance.now();
      `);
      world.core.popoverOpened();
      const ms = (await page.evaluate('window.__perchOpened')) as number;
      if (run > 0) openTimings.push(ms);
    }
    const freshFreeCount = await page.locator('section[aria-labelledby="free-heading"] li').count();
    await page.close();

    const paint = median(openTimings);
    const cold = median(timings);
    const kb = (bytes: number) => (bytes / 1024).toFixed(1);
    const paintOk = paint <= paintBudgetMs;
    const sizeOk = size.gzipped <= jsBudgetBytes;
    const section = [
      '## Popover',
      '',
      `Generated by \`npm run bench\` (\`test/bench/popover.ts\`) on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${cpus().length} cores, Node ${process.version}, Chromium at ${process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'}.`,
      `Built renderer served by \`vite preview\` on 127.0.0.1; \`window.perch\` bound to a real core signed in to the local service with the demo organisation (${freeCount} resources free now), so the page opens on cached state. The bridge is Playwright's \`exposeFunction\` (each call and answer a DevTools-protocol round trip), slower than Electron's IPC.`,
      '',
      `- **Popover opened (the budget):** as in the app, the popover page is already loaded and holds the cached state (\`electron/main.ts\` creates the window hidden at start and only shows it); opening calls the core's \`popoverOpened()\`, which asks the server for fresh data. Measured in the page from the moment the core is told until the second animation frame after the page applied the fresh snapshot (so the frame showing it has painted; the list held ${freshFreeCount} resources). ${runs} opens after one warm-up. The cached list itself is on screen as soon as the window shows: the page has nothing to do for it.`,
      '- **Cold start of the popover window (information):** a fresh page load, from navigation start to the first animation frame after the Free now list is in the DOM; in the app this happens once, when Perch starts, before the popover can be opened. ' +
        `${runs} loads after one warm-up.`,
      '',
      '| Measure | Value | Budget | Result |',
      '| --- | --- | --- | --- |',
      `| Popover opened → fresh "Free now" painted, median of ${runs} | ${paint.toFixed(1)} ms (min ${Math.min(...openTimings).toFixed(1)}, max ${Math.max(...openTimings).toFixed(1)}) | ${paintBudgetMs} ms | ${paintOk ? 'pass' : 'FAIL'} |`,
      `| Cold start of the popover window: navigation → "Free now" painted, median of ${runs} | ${cold.toFixed(1)} ms (min ${Math.min(...timings).toFixed(1)}, max ${Math.max(...timings).toFixed(1)}) | — | info |`,
      `| Cold start, script loaded → "Free now" painted (the app's own part), median of ${runs} | ${median(appTimings).toFixed(1)} ms | — | info |`,
      `| Built JavaScript, gzipped (${size.files} file${size.files === 1 ? '' : 's'}, ${kb(size.raw)} KB raw) | ${kb(size.gzipped)} KB | ${jsBudgetBytes / 1024} KB | ${sizeOk ? 'pass' : 'FAIL'} |`,
    ].join('\n');
    console.log(section);
    writeReportSection('popover-benchmark', section);
    if (!paintOk || !sizeOk) process.exitCode = 1;
  } finally {
    await browser.close();
    await world.dispose();
    popover.stop();
  }
}

await main();
