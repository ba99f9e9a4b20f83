import { IANAZone } from 'luxon';

/**
 * luxon asks Intl (`formatToParts`) for a zone's offset at every DateTime it builds or moves in
 * that zone: an eighth of the CPU a booking costs. An offset changes at most once in any hour, so
 * it is remembered per zone and UTC hour, for hours that begin and end on the same offset (no
 * change inside); an hour with a change in it is asked of Intl every time, as before.
 */
const hourMs = 3_600_000;
const rememberedHoursPerZone = 100_000;
const exactOffset = IANAZone.prototype.offset;
const offsetsByZone = new Map<string, Map<number, number>>();

function rememberedOffset(this: IANAZone, ts: number): number {
  if (!Number.isFinite(ts)) return exactOffset.call(this, ts);
  let byHour = offsetsByZone.get(this.name);
  if (!byHour) offsetsByZone.set(this.name, (byHour = new Map()));
  const hour = Math.floor(ts / hourMs);
  const known = byHour.get(hour);
  if (known !== undefined) return known;
  const atStart = exactOffset.call(this, hour * hourMs);
  if (atStart !== exactOffset.call(this, hour * hourMs + hourMs - 1)) return exactOffset.call(this, ts);
  if (byHour.size >= rememberedHoursPerZone) byHour.clear();
  byHour.set(hour, atStart);
  return atStart;
}

/** Installed once, for every DateTime the service builds; the answers are luxon's own. */
export function rememberZoneOffsets(): void {
  IANAZone.prototype.offset = rememberedOffset;
}

export { exactOffset };
