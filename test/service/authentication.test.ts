import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notFoundBody } from '../support/answers.js';
import { signInAdmin } from '../support/fixtures.js';
import { adminCredentials, startTestService, type TestService } from '../support/service.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.dispose());

describe('Authenticate', () => {
  it('hands out a 50-hex token that expires 30 minutes ahead', async () => {
    const answer = await service.call('POST', '/Authentication/Authenticate', { body: adminCredentials });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ isAuthenticated: true, version: '2.9', links: [], message: null });
    expect(answer.body.sessionToken).toMatch(/^[0-9a-f]{50}$/);
    expect(answer.body.userId).toBe(service.admin.userId);
    const expires = service.clock.now().plus({ minutes: 30 }).toUTC().toFormat("yyyy-MM-dd'T'HH:mm:ss") + '+0000';
    expect(answer.body.sessionExpires).toBe(expires);
  });

  it('accepts the e-mail address as the user name', async () => {
    const answer = await service.call('POST', '/Authentication/Authenticate', {
      body: { username: 'ADMIN@example.org', password: adminCredentials.password },
    });
    expect(answer.body.isAuthenticated).toBe(true);
  });

  it.each([
    ['a wrong password', { username: 'admin', password: 'nope' }],
    ['an unknown user', { username: 'nobody', password: 'nope' }],
  ])('refuses %s with 200 and the real servers’ message', async (_case, body) => {
    const answer = await service.call('POST', '/Authentication/Authenticate', { body });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      sessionToken: null,
      sessionExpires: null,
      userId: null,
      isAuthenticated: false,
      version: null,
      links: [],
      message: 'Login failed. Invalid username or password.',
    });
  });

  it('answers 404 with a trailing slash', async () => {
    const answer = await service.call('POST', '/Authentication/Authenticate/', { body: adminCredentials });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(notFoundBody);
  });
});

describe('SignOut', () => {
  it('invalidates the token, and answers the same when signed out twice', async () => {
    const session = await signInAdmin(service);
    for (let attempt = 0; attempt < 2; attempt++) {
      const answer = await service.call('POST', '/Authentication/SignOut', { body: session });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ signedOut: true });
    }
  });
});
