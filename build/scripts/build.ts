/** `npm run build`: everything the app loads, into dist/. */
import { appLayout } from '../../electron/core/desktop/app-layout.js';
import { buildApp, entries } from './app-build.js';

try {
  await buildApp();
  console.log(`Built ${appLayout.renderer}/ and ${entries.map((entry) => entry.outfile).join(', ')}.`);
} catch (error) {
  console.error(`The build failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
