/** Instants as the bridge carries them: ISO 8601 in the user's offset. */
import type { DateTime } from 'luxon';

/** ISO 8601 with the user's offset, whole seconds. */
export function isoIn(zone: string, instant: DateTime): string {
  return instant.setZone(zone).toISO({ suppressMilliseconds: true }) ?? instant.toUTC().toISO() ?? '';
}

export const isoOrNull = (zone: string, instant: DateTime | null) => (instant === null ? null : isoIn(zone, instant));
