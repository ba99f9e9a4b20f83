import { apiRootPath } from '../../api/operations.js';
import type { Result } from '../../api/result.js';

/** The API root, or what to tell the user about what they typed. */
export type ServerUrlResult = Result<string, string>;

const messages = {
  empty: "Enter your organisation's Perch or LibreBooking address, for example booking.example.org.",
  scheme: 'Only http:// and https:// addresses can be used.',
  invalid: (text: string) => `"${text}" is not a web address. Enter an address such as booking.example.org.`,
  credentials: 'Leave the user name and password out of the address; enter them below instead.',
} as const;

// Letters, digits, dots and hyphens (IDN hosts arrive punycoded from URL), or a bracketed IPv6 address.
const HOST_NAME = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/i;
const IPV6 = /^\[[0-9a-f:.]+\]$/i;
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;

// What people paste: the API root itself, the Web folder, or any page below it
// (…/Web/schedule.php, …/Web/Services/, …/index.php). Everything from `/Web` on is dropped.
const WEB_FOLDER = /\/web(?:\/.*)?$/i;
const TRAILING_INDEX = /\/index\.php$/i;

/**
 * Turns what a user typed into the API root `<base>/Web/Services/index.php`: `booking.example.org`,
 * `https://host`, `https://host/booked/`, the API root itself, or a page of the web app. A missing
 * scheme means https; an explicit `http://` is kept (intranet servers without TLS exist).
 */
export function normaliseServerUrl(typed: string): ServerUrlResult {
  const text = typed.trim();
  if (text === '') return { ok: false, error: messages.empty };
  const scheme = SCHEME.exec(text)?.[1]?.toLowerCase();
  // `host:8080` parses as a scheme named `host`; a real scheme is followed by `//`.
  const hasScheme = scheme !== undefined && text.slice(scheme.length + 1).startsWith('//');
  if (hasScheme && scheme !== 'http' && scheme !== 'https') return { ok: false, error: messages.scheme };
  if (/\s/.test(text)) return { ok: false, error: messages.invalid(text) };
  let url: URL;
  try {
    url = new URL(hasScheme ? text : `https://${text}`);
  } catch {
    return { ok: false, error: messages.invalid(text) };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, error: messages.scheme };
  if (url.username !== '' || url.password !== '') return { ok: false, error: messages.credentials };
  if (!(HOST_NAME.test(url.hostname) || IPV6.test(url.hostname))) return { ok: false, error: messages.invalid(text) };
  let base = url.pathname.replace(/\/+$/, '');
  base = base.replace(WEB_FOLDER, '').replace(TRAILING_INDEX, '').replace(/\/+$/, '');
  return { ok: true, value: `${url.protocol}//${url.host}${base}${apiRootPath}` };
}

/**
 * A reservation's page on a LibreBooking server's website, `<base>/Web/reservation.php?rn=…` (the
 * address LibreBooking itself links to: Pages::RESERVATION with QueryStringKeys::REFERENCE_NUMBER);
 * null when `apiRoot` is not an http(s) API root.
 */
export function serverReservationPage(apiRoot: string, referenceNumber: string): string | null {
  if (!apiRoot.endsWith(apiRootPath) || !/^https?:\/\//i.test(apiRoot)) return null;
  const page = new URL(`${apiRoot.slice(0, -apiRootPath.length)}/Web/reservation.php`);
  page.searchParams.set('rn', referenceNumber);
  return page.href;
}
