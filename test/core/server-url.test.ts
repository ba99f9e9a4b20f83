import { describe, expect, it } from 'vitest';
import { normaliseServerUrl, serverReservationPage } from '../../electron/core/session/server-url.js';

describe('normaliseServerUrl', () => {
  it.each([
    ['perch.example.org', 'https://perch.example.org/Web/Services/index.php'],
    ['  perch.example.org  ', 'https://perch.example.org/Web/Services/index.php'],
    ['PERCH.Example.org', 'https://perch.example.org/Web/Services/index.php'],
    ['https://host.example', 'https://host.example/Web/Services/index.php'],
    ['https://host.example/', 'https://host.example/Web/Services/index.php'],
    ['https://host.example/booked/', 'https://host.example/booked/Web/Services/index.php'],
    ['https://host.example/booked', 'https://host.example/booked/Web/Services/index.php'],
    ['https://host.example/Web/Services/index.php', 'https://host.example/Web/Services/index.php'],
    ['https://host.example/Web/Services/index.php/', 'https://host.example/Web/Services/index.php'],
    ['https://host.example/booked/Web/Services/index.php/', 'https://host.example/booked/Web/Services/index.php'],
    ['https://host.example/booked/Web/schedule.php?sid=1#top', 'https://host.example/booked/Web/Services/index.php'],
    ['https://host.example/booked/Web/', 'https://host.example/booked/Web/Services/index.php'],
    ['https://host.example/booked/index.php', 'https://host.example/booked/Web/Services/index.php'],
    ['http://intranet.local', 'http://intranet.local/Web/Services/index.php'],
    ['http://127.0.0.1:8080/Web/Services/index.php', 'http://127.0.0.1:8080/Web/Services/index.php'],
    ['host.example:8443/booked', 'https://host.example:8443/booked/Web/Services/index.php'],
    ['https://host.example:443/', 'https://host.example/Web/Services/index.php'],
    ['http://[::1]:8080/', 'http://[::1]:8080/Web/Services/index.php'],
    ['https://host.example/website/', 'https://host.example/website/Web/Services/index.php'],
  ])('%s becomes %s', (typed, apiRoot) => {
    expect(normaliseServerUrl(typed)).toEqual({ ok: true, value: apiRoot });
  });

  it.each([
    ['', "Enter your organisation's Perch or LibreBooking address, for example booking.example.org."],
    ['   ', "Enter your organisation's Perch or LibreBooking address, for example booking.example.org."],
    ['ftp://host.example', 'Only http:// and https:// addresses can be used.'],
    ['file:///etc/passwd', 'Only http:// and https:// addresses can be used.'],
    ['javascript://alert(1)', 'Only http:// and https:// addresses can be used.'],
    ['not a url', '"not a url" is not a web address. Enter an address such as booking.example.org.'],
    ['https://', '"https://" is not a web address. Enter an address such as booking.example.org.'],
    ['https://exa_mple.org', '"https://exa_mple.org" is not a web address. Enter an address such as booking.example.org.'],
    ['-host.example', '"-host.example" is not a web address. Enter an address such as booking.example.org.'],
    ['https://me:secret@host.example', 'Leave the user name and password out of the address; enter them below instead.'],
  ])('refuses %j', (typed, message) => {
    expect(normaliseServerUrl(typed)).toEqual({ ok: false, error: message });
  });
});

describe('serverReservationPage', () => {
  it.each([
    ['https://host.example/Web/Services/index.php', 'https://host.example/Web/reservation.php?rn=abc123'],
    ['https://host.example/booked/Web/Services/index.php', 'https://host.example/booked/Web/reservation.php?rn=abc123'],
    ['http://127.0.0.1:8080/Web/Services/index.php', 'http://127.0.0.1:8080/Web/reservation.php?rn=abc123'],
  ])("LibreBooking's own reservation page for %s", (apiRoot, page) => {
    expect(serverReservationPage(apiRoot, 'abc123')).toBe(page);
  });

  it('writes a reference number as a query value, whatever it holds', () => {
    expect(serverReservationPage('https://host.example/Web/Services/index.php', 'a&b c')).toBe(
      'https://host.example/Web/reservation.php?rn=a%26b+c',
    );
  });

  it('names no page for what is not an http(s) API root', () => {
    expect(serverReservationPage('file:///srv/Web/Services/index.php', 'abc')).toBeNull();
    expect(serverReservationPage('https://host.example/', 'abc')).toBeNull();
  });
});
