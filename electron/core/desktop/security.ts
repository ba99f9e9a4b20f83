/**
 * The popover's hardening rules as data, so they are tested in plain Node and main.ts only wires
 * them to Electron. The popover is served from a private scheme (`perch://app/`) rather than
 * `file://`: a standard, secure origin makes `'self'` in the CSP mean exactly the app's files,
 * and nothing else on disk is reachable from the renderer.
 */
import path from 'node:path';

export const appScheme = 'perch';
const appHost = 'app';

/** The popover's entry page; also the only URL whose frames may call the bridge. */
export const appEntryUrl = `${appScheme}://${appHost}/index.html`;

export const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  // Svelte transitions and the inline styles some components set need this; scripts do not.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  // The renderer never talks to a network: every request goes through the bridge.
  "connect-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ');

/** Headers every response of the app's scheme carries. */
export const appResponseHeaders: Readonly<Record<string, string>> = {
  'Content-Security-Policy': contentSecurityPolicy,
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

function parse(url: string | null | undefined): URL | null {
  if (!url) return null;
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/**
 * True for the app's own page (any query or fragment), false for everything else — other paths
 * of the scheme included, since the popover is one page. Used for navigation and for IPC senders.
 */
export function isAllowedNavigation(url: string | null | undefined, appUrl: string): boolean {
  const target = parse(url);
  const own = parse(appUrl);
  if (!target || !own) return false;
  return (
    target.protocol === own.protocol &&
    // Hosts are case-insensitive; Node keeps a custom scheme's host as written.
    target.host.toLowerCase() === own.host.toLowerCase() &&
    target.username === '' &&
    target.password === '' &&
    target.pathname === own.pathname
  );
}

/** Whether an IPC message may reach the core: only from the app's own top-level page. */
export const isAppSender = isAllowedNavigation;

/**
 * Nothing the popover does needs a browser permission — notifications are shown by the main
 * process — so every request and check is refused; the set is where a deliberate grant would go.
 */
const grantedPermissions: ReadonlySet<string> = new Set<string>();

export function permissionDecision(permission: string): boolean {
  return grantedPermissions.has(permission);
}

export interface WindowOpenDecision {
  action: 'deny';
  /** A web link the user clicked, to open in their browser instead; null for anything else. */
  openExternally: string | null;
}

/** New windows are never created; web links go to the user's browser, other schemes nowhere. */
export function windowOpenDecision(url: string): WindowOpenDecision {
  const target = parse(url);
  const isWeb = target !== null && (target.protocol === 'https:' || target.protocol === 'http:');
  return { action: 'deny', openExternally: isWeb && target.username === '' && target.password === '' ? target.href : null };
}

/**
 * The file under `rootDir` that a request to the app's scheme names, or null when the request is
 * for another host, is malformed, or would escape the folder (`..`, encoded separators).
 */
export function resolveAppAsset(requestUrl: string, rootDir: string): string | null {
  const target = parse(requestUrl);
  if (!target || target.protocol !== `${appScheme}:` || target.host.toLowerCase() !== appHost) return null;
  let relative: string;
  try {
    relative = decodeURIComponent(target.pathname);
  } catch {
    return null;
  }
  if (relative.includes('\0') || relative.includes('\\')) return null;
  if (relative === '/' || relative === '') relative = '/index.html';
  const root = path.resolve(rootDir);
  const file = path.resolve(root, `.${relative}`);
  return file.startsWith(root + path.sep) ? file : null;
}
