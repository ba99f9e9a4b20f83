import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationNames, operations, type OperationName } from '../../electron/api/operations.js';
import { fillPath } from '../../electron/service/http/links.js';
import { forbiddenBody, invalidBody, notFoundBody, unauthenticatedBody } from '../support/answers.js';
import { signInAdmin } from '../support/fixtures.js';
import { createNormalUser, startTestService, type Session, type TestService } from '../support/service.js';

let service: TestService;
let user: Session;
beforeAll(async () => {
  service = await startTestService();
  user = await createNormalUser(service);
});
afterAll(() => service.dispose());

const sampleParams = {
  accessoryId: 1,
  attributeId: 1,
  categoryId: 1,
  groupId: 1,
  referenceNumber: 'abc',
  resourceId: 1,
  scheduleId: 1,
  userId: 1,
};
const routeOf = (name: OperationName) => fillPath(operations[name].path, sampleParams);
/** A body where the method may carry one: authorisation must be decided before it is read. */
const bodyFor = (name: OperationName) => (operations[name].method === 'GET' ? {} : { body: {} });
const secured = operationNames.filter((name) => operations[name].auth !== 'none');
const adminOnly = operationNames.filter((name) => operations[name].auth === 'admin');

describe('sessions', () => {
  it.each(secured)('%s answers 401 without a session', async (name) => {
    const answer = await service.call(operations[name].method, routeOf(name), bodyFor(name));
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(unauthenticatedBody);
  });

  it.each(secured)('%s answers 401 with an unknown token', async (name) => {
    const session = { sessionToken: 'f'.repeat(50), userId: service.admin.userId };
    const answer = await service.call(operations[name].method, routeOf(name), { ...bodyFor(name), session });
    expect(answer.status).toBe(401);
  });

  it('answers 401 when the token belongs to another user id', async () => {
    const answer = await service.call('GET', '/Groups/', { session: { ...user, userId: service.admin.userId } });
    expect(answer.status).toBe(401);
  });

  it('accepts the spec’s neutral header names as well as X-Booked-*', async () => {
    const answer = await service.call('GET', '/Groups/', {
      headers: { 'X-Service-SessionToken': service.admin.sessionToken, 'X-Service-UserId': String(service.admin.userId) },
    });
    expect(answer.status).toBe(200);
  });

  it('slides on every call and lapses after 30 idle minutes', async () => {
    const session = await signInAdmin(service);
    for (let step = 0; step < 3; step++) {
      service.clock.advance({ minutes: 29 });
      expect((await service.call('GET', '/Groups/', { session })).status).toBe(200);
    }
    service.clock.advance({ minutes: 30, seconds: 1 });
    const lapsed = await service.call('GET', '/Groups/', { session });
    expect(lapsed.status).toBe(401);
    expect(lapsed.body).toEqual(unauthenticatedBody);
  });

  it('ends with SignOut', async () => {
    const session = await signInAdmin(service);
    await service.call('POST', '/Authentication/SignOut', { body: session });
    expect((await service.call('GET', '/Groups/', { session })).status).toBe(401);
  });
});

describe('administrator routes', () => {
  it.each(adminOnly)('%s answers 403 to a normal user', async (name) => {
    const fresh = await service.signIn('user', 'user-password-1');
    const answer = await service.call(operations[name].method, routeOf(name), { ...bodyFor(name), session: fresh });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual(forbiddenBody);
  });
});

describe('routes as real servers route them', () => {
  it('answers 405 with the allowed methods for a known path', async () => {
    const answer = await service.call('PUT', '/Resources/Status');
    expect(answer.status).toBe(405);
    expect(answer.body.message).toBe('HTTP method not allowed for the requested resource. Use one of these instead: GET, HEAD');
  });

  it('redirects a create route called without its slash and creates nothing', async () => {
    const before = await service.store.selectFrom('userGroups').select('id').execute();
    const answer = await service.call('POST', '/Groups', { body: { name: 'Sneaky', isDefault: false }, session: service.admin });
    expect(answer.status).toBe(301);
    expect(answer.headers.get('location')).toBe('/Web/Services/index.php/Groups/');
    expect(await service.store.selectFrom('userGroups').select('id').execute()).toEqual(before);
  });

  it('answers an unknown path with a JSON 404', async () => {
    const answer = await service.call('GET', '/Nothing/Here');
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(notFoundBody);
  });

  it('answers malformed JSON with a 400 that says so', async () => {
    const answer = await service.call('POST', '/Authentication/Authenticate', {
      rawBody: '{"username": ',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(invalidBody('The request body is not valid JSON'));
  });

  it('compresses large answers for clients that accept it', async () => {
    const response = await fetch(`${service.apiRoot}/openapi.json`, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(((await response.json()) as { openapi: string }).openapi).toBe('3.1.0');
  });

  it.each([
    ['gzip, deflate, br', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['br', 'br'],
  ])('compresses a large answer for %j as %s, to the same text', async (acceptEncoding, encoding) => {
    const plain = await (await fetch(`${service.apiRoot}/openapi.json`, { headers: { 'Accept-Encoding': 'identity' } })).text();
    expect(plain.length).toBeGreaterThan(64 * 1024);
    const response = await fetch(`${service.apiRoot}/openapi.json`, { headers: { 'Accept-Encoding': acceptEncoding } });
    expect(response.headers.get('content-encoding')).toBe(encoding);
    expect(response.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(await response.text()).toBe(plain);
  });
});

describe('documentation', () => {
  it('serves a page listing every operation at the API root', async () => {
    const response = await fetch(service.apiRoot);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    const page = await response.text();
    for (const name of Object.keys(operations) as OperationName[]) expect(page).toContain(`${service.apiRoot}${operations[name].path}<`);
  });

  it('serves an OpenAPI document derived from the table', async () => {
    const document = (await (await fetch(`${service.apiRoot}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId: string; parameters: unknown[] }>>;
      servers: { url: string }[];
    };
    const operationIds = Object.values(document.paths).flatMap((methods) => Object.values(methods).map((entry) => entry.operationId));
    expect(operationIds.sort()).toEqual(Object.keys(operations).sort());
    expect(document.servers[0]?.url).toBe(service.apiRoot);
    expect(document.paths['/Resources/{resourceId}']?.['get']?.parameters[0]).toMatchObject({
      name: 'resourceId',
      in: 'path',
      required: true,
    });
  });
});
