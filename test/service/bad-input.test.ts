import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { DateTime } from 'luxon';
import type { TObject, TSchema } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationNames, operations, type OperationName } from '../../electron/api/operations.js';
import { fillPath } from '../../electron/service/http/links.js';
import { insertResource, insertSchedule } from '../support/fixtures.js';
import { startTestService, type TestService } from '../support/service.js';

let service: TestService;
let scheduleId: number;
let resourceId: number;
/** Whole days from tomorrow on: a reservation of one of them breaks no rule. */
const dayAfter = (days: number) => DateTime.utc().startOf('day').plus({ days }).toFormat("yyyy-MM-dd'T'HH:mm:ssZZZ");
beforeAll(async () => {
  service = await startTestService();
  scheduleId = await insertSchedule(service.store, { timezone: 'UTC' }, [
    { weekday: null, startTime: '00:00', endTime: '24:00', label: '', isReservable: 1 },
  ]);
  resourceId = await insertResource(service.store, { name: 'Room', scheduleId, allowMultiday: 1 });
});
afterAll(() => service.dispose());

/** Everything the service keeps, but the sessions that slide on every call. */
async function fingerprint(): Promise<string> {
  const tables = await sql<{
    name: string;
  }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('sessions') ORDER BY name`.execute(service.store);
  const hash = createHash('sha256');
  for (const { name } of tables.rows) {
    const rows = await sql.raw(`SELECT * FROM "${name}" ORDER BY 1`).execute(service.store);
    hash.update(name + JSON.stringify(rows.rows));
  }
  return hash.digest('hex');
}

const unknownId = 987_654;
const sampleParams = {
  accessoryId: unknownId,
  attributeId: unknownId,
  categoryId: 1,
  groupId: unknownId,
  referenceNumber: 'unknown',
  resourceId: unknownId,
  scheduleId: unknownId,
  userId: unknownId,
};

const writes = operationNames.filter((name) => operations[name].method !== 'GET' && operations[name].auth !== 'none');
const withBody = writes.filter((name) => 'body' in operations[name]);
const creates = writes.filter((name) => operations[name].successStatus === 201);

/** A body every create route accepts, so that one bad member is the only thing wrong. */
function validCreateBody(name: OperationName, tag: string): Record<string, unknown> {
  const person = {
    firstName: 'Ada',
    lastName: 'Lovelace',
    emailAddress: `${tag}@example.org`,
    userName: tag,
    timezone: 'Europe/London',
    password: 'secret-password',
  };
  switch (name) {
    case 'createGroup':
      return { name: `Group ${tag}`, isDefault: false };
    case 'createResource':
      return { name: `Room ${tag}`, scheduleId };
    case 'createUser':
      return { ...person, groups: [] };
    case 'createReservation':
      return { resourceId, startDateTime: dayAfter(2), endDateTime: dayAfter(3), title: `Meeting ${tag}` };
    case 'createCustomAttribute':
      return { label: `Label ${tag}`, type: 1, categoryId: 2 };
    default:
      throw new Error(`no valid body for ${name}`);
  }
}

function properties(name: OperationName): Record<string, TSchema> {
  const operation = operations[name];
  return 'body' in operation ? (operation.body as TObject).properties : {};
}

/** A value no JSON-Schema coercion can turn into the member's type. */
const wrongTypeFor = (schema: TSchema): unknown => (JSON.stringify(schema).includes('"type":"object"') ? 'not an object' : { not: 'this' });

const routeOf = (name: OperationName, params: Record<string, string | number> = sampleParams) => fillPath(operations[name].path, params);

async function expectRefusedAndNothingStored(
  name: OperationName,
  request: { body?: unknown; rawBody?: string; params?: Record<string, string | number> },
  statuses: number[] = [400, 404],
) {
  const before = await fingerprint();
  const answer = await service.call(operations[name].method, routeOf(name, request.params), {
    session: service.admin,
    ...(request.body !== undefined && { body: request.body }),
    ...(request.rawBody !== undefined && { rawBody: request.rawBody, headers: { 'Content-Type': 'application/json' } }),
  });
  expect(statuses, JSON.stringify(answer.body)).toContain(answer.status);
  expect(answer.body.message).toEqual(expect.any(String));
  if (answer.status === 400) expect(answer.body.errors.length).toBeGreaterThan(0);
  expect(await fingerprint()).toBe(before);
  return answer;
}

describe('every write route refuses bad input with a 4xx and stores nothing', () => {
  it.each(withBody)('%s: malformed JSON', async (name) => {
    await expectRefusedAndNothingStored(name, { rawBody: '{"name": "unterminated', params: sampleParams });
  });

  it.each(withBody)('%s: a body that is not an object', async (name) => {
    await expectRefusedAndNothingStored(name, { rawBody: '["a", "list"]' });
  });

  it.each(withBody)('%s: every member of the wrong type', async (name) => {
    for (const [member, schema] of Object.entries(properties(name))) {
      const body = { ...(creates.includes(name) ? validCreateBody(name, 'wrong') : {}), [member]: wrongTypeFor(schema) };
      const answer = await expectRefusedAndNothingStored(name, { body }, creates.includes(name) ? [400] : [400, 404]);
      if (answer.status === 400) expect(answer.body.errors.join('\n')).toContain(member);
    }
  });

  it.each(withBody)('%s: huge strings', async (name) => {
    const huge = 'x'.repeat(300_000);
    const members = Object.entries(properties(name)).filter(([, schema]) => JSON.stringify(schema).includes('"type":"string"'));
    for (const [member] of members) {
      const body = { ...(creates.includes(name) ? validCreateBody(name, 'huge') : {}), [member]: huge };
      await expectRefusedAndNothingStored(name, { body }, creates.includes(name) ? [400] : [400, 404]);
    }
  });

  it.each(creates)('%s: missing members', async (name) => {
    await expectRefusedAndNothingStored(name, { body: {} }, [400]);
  });

  it.each(creates)('%s: ids that name nothing', async (name) => {
    const idMembers = Object.entries(properties(name)).filter(([member]) => /Ids?$|^groups$/.test(member));
    for (const [member, schema] of idMembers) {
      const value = JSON.stringify(schema).includes('"type":"array"') ? [unknownId] : unknownId;
      const answer = await expectRefusedAndNothingStored(
        name,
        { body: { ...validCreateBody(name, `ids${member}`), [member]: value } },
        [400],
      );
      expect(answer.body.errors.join('\n')).toMatch(new RegExp(`${member}|${unknownId}`, 'i'));
    }
  });

  it.each(writes.filter((name) => !creates.includes(name)))('%s: an unknown id in the path', async (name) => {
    const body = creates.length && 'body' in operations[name] ? {} : undefined;
    await expectRefusedAndNothingStored(name, { ...(body && { body }) }, [404, 400]);
  });

  it('a body over the size limit', async () => {
    const before = await fingerprint();
    const answer = await service.call('POST', '/Groups/', { session: service.admin, body: { name: 'x'.repeat(2 * 1024 * 1024) } });
    expect(answer.status).toBe(413);
    expect(answer.body.message).toEqual(expect.any(String));
    expect(await fingerprint()).toBe(before);
  });
});

describe('the valid bodies above really are valid', () => {
  it.each(creates)('%s accepts its baseline body', async (name) => {
    const answer = await service.call(operations[name].method, routeOf(name), {
      session: service.admin,
      body: validCreateBody(name, `ok${name}`),
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  });
});

describe("reads refuse what no calendar holds, in the spec's envelope", () => {
  it.each(['9999-12-31T23:59:59', '9999-12-31T23:59:59-1200', '0000-01-01T00:00:00', '0999-12-31'])(
    'GetSlots from %s is a 400 naming the date',
    async (date) => {
      const answer = await service.call('GET', `/Schedules/${scheduleId}/Slots?startDateTime=${encodeURIComponent(date)}`, {
        session: service.admin,
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        links: [],
        message: 'There were errors processing your request',
        errors: [`Invalid startDateTime: ${date}`],
      });
    },
  );

  it("a bad percent-escape in the path is a 400 with the envelope, not the router's own body", async () => {
    const answer = await service.call('GET', '/Accessories/%ZZ', { session: service.admin });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      links: [],
      message: 'There were errors processing your request',
      errors: [expect.stringContaining('%ZZ')],
    });
  });
});
