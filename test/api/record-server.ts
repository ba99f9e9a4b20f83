/**
 * Records a LibreBooking server's answers to every operation Perch calls, as test fixtures.
 *
 *   npm run record:server -- --base <url> --user <u> --password <p>
 *     [--admin <a> --admin-password <p>] --out <folder> [--state <label>]
 *
 * `--base` is the site address or the API root. It books, changes, checks in and cancels
 * reservations on the server as that user, and deletes what it booked.
 */
import { parseArgs } from 'node:util';
import type { SessionKeepingClient } from '../support/session-keeping-client.js';
import { apiRootPath } from '../../electron/api/operations.js';
import { AttributeCategory } from '../../electron/api/schemas/attributes.js';
import { chooseRoles, signIn, type Journey } from './recorder/journey.js';
import { items, members } from './recorder/raw.js';
import { recordReads } from './recorder/reads.js';
import { Recorder } from './recorder/recorder.js';
import { recordReservations } from './recorder/reservations.js';

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    user: { type: 'string' },
    password: { type: 'string' },
    admin: { type: 'string' },
    'admin-password': { type: 'string' },
    out: { type: 'string' },
    state: { type: 'string', default: 'default' },
  },
});

function required(name: 'base' | 'user' | 'password' | 'out'): string {
  const value = values[name];
  if (value === undefined || value === '') {
    console.error(
      `--${name} is required. Usage: npm run record:server -- --base <url> --user <u> --password <p> [--admin <a> --admin-password <p>] --out <folder> [--state <label>]`,
    );
    process.exit(2);
  }
  return value;
}

/** The API root from either the site's address (with or without `/Web`) or the root itself. */
function apiRootOf(base: string): string {
  const trimmed = base.replace(/\/+$/, '');
  if (trimmed.endsWith(apiRootPath)) return trimmed;
  return `${trimmed.replace(/\/Web$/, '')}${apiRootPath}`;
}

async function main(): Promise<void> {
  const recorder = new Recorder(apiRootOf(required('base')), required('out'), values.state);
  const credentials = { username: required('user'), password: required('password') };
  const user = recorder.client();

  await recorder.record(user, 'authenticate', 'wrong-password', 'a wrong password', {
    body: { ...credentials, password: `${credentials.password}-wrong` },
  });
  await recorder.record(user, 'getAllResources', 'no-session', 'a secure route without session headers');
  const userId = await signIn(recorder, user, credentials, 'user');
  let admin: SessionKeepingClient | null = null;
  if (values.admin !== undefined) {
    admin = recorder.client();
    await signIn(recorder, admin, { username: values.admin, password: values['admin-password'] ?? '' }, 'admin');
  }

  const self = await recorder.record(user, 'getUser', 'self', 'the signed-in user, as sign-in reads it', { params: { userId } });
  const zone = String(members(self.body)['timezone'] ?? 'UTC');
  const resources = await recorder.record(user, 'getAllResources', 'all', 'every resource the user may book');
  const attributes = await user.getCategoryAttributes({ params: { categoryId: AttributeCategory.reservation } });
  const journey: Journey = {
    recorder,
    user,
    admin,
    userId,
    zone,
    roles: chooseRoles(items(members(resources.body)['resources'])),
    reservationAttributes: attributes.ok ? attributes.value.attributes : [],
  };
  if (admin !== null) await recorder.record(admin, 'getUser', 'by-admin', 'the user, read by an administrator', { params: { userId } });

  await recordReads(journey, resources.body);
  await recordReservations(journey);

  const session = user.session!;
  await recorder.record(user, 'signOut', 'user', 'signs out', { body: session });
  await recorder.record(user, 'signOut', 'again', 'the same session signed out a second time', { body: session });
  user.session = session;
  await recorder.record(user, 'getUser', 'signed-out', 'a session that was signed out', { params: { userId } });
  if (admin?.session) await recorder.record(admin, 'signOut', 'admin', 'the administrator signs out', { body: admin.session });
  console.log(`Resources by role: ${JSON.stringify(journey.roles)}`);
}

try {
  await main();
} catch (error) {
  console.error(`Recording stopped: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
