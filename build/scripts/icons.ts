/**
 * `npm run build:icons`: draws every icon from build/glyph.svg, and the outputs are committed.
 * Chromium renders each size from the vector (no scaled-down bitmaps); the ICO and ICNS files
 * embed those PNGs.
 *
 * - build/icon.png, build/icon.ico, build/icon.icns, build/icons/<n>x<n>.png: the app's icon, the
 *   glyph in white on a rounded tile (macOS's icon grid: an 824 px tile on a 1024 px canvas; the
 *   smallest sizes fill their canvas).
 * - build/tray/: macOS template images (black and alpha; macOS tints them), `tray-light.png` (a
 *   dark glyph for light Windows taskbars) and `tray-dark.png` (a light glyph for dark ones), and
 *   `tray-color.png`, the app icon at tray size for Linux panels, whose colour apps cannot know:
 *   its light glyph on its own tile reads on dark and light panels alike. Each with @2x.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { appLayout } from '../../electron/core/desktop/app-layout.js';
import { chromiumLaunchOptions } from './chromium.js';
import { icnsFile, icnsPixelSizes, icoFile } from './icon-containers.js';
import { projectRoot } from './project-root.js';

const icoSizes = [16, 24, 32, 48, 64, 128, 256];
const linuxSizes = [16, 24, 32, 48, 64, 128, 256, 512];

const trayGlyphs = [
  { name: 'trayTemplate', color: '#000000' },
  { name: 'tray-light', color: '#202020' },
  { name: 'tray-dark', color: '#ffffff' },
];
const trayPixels = 16;
/** Linux panels draw tray icons at 22 to 24 pixels (GNOME's AppIndicator extension, KDE Plasma, Xfce). */
const linuxTrayPixels = 24;

/** The glyph's own <svg> element, placed and coloured inside another drawing. */
function placedGlyph(glyph: string, attributes: string): string {
  return glyph.replace('<svg ', `<svg ${attributes} `);
}

/** Up to this size the tile fills the canvas: the icon grid's margin would leave a blur of a few pixels. */
const fullBleedUpTo = 48;

function appIconSvg(glyph: string, pixels: number): string {
  const tile = pixels <= fullBleedUpTo ? { inset: 0, side: 1024, glyph: 704 } : { inset: 100, side: 824, glyph: 560 };
  // The glyph's drawing sits 1.25 units below its box's centre: lift it to centre it on the tile.
  const glyphX = (1024 - tile.glyph) / 2;
  const glyphY = glyphX - (tile.glyph / 32) * 1.25;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1024 1024">
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#42b9b0"/>
      <stop offset="1" stop-color="#1a6e8e"/>
    </linearGradient>
  </defs>
  <rect x="${tile.inset}" y="${tile.inset}" width="${tile.side}" height="${tile.side}" rx="${tile.side * 0.225}" fill="url(#sky)"/>
  ${placedGlyph(glyph, `x="${glyphX}" y="${glyphY}" width="${tile.glyph}" height="${tile.glyph}" color="#ffffff"`)}
</svg>`;
}

async function renderPng(page: Page, svg: string, pixels: number): Promise<Buffer> {
  await page.setViewportSize({ width: pixels, height: pixels });
  const sized = svg.replace('<svg ', `<svg width="${pixels}" height="${pixels}" `);
  await page.setContent(`<style>html, body { margin: 0; background: transparent; } svg { display: block; }</style>${sized}`);
  return page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: pixels, height: pixels } });
}

async function writeOutput(relativePath: string, data: Buffer): Promise<void> {
  const file = join(projectRoot, relativePath);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, data);
}

const glyph = await readFile(join(projectRoot, 'build/glyph.svg'), 'utf8');
const browser = await chromium.launch(chromiumLaunchOptions);
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });

  const appPngs = new Map<number, Buffer>();
  for (const pixels of new Set([...icoSizes, ...linuxSizes, ...icnsPixelSizes, linuxTrayPixels, linuxTrayPixels * 2])) {
    appPngs.set(pixels, await renderPng(page, appIconSvg(glyph, pixels), pixels));
  }
  const appPng = (pixels: number): Buffer => {
    const png = appPngs.get(pixels);
    if (!png) throw new Error(`No ${pixels} px rendering of the app icon.`);
    return png;
  };
  await writeOutput('build/icon.png', appPng(1024));
  await writeOutput('build/icon.ico', icoFile(icoSizes.map((size) => ({ size, png: appPng(size) }))));
  await writeOutput('build/icon.icns', icnsFile(appPng));
  for (const size of linuxSizes) await writeOutput(`build/icons/${size}x${size}.png`, appPng(size));

  await writeOutput(`${appLayout.trayIcons}/tray-color.png`, appPng(linuxTrayPixels));
  await writeOutput(`${appLayout.trayIcons}/tray-color@2x.png`, appPng(linuxTrayPixels * 2));
  for (const { name, color } of trayGlyphs) {
    const tray = placedGlyph(glyph, `color="${color}"`);
    await writeOutput(`${appLayout.trayIcons}/${name}.png`, await renderPng(page, tray, trayPixels));
    await writeOutput(`${appLayout.trayIcons}/${name}@2x.png`, await renderPng(page, tray, trayPixels * 2));
  }
} finally {
  await browser.close();
}
console.log('Wrote the app icons to build/ and the tray icons to build/tray/.');
