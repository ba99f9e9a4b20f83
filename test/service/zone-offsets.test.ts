import { DateTime, IANAZone } from 'luxon';
import { describe, expect, it } from 'vitest';
import { exactOffset, rememberZoneOffsets } from '../../electron/service/domain/zone-offsets.js';

describe('remembered zone offsets', () => {
  rememberZoneOffsets();
  // Zones with DST at odd minutes (Lord Howe: 30-minute shift), half-hour offsets, and none.
  const zones = ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata', 'America/St_Johns', 'Pacific/Chatham', 'UTC'];

  it('answer what Intl answers at every quarter hour of 2026, around every change', () => {
    const from = Date.UTC(2026, 0, 1);
    const to = Date.UTC(2027, 0, 1);
    for (const name of zones) {
      const zone = IANAZone.create(name);
      let mismatches = 0;
      for (let ts = from; ts < to; ts += 15 * 60_000) {
        // Twice over: the second pass is answered from memory.
        for (const probe of [ts, ts + 59_999, ts, ts + 59_999]) if (zone.offset(probe) !== exactOffset.call(zone, probe)) mismatches += 1;
      }
      expect(mismatches, name).toBe(0);
    }
  });

  it('still place local times across a spring-forward change where luxon places them', () => {
    const start = DateTime.fromISO('2026-03-29T01:30', { zone: 'Europe/Berlin' });
    expect(start.plus({ hours: 1 }).toISO()).toBe('2026-03-29T03:30:00.000+02:00');
  });

  it('leave an unknown zone invalid', () => {
    expect(IANAZone.create('Nowhere/Atlantis').offset(Date.now())).toBeNaN();
  });
});
