/**
 * What any page in Perch may do: nothing beyond the app page's own origin. The decisions are the
 * core's (core/desktop/security.ts); this applies them to Electron's session and web contents.
 */
import { app, session, shell, type WebContents } from 'electron';
import {
  appEntryUrl,
  contentSecurityPolicy,
  isAllowedNavigation,
  permissionDecision,
  windowOpenDecision,
} from '../core/desktop/security.js';

/** Every web contents the app creates, from the first, is locked down as it is created. */
export function hardenEveryWebContents(): void {
  app.on('web-contents-created', (_event, contents) => hardenContents(contents));
}

/** Once ready: permissions denied, and the CSP on every response. */
export function hardenSession(): void {
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_contents, permission, callback) => callback(permissionDecision(permission)));
  ses.setPermissionCheckHandler((_contents, permission) => permissionDecision(permission));
  // The app's scheme sends the CSP itself; this covers any other response a page might get.
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [contentSecurityPolicy] } });
  });
}

function hardenContents(contents: WebContents): void {
  contents.on('will-navigate', (event) => {
    if (!isAllowedNavigation(event.url, appEntryUrl)) event.preventDefault();
  });
  contents.on('will-redirect', (event) => {
    if (!isAllowedNavigation(event.url, appEntryUrl)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    const decision = windowOpenDecision(url);
    if (decision.openExternally !== null) void shell.openExternal(decision.openExternally);
    return { action: decision.action };
  });
}
