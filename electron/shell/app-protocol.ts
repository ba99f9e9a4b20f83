/**
 * The popover's private scheme, perch://app: its pages come from the built renderer in the app's
 * files, with the app's security headers.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { app, net, protocol } from 'electron';
import { appLayout } from '../core/desktop/app-layout.js';
import { appResponseHeaders, appScheme, resolveAppAsset } from '../core/desktop/security.js';

/**
 * Must happen before `ready`. A standard, secure scheme gives the popover a real origin for
 * 'self' in the CSP; Vite's `<script type="module" crossorigin>` is fetched in CORS mode.
 */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: appScheme, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true } },
  ]);
}

/** Once ready: answers the scheme's requests. */
export function serveAppScheme(): void {
  protocol.handle(appScheme, serveAppAsset);
}

async function serveAppAsset(request: Request): Promise<Response> {
  const file = resolveAppAsset(request.url, path.join(app.getAppPath(), appLayout.renderer));
  if (file === null) return new Response('Not found', { status: 404, headers: appResponseHeaders });
  const response = await net.fetch(pathToFileURL(file).toString());
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(appResponseHeaders)) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
