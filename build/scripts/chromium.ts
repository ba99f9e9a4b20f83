/**
 * How Perch's tools start Chromium headless: Debian's own (Playwright cannot download a browser on
 * our build machines) unless CHROMIUM_PATH names another, with the background services off, since
 * the machines' closed network refuses their connections.
 */
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
};
