import type { Connection } from './database.js';

/** A user who takes part in or is invited to a series. */
export interface SeriesPerson {
  seriesId: number;
  role: number;
  userId: number;
  firstName: string;
  lastName: string;
  emailAddress: string;
}

/** A guest (known by e-mail address only) who takes part in or is invited to a series. */
export interface SeriesGuest {
  seriesId: number;
  role: number;
  email: string;
}

/** Ids as one bound parameter, read back with `json_each`: a list of hundreds costs nothing to bind. */
export const jsonIds = (ids: readonly number[]) => JSON.stringify(ids);

function groupBySeries<T extends { seriesId: number }>(rows: readonly T[]): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const row of rows) {
    const group = groups.get(row.seriesId);
    if (group) group.push(row);
    else groups.set(row.seriesId, [row]);
  }
  return groups;
}

/** The people of each series, by family then given name. */
export function readPeople(connection: Connection, seriesIds: readonly number[]): Map<number, SeriesPerson[]> {
  return groupBySeries(
    connection.all<SeriesPerson>(
      `SELECT reservation_people.series_id AS seriesId, reservation_people.role, users.id AS userId, users.first_name AS firstName,
         users.last_name AS lastName, users.email_address AS emailAddress
       FROM reservation_people INNER JOIN users ON users.id = reservation_people.user_id
       WHERE reservation_people.series_id IN (SELECT value FROM json_each(?))
       ORDER BY users.last_name, users.first_name, users.id`,
      jsonIds(seriesIds),
    ),
  );
}

/** The guests of each series, by e-mail address. */
export function readGuests(connection: Connection, seriesIds: readonly number[]): Map<number, SeriesGuest[]> {
  return groupBySeries(
    connection.all<SeriesGuest>(
      'SELECT series_id AS seriesId, role, email FROM reservation_guests WHERE series_id IN (SELECT value FROM json_each(?)) ORDER BY email',
      jsonIds(seriesIds),
    ),
  );
}

/** Those of `rows` in one role (participant or invitee); none when there are no rows. */
export const inRole = <T extends { role: number }>(rows: readonly T[] | undefined, role: number) =>
  (rows ?? []).filter((row) => row.role === role);
