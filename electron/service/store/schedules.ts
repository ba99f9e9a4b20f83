import { buildLayout, type PeriodRule, type ScheduleLayout } from '../domain/schedule-layout.js';
import { onConnection, type Connection, type Store } from './database.js';
import type { ScheduleRow } from '../tables.js';

export async function listSchedules(store: Store): Promise<ScheduleRow[]> {
  return store.selectFrom('schedules').selectAll().orderBy('name').orderBy('id').execute();
}

/** Which of the given schedule ids exist. */
export async function existingScheduleIds(store: Store, scheduleIds: readonly number[]): Promise<Set<number>> {
  const rows = await store
    .selectFrom('schedules')
    .select('id')
    .where('id', 'in', [...scheduleIds])
    .execute();
  return new Set(rows.map((row) => row.id));
}

export async function findSchedule(store: Store, scheduleId: number): Promise<ScheduleRow | undefined> {
  return store.selectFrom('schedules').selectAll().where('id', '=', scheduleId).executeTakeFirst();
}

function readLayout(connection: Connection, scheduleId: number): ScheduleLayout {
  return layoutOf(
    connection.all<PeriodRule>(
      'SELECT weekday, start_time AS startTime, end_time AS endTime, label, is_reservable AS isReservable FROM schedule_periods WHERE schedule_id = ?',
      scheduleId,
    ),
  );
}

const layoutsByRules = new Map<string, ScheduleLayout>();

/**
 * One layout object per distinct set of rules, so that the days laid out for it (remembered per
 * layout, and costly to work out) serve every request on the schedule. Keyed by the rules
 * themselves rather than the schedule id, so a changed layout can never be answered from memory.
 */
function layoutOf(rules: readonly PeriodRule[]): ScheduleLayout {
  const key = JSON.stringify(rules.map((rule) => [rule.weekday, rule.startTime, rule.endTime, rule.label, rule.isReservable]));
  let layout = layoutsByRules.get(key);
  if (!layout) {
    if (layoutsByRules.size >= 1_000) layoutsByRules.clear();
    layoutsByRules.set(key, (layout = buildLayout(rules)));
  }
  return layout;
}

/**
 * Layouts by schedule id, per database connection. The API never changes a schedule's periods, so
 * once read a layout holds for the life of the store; a fresh database (every test file's own)
 * has a connection of its own.
 */
const layoutsByConnection = new WeakMap<Connection, Map<number, ScheduleLayout>>();

export function scheduleLayout(connection: Connection, scheduleId: number): ScheduleLayout {
  let layouts = layoutsByConnection.get(connection);
  if (!layouts) layoutsByConnection.set(connection, (layouts = new Map()));
  let layout = layouts.get(scheduleId);
  if (!layout) layouts.set(scheduleId, (layout = readLayout(connection, scheduleId)));
  return layout;
}

export const loadLayout = (store: Store, scheduleId: number) => onConnection(store, (connection) => scheduleLayout(connection, scheduleId));
