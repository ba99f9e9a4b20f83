import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPassword, seedDemo } from '../../electron/service/seed/demo.js';
import { startService, type RunningService } from '../../electron/service/service.js';
import { shiftedJourneyClock } from './journey-clock.js';
import { journeyNames, runJourneys, type JourneyOutcome } from './journeys.js';

// The next Tuesday, 4 minutes before a slot in the head office's business hours: check-in for
// the next slot is open, and the demo's rooms are free.
const start = DateTime.now().setZone('Europe/London').startOf('week').plus({ weeks: 1, days: 1 }).set({ hour: 10, minute: 26 });

let folder: string;
let service: RunningService;
let outcomes: JourneyOutcome[];

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'perch-journeys-service-'));
  const clock = shiftedJourneyClock(start);
  service = await startService({ database: join(folder, 'perch.db'), clock });
  await seedDemo(service.store);
  outcomes = await runJourneys({ base: service.apiRoot, username: 'user', password: demoPassword, clock });
}, 120_000);

afterAll(async () => {
  await service?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe('the user’s journeys against the local service', () => {
  it.each(journeyNames)('%s', (name) => {
    expect(outcomes.find((outcome) => outcome.name === name)).toEqual({ name, status: 'ok' });
  });
});
