import { buildLayout, type PeriodRule, type ScheduleLayout } from '../domain/schedule-layout.js';
import type { Store } from './database.js';
import type { ScheduleRow } from './tables.js';

export async function listSchedules(store: Store): Promise<ScheduleRow[]> {
  return store.selectFrom('schedules').selectAll().orderBy('name').orderBy('id').execute();
}

export async function findSchedule(store: Store, scheduleId: number): Promise<ScheduleRow | undefined> {
  return store.selectFrom('schedules').selectAll().where('id', '=', scheduleId).executeTakeFirst();
}

/** The layouts of several schedules in one query; a schedule without periods gets an empty layout. */
export async function loadLayouts(store: Store, scheduleIds: readonly number[]): Promise<Map<number, ScheduleLayout>> {
  const rows =
    scheduleIds.length === 0
      ? []
      : await store
          .selectFrom('schedulePeriods')
          .select(['scheduleId', 'weekday', 'startTime', 'endTime', 'label', 'isReservable'])
          .where('scheduleId', 'in', [...scheduleIds])
          .execute();
  const rowsBySchedule = new Map<number, typeof rows>();
  for (const row of rows) {
    const group = rowsBySchedule.get(row.scheduleId);
    if (group) group.push(row);
    else rowsBySchedule.set(row.scheduleId, [row]);
  }
  return new Map(scheduleIds.map((id) => [id, layoutOf(rowsBySchedule.get(id) ?? [])]));
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
 * Layouts by schedule id, per database. The API never changes a schedule's periods, so once read a
 * layout holds for the life of the store. Keyed by the store's adapter, which the store and every
 * transaction opened on it share (a transaction is another object), and which a fresh database
 * (every test file's own) never shares.
 */
const layoutsByStore = new WeakMap<object, Map<number, ScheduleLayout>>();

export async function loadLayout(store: Store, scheduleId: number): Promise<ScheduleLayout> {
  const key = store.getExecutor().adapter;
  let layouts = layoutsByStore.get(key);
  if (!layouts) layoutsByStore.set(key, (layouts = new Map()));
  let layout = layouts.get(scheduleId);
  if (!layout) {
    layout = (await loadLayouts(store, [scheduleId])).get(scheduleId)!;
    layouts.set(scheduleId, layout);
  }
  return layout;
}
