import { request } from 'node:http';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../electron/api/client.js';
import { apiRootPath } from '../../electron/api/operations.js';
import { isOwnLoopbackHost } from '../../electron/service/http/host-guard.js';
import { adminCredentials, startTestService, type TestService } from '../support/service.js';

let service: TestService;
let port: number;
beforeAll(async () => {
  service = await startTestService({ now: DateTime.utc(2026, 12, 1, 9) });
  port = Number(new URL(service.apiRoot).port);
});
afterAll(() => service.dispose());

/** A GET with the Host header a browser would send for a page of that name. */
function getWithHost(host: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port, path: `${apiRootPath}/Resources/Status`, headers: { Host: host } }, (answer) => {
      let text = '';
      answer.on('data', (chunk: Buffer) => (text += chunk.toString()));
      answer.on('end', () => resolve({ status: answer.statusCode ?? 0, body: JSON.parse(text) }));
    });
    sent.on('error', reject);
    sent.end();
  });
}

describe('only the loopback address it listens on is answered (no DNS rebinding)', () => {
  it.each(['127.0.0.1', 'localhost', 'LOCALHOST', '127.0.0.2'])('answers Host %s at its own port', async (name) => {
    expect((await getWithHost(`${name}:${port}`)).status).toBe(200);
  });

  it.each(['evil.example', 'evil.example:PORT', '127.0.0.1.evil.example:PORT', '127.0.0.1:1', '[::2]:PORT'])(
    'refuses Host %j with the envelope',
    async (host) => {
      const answer = await getWithHost(host.replace('PORT', String(port)));
      expect(answer).toEqual({ status: 403, body: { links: [], message: 'This service answers only at its own loopback address.' } });
    },
  );

  it('reads IPv6 loopback and a missing port as HTTP would', () => {
    expect(isOwnLoopbackHost('[::1]:8750', 8750)).toBe(true);
    expect(isOwnLoopbackHost('localhost', 80)).toBe(true);
    expect(isOwnLoopbackHost('localhost', 8750)).toBe(false);
    expect(isOwnLoopbackHost(undefined, 8750)).toBe(false);
  });
});

describe('sign-in is throttled per account and per client', () => {
  const signIn = (username: string, password: string) =>
    service.call('POST', '/Authentication/Authenticate', { body: { username, password } });

  it('refuses an account after five failures in 15 minutes, even with the right password, and lifts when they age out', async () => {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await signIn(adminCredentials.username, 'wrong')).body).toMatchObject({ isAuthenticated: false });
    }
    const refused = await signIn(adminCredentials.username, adminCredentials.password);
    expect(refused).toMatchObject({ status: 429, body: { links: [], message: 'Too many failed sign-ins. Try again in 15 minutes.' } });
    service.clock.set(service.clock.now().plus({ minutes: 14 }));
    expect((await signIn(adminCredentials.username, adminCredentials.password)).body).toMatchObject({
      message: 'Too many failed sign-ins. Try again in 1 minute.',
    });
    service.clock.set(service.clock.now().plus({ minutes: 1, seconds: 1 }));
    expect((await signIn(adminCredentials.username, adminCredentials.password)).body).toMatchObject({ isAuthenticated: true });
  });

  it('a success clears the account, so a later slip starts counting again', async () => {
    service.clock.set(service.clock.now().plus({ hours: 1 }));
    for (let attempt = 0; attempt < 4; attempt += 1) await signIn(adminCredentials.username, 'wrong');
    expect((await signIn(adminCredentials.username, adminCredentials.password)).body).toMatchObject({ isAuthenticated: true });
    expect((await signIn(adminCredentials.username, 'wrong')).status).toBe(200);
  });

  it('the client reads the refusal as the service words it', async () => {
    service.clock.set(service.clock.now().plus({ hours: 1 }));
    const client = createClient({ apiRoot: service.apiRoot });
    for (let attempt = 0; attempt < 5; attempt += 1) await client.authenticate({ body: { username: 'someone', password: 'wrong' } });
    expect(await client.authenticate({ body: { username: 'someone', password: 'wrong' } })).toEqual({
      ok: false,
      error: { kind: 'forbidden', status: 429, message: 'Too many failed sign-ins. Try again in 15 minutes.' },
    });
  });

  it('refuses a client after twenty failures over any accounts, until they age out', async () => {
    service.clock.set(service.clock.now().plus({ hours: 1 }));
    for (let attempt = 0; attempt < 20; attempt += 1) expect((await signIn(`nobody-${attempt}`, 'wrong')).status).toBe(200);
    expect((await signIn(adminCredentials.username, adminCredentials.password)).status).toBe(429);
    service.clock.set(service.clock.now().plus({ minutes: 16 }));
    expect((await signIn(adminCredentials.username, adminCredentials.password)).body).toMatchObject({ isAuthenticated: true });
  });
});
