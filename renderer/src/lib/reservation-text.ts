/**
 * A reservation written out for someone else to read (Copy details): what, where, which day and
 * when, the zone named once, since the reader may be anywhere.
 */
import type { ReservationDetailsView, ReservationView } from '$bridge/contract.js';
import { zoneWords } from '$bridge/format.js';
import type { DateFormat } from './format.js';
import { nameOf } from './reservation-status.js';

/**
 * `Design review` / `Thames (1.01)` / `Tuesday 2 December, 14:00–15:30 London time` / the series'
 * rule / the description: one line each, the ones with nothing to say left out.
 */
export function detailsText(
  reservation: ReservationView,
  format: DateFormat,
  extra: { rule?: string | null; details?: ReservationDetailsView | null } = {},
): string {
  const where = extra.details?.resourceNames.length ? extra.details.resourceNames.join(', ') : reservation.resourceName;
  const lines = [
    nameOf(reservation),
    // An untitled booking goes by its resource: said once.
    reservation.title.trim() === '' && where === reservation.resourceName ? null : where,
    `${format.longDate(reservation.start)}, ${format.timeRange(reservation.start, reservation.end)} ${zoneWords(format.timeZone)}`,
    extra.rule ?? null,
    extra.details?.description || null,
  ];
  return lines.filter((line): line is string => line !== null && line !== '').join('\n');
}
