import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  appEntryUrl,
  appResponseHeaders,
  contentSecurityPolicy,
  isAllowedNavigation,
  isAppSender,
  permissionDecision,
  resolveAppAsset,
  windowOpenDecision,
} from '../../electron/core/desktop/security.js';

describe('isAllowedNavigation (and isAppSender)', () => {
  it.each([
    [appEntryUrl, true],
    ['perch://app/index.html#/settings', true],
    ['perch://app/index.html?view=book', true],
    ['PERCH://APP/index.html', true],
    ['perch://app/', false],
    ['perch://app/other.html', false],
    ['perch://evil/index.html', false],
    ['perch://user:pw@app/index.html', false],
    ['file:///opt/perch/dist/renderer/index.html', false],
    ['https://app/index.html', false],
    ['http://127.0.0.1:5173/index.html', false],
    ['about:blank', false],
    ['javascript:alert(1)', false],
    ['not a url', false],
    ['', false],
    [null, false],
    [undefined, false],
  ])('%s → %s', (url, allowed) => {
    expect(isAllowedNavigation(url, appEntryUrl)).toBe(allowed);
    expect(isAppSender(url, appEntryUrl)).toBe(allowed);
  });
});

describe('permissionDecision', () => {
  it.each([
    'notifications',
    'geolocation',
    'media',
    'clipboard-read',
    'clipboard-sanitized-write',
    'openExternal',
    'fullscreen',
    'unknown',
  ])('denies %s', (permission) => {
    expect(permissionDecision(permission)).toBe(false);
  });
});

describe('windowOpenDecision', () => {
  it.each([
    ['https://librebooking.example.org/help', 'https://librebooking.example.org/help'],
    ['http://intranet.example/rooms', 'http://intranet.example/rooms'],
    ['https://user:secret@example.org/', null],
    ['perch://app/index.html', null],
    ['file:///etc/passwd', null],
    ['javascript:alert(1)', null],
    ['mailto:someone@example.org', null],
    ['smb://share/x', null],
    ['garbage', null],
  ])('%s: no window; opened in the browser: %s', (url, external) => {
    expect(windowOpenDecision(url)).toEqual({ action: 'deny', openExternally: external });
  });
});

describe('resolveAppAsset', () => {
  const root = path.resolve('/opt/perch/dist/renderer');
  it.each([
    ['perch://app/index.html', path.join(root, 'index.html')],
    ['perch://app/', path.join(root, 'index.html')],
    ['perch://app/assets/index-abc123.js', path.join(root, 'assets', 'index-abc123.js')],
    ['perch://app/assets/a%20b.css', path.join(root, 'assets', 'a b.css')],
    ['perch://app/index.html?x=1#top', path.join(root, 'index.html')],
    // Dot segments, even encoded, are resolved by the URL parser: they can only land inside.
    ['perch://app/../../etc/passwd', path.join(root, 'etc', 'passwd')],
    ['perch://app/%2e%2e/%2e%2e/etc/passwd', path.join(root, 'etc', 'passwd')],
    ['perch://app/assets/..%2f..%2f..%2fsecret', null],
    ['perch://app/..%5c..%5csecret', null],
    ['perch://app/a%00b', null],
    ['perch://app/%E0%A4%A', null],
    ['PERCH://APP/index.html', path.join(root, 'index.html')],
    ['perch://other/index.html', null],
    ['https://app/index.html', null],
  ])('%s → %s', (url, file) => {
    expect(resolveAppAsset(url, root)).toBe(file);
  });
});

describe('the content security policy', () => {
  it('is the strict policy, sent with every app response', () => {
    expect(contentSecurityPolicy).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'none'; " +
        "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'",
    );
    expect(appResponseHeaders['Content-Security-Policy']).toBe(contentSecurityPolicy);
    expect(appResponseHeaders['X-Content-Type-Options']).toBe('nosniff');
  });
});
