/**
 * The local service's host process as electron/service/host.ts runs it, but on real time shifted
 * by the milliseconds in its first argument: a test's service process keeps the moment the test set.
 */
import { DateTime } from 'luxon';
import { runServiceHost } from '../../electron/service/host-process.js';

const offsetMs = Number(process.argv[2]);
if (process.argv[2] === undefined || !Number.isInteger(offsetMs))
  throw new Error(`shifted-service-host: expected a whole number of milliseconds, got ${process.argv[2]}`);
runServiceHost({ now: () => DateTime.fromMillis(Date.now() + offsetMs, { zone: 'utc' }) });
