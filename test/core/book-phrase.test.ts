/**
 * Type to book through the bridge, against the local service on a manual clock: a typed line
 * previewed in words with the resource Free now would offer then, and booked with Enter.
 */
import { DateTime } from 'luxon';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BridgeResult } from '../../electron/bridge/contract.js';
import { insertReservation } from '../support/reservations.js';
import { demoSignIn, startCoreHarness, type CoreHarness, type CoreUnderTest } from '../support/core-harness.js';

// Tuesday 12 March 2030, 08:50 UTC: the head office (London) is open 08:00–18:00; the demo user lives in Berlin (09:50 there).
const utc = (time: string, date = '2030-03-12') => DateTime.fromISO(`${date}T${time}:00Z`, { zone: 'utc' });
const berlin = (time: string, date = '2030-03-12') =>
  DateTime.fromISO(`${date}T${time}:00`, { zone: 'Europe/Berlin' }).toISO({ suppressMilliseconds: true });

function value<T>(result: BridgeResult<T>): T {
  if (!result.ok) throw new Error(`${result.error.kind}: ${result.error.message}`);
  return result.value;
}

let harness: CoreHarness;
let core: CoreUnderTest['core'];

beforeEach(async () => {
  harness = await startCoreHarness(utc('08:50'));
  ({ core } = harness.newCore());
  await core.start();
  value(await core.handlers.signIn(demoSignIn('user', true)));
  await harness.idle();
});

afterEach(() => harness.dispose());

describe('readPhrase', () => {
  it('says what a line books, in words, with the times in the user’s zone', async () => {
    const preview = value(await core.handlers.readPhrase({ text: 'thames tomorrow 14:00 for 90 min' }));
    expect(preview).toMatchObject({
      words: 'Thames (1.01), tomorrow 14:00–15:30',
      resourceId: harness.org.resources.thames,
      start: berlin('14:00', '2030-03-13'),
      end: berlin('15:30', '2030-03-13'),
      ambiguities: [],
      problem: null,
    });
    expect(preview!.understood.map(({ text }) => text)).toEqual(['thames', 'tomorrow', '14:00', 'for 90 min']);
  });

  it('leaves a line that is not a booking to the filter', async () => {
    for (const text of ['floor 3', 'thames', 'desk 30']) expect(value(await core.handlers.readPhrase({ text }))).toBeNull();
  });

  it('books "now" from the next half hour, as Free now does, and says so', async () => {
    const preview = value(await core.handlers.readPhrase({ text: 'severn now 30m' }));
    expect(preview).toMatchObject({
      words: 'Severn (1.02), today 10:00–10:30',
      start: berlin('10:00'),
      end: berlin('10:30'),
      problem: null,
    });
    expect(preview!.ambiguities).toEqual(['“now” read as 10:00, the next half hour']);
  });

  it('picks a kind of resource among those free then, and names one that is taken', async () => {
    // Someone else has Thames and Severn tomorrow afternoon.
    const { users, resources } = harness.org;
    for (const resourceId of [resources.thames, resources.severn]) {
      await insertReservation(harness.service.store, {
        ownerId: users.priya,
        resourceId,
        occurrences: [{ start: utc('12:00', '2030-03-13'), end: utc('15:00', '2030-03-13') }],
      });
    }
    const taken = value(await core.handlers.readPhrase({ text: 'thames tomorrow 14:00 for 1h' }));
    expect(taken).toMatchObject({ resourceId: null, problem: 'Thames (1.01) is not free then.' });
    const room = value(await core.handlers.readPhrase({ text: 'room for 4 tomorrow 14:00 for 1h' }));
    expect(room!.problem).toBeNull();
    expect([resources.thames, resources.severn]).not.toContain(room!.resourceId);
    expect(room!.words).toMatch(/, tomorrow 14:00–15:00$/);
  });

  it('says what it cannot book: a time passed, a name nobody has, a resource the Book form must finish', async () => {
    expect(value(await core.handlers.readPhrase({ text: 'thames at 9' }))).toMatchObject({ problem: 'That time has passed.' });
    expect(value(await core.handlers.readPhrase({ text: 'kitchen at 14:00' }))).toMatchObject({
      problem: 'Nothing you can book is called “kitchen”.',
    });
    expect(value(await core.handlers.readPhrase({ text: 'room for 50 at 14:00' }))).toMatchObject({
      problem: 'No room you can book holds 50 people.',
    });
    const boardroom = value(await core.handlers.readPhrase({ text: 'boardroom tomorrow at 10 for 1h' }));
    expect(boardroom!.problem).toMatch(/^Boardroom needs approval and a cost centre: finish it in the Book form\.$/);
    expect(boardroom!.draft).toEqual({
      resourceId: harness.org.resources.boardroom,
      start: berlin('10:00', '2030-03-13'),
      durationMinutes: 60,
    });
  });
});

describe('bookPhrase', () => {
  it('books what the preview said', async () => {
    const preview = value(await core.handlers.readPhrase({ text: 'desk tomorrow 14:00 for 90 min' }));
    const outcome = value(await core.handlers.bookPhrase({ text: 'desk tomorrow 14:00 for 90 min', title: 'Focus' }));
    const booked = core.snapshot().reservations.find((reservation) => reservation.referenceNumber === outcome.referenceNumber);
    expect(booked).toMatchObject({
      resourceId: preview!.resourceId,
      start: berlin('14:00', '2030-03-13'),
      end: berlin('15:30', '2030-03-13'),
      title: 'Focus',
    });
    expect(booked!.resourceName).toMatch(/desk/i);
  });

  it('refuses, in words, what it cannot book, and books nothing', async () => {
    harness.requests.length = 0;
    expect(await core.handlers.bookPhrase({ text: 'floor 3', title: '' })).toMatchObject({
      ok: false,
      error: { kind: 'invalidInput', message: expect.stringContaining('is not a booking Perch can read') },
    });
    expect(await core.handlers.bookPhrase({ text: 'thames tomorrow', title: '' })).toMatchObject({
      ok: false,
      error: { kind: 'invalidInput', message: 'Add a time, as in “14:00 for 1 h”.' },
    });
    expect(harness.requests.filter((request) => request.method === 'POST')).toEqual([]);
  });
});
