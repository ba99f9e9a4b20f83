import { DateTime } from 'luxon';
import { afterAll, describe, expect, it } from 'vitest';
import { errorFromThrown } from '../../electron/core/errors.js';
import { demoSignIn, startCoreHarness, type CoreHarness } from '../support/core-harness.js';

describe('errors in plain words', () => {
  it("says a connection failure thrown from anywhere in words, not in Node's text", () => {
    const lookup = Object.assign(new Error('getaddrinfo ENOTFOUND booking.example.org'), { code: 'ENOTFOUND' });
    const error = errorFromThrown(new TypeError('fetch failed', { cause: lookup }));
    expect(error).toEqual({
      kind: 'network',
      message: 'Perch could not reach the server: no server has that name. Try again in a moment.',
    });
  });

  it('keeps the words of any other failure inside Perch', () => {
    expect(errorFromThrown(new Error('no slots'))).toEqual({ kind: 'unexpected', message: 'Something went wrong inside Perch: no slots' });
  });

  describe('the local service down', () => {
    let harness: CoreHarness | undefined;
    afterAll(() => harness?.dispose());

    it("is named as Perch's own service, never by its loopback address and port", async () => {
      harness = await startCoreHarness(DateTime.fromISO('2030-03-12T09:00:00Z'));
      const { core } = harness.newCore();
      await core.start();
      const signedIn = await core.handlers.signIn(demoSignIn('user'));
      expect(signedIn.ok).toBe(true);
      // Free now's reads after sign-in are over before the service goes down (closing waits for a connection in use).
      await harness.idle();
      await harness.stopService();
      const snapshot = await core.handlers.refresh();
      expect(snapshot.offline).toBe(true);
      const booked = await core.handlers.book({
        resourceId: harness.org.resources.thames,
        start: '2030-03-12T11:00:00+01:00',
        durationMinutes: 30,
        title: '',
      });
      expect(booked).toEqual({
        ok: false,
        error: {
          kind: 'network',
          message:
            "Can't reach Perch's service on this computer: nothing answers at that address. Perch starts it again by itself; try again in a moment.",
        },
      });
    });
  });
});
