import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatWireDateTime } from '../../electron/api/dates.js';
import { PermissionType } from '../../electron/service/tables.js';
import { demoSignIn, startCoreHarness, type CoreHarness, type CoreUnderTest } from '../support/core-harness.js';
import { insertResource } from '../support/fixtures.js';

// Tuesday 12 March 2030, 09:45 in London: the head office is open, and its rooms are free.
const now = DateTime.fromISO('2030-03-12T09:45:00Z', { zone: 'utc' });

let harness: CoreHarness;
/** A room the user may see but not book: granted "view only" to the user in person. */
let lookingGlass: number;
/** A room the user's group may see but not book. */
let fishbowl: number;

beforeAll(async () => {
  harness = await startCoreHarness(now);
  const { org, service } = harness;
  lookingGlass = await insertResource(service.store, { name: 'Looking Glass', scheduleId: org.schedules.headOffice, maxParticipants: 4 });
  fishbowl = await insertResource(service.store, { name: 'Fishbowl', scheduleId: org.schedules.headOffice, maxParticipants: 4 });
  await service.store
    .insertInto('userResourcePermissions')
    .values({ userId: org.users.user, resourceId: lookingGlass, permissionType: PermissionType.view })
    .execute();
  await service.store
    .insertInto('groupResourcePermissions')
    .values({ groupId: org.groups.staff, resourceId: fishbowl, permissionType: PermissionType.view })
    .execute();
});

afterAll(() => harness.dispose());

async function signedIn(username: string): Promise<CoreUnderTest> {
  const created = harness.newCore();
  await created.core.start();
  const result = await created.core.handlers.signIn(demoSignIn(username));
  if (!result.ok) throw new Error(result.error.message);
  created.core.popoverOpened();
  await harness.idle();
  return created;
}

const names = (views: readonly { name: string }[]) => views.map((view) => view.name);

describe('a resource the user may only view', () => {
  it('is listed by the server, left out of GetUser’s permissions, and refused for booking', async () => {
    const { org } = harness;
    const client = await harness.clientFor('user');
    const resources = await client.getAllResources();
    expect(resources.ok && resources.value.resources.map((resource) => resource.resourceId)).toEqual(
      expect.arrayContaining([lookingGlass, fishbowl]),
    );
    const user = await client.getUser({ params: { userId: org.users.user } });
    const granted = user.ok ? (user.value.permissions ?? []).map((permission) => permission.id) : [];
    expect(granted).toContain(org.resources.thames);
    expect(granted).not.toContain(lookingGlass);
    expect(granted).not.toContain(fishbowl);
    const start = now.plus({ minutes: 15 });
    const booked = await client.createReservation({
      body: {
        resourceId: lookingGlass,
        startDateTime: formatWireDateTime(start),
        endDateTime: formatWireDateTime(start.plus({ minutes: 30 })),
        title: '',
        description: '',
        allowParticipation: false,
        termsAccepted: true,
      },
    });
    expect(booked.ok ? null : booked.error.message).toBe('You do not have permission to book Looking Glass.');
  });

  it('is never offered for booking: not in Free now, the tray’s Book now, nor the Book form', async () => {
    const { core } = await signedIn('user');
    const freeNow = names(core.snapshot().freeNow);
    // The rooms the user may book are free, so the list is not empty for another reason.
    expect(freeNow).toContain('Thames (1.01)');
    expect(freeNow).not.toContain('Looking Glass');
    expect(freeNow).not.toContain('Fishbowl');
    const listed = await core.handlers.listResources();
    expect(listed.ok && names(listed.value)).toContain('Thames (1.01)');
    expect(listed.ok && names(listed.value)).not.toEqual(expect.arrayContaining(['Looking Glass']));
    expect(listed.ok && names(listed.value)).not.toEqual(expect.arrayContaining(['Fishbowl']));
    await core.stop();
  });

  it('is offered to an administrator, who may book everything', async () => {
    const { core } = await signedIn('admin');
    expect(names(core.snapshot().freeNow)).toEqual(expect.arrayContaining(['Looking Glass', 'Fishbowl']));
    await core.stop();
  });
});
