/**
 * Resources, schedules, resource groups and reservation attributes: they rarely change, and a normal user's resource list
 * costs a real server a second (server-facts E), so they are fetched every 12 hours, or when the
 * user asks for a refresh.
 */
import { AttributeCategory } from '../../api/schemas/attributes.js';
import type { Clock } from '../clock.js';
import type { CoreData, CoreState } from '../core-state.js';
import type { AccountSession, SessionResult } from '../session/session.js';
import type { WireResource, WireSchedule } from '../views/state.js';

export const referenceDataHours = 12;

export interface ReferenceDataOptions {
  clock: Clock;
  state: CoreState;
  session: Pick<AccountSession, 'account' | 'run'>;
  /** The data changed and is worth caching. */
  changed(): void;
}

export interface ReferenceData {
  /** Joins a refresh already running rather than starting another. */
  refresh(force: boolean): Promise<void>;
  /** From the cache when it is fresh enough. */
  resources(): Promise<SessionResult<WireResource[]>>;
  schedules(): Promise<SessionResult<WireSchedule[]>>;
}

export function createReferenceData(options: ReferenceDataOptions): ReferenceData {
  const { clock, state, session } = options;
  let running: Promise<void> | null = null;

  function refresh(force: boolean): Promise<void> {
    const account = session.account;
    if (account === null) return Promise.resolve();
    const fetchedAt = state.data.referenceFetchedAt;
    const fresh = fetchedAt !== null && clock.now().diff(fetchedAt, 'hours').hours < referenceDataHours;
    if (fresh && !force) return Promise.resolve();
    running ??= (async () => {
      const [resources, schedules, groups, attributes] = await Promise.all([
        session.run((client) => client.getAllResources()),
        session.run((client) => client.getAllSchedules()),
        session.run((client) => client.getResourceGroups()),
        session.run((client) => client.getCategoryAttributes({ params: { categoryId: AttributeCategory.reservation } })),
      ]);
      if (session.account !== account) return;
      const { data } = state;
      if (resources.ok) data.resources = resources.data.resources;
      if (schedules.ok) data.schedules = schedules.data.schedules;
      if (groups.ok) data.groups = groups.data;
      if (attributes.ok) data.reservationAttributes = attributes.data.attributes;
      if (resources.ok && schedules.ok) data.referenceFetchedAt = clock.now();
      options.changed();
    })().finally(() => {
      running = null;
    });
    return running;
  }

  async function list<T>(pick: (data: CoreData) => T[]): Promise<SessionResult<T[]>> {
    await refresh(false);
    const found = pick(state.data);
    if (found.length > 0 || state.data.referenceFetchedAt !== null) return { ok: true, data: found };
    // Nothing cached and the refresh failed: ask once more to learn why.
    const probe = await session.run((client) => client.getAllSchedules());
    return probe.ok ? { ok: true, data: found } : probe;
  }

  return {
    refresh,
    resources: () => list((data) => data.resources),
    schedules: () => list((data) => data.schedules),
  };
}
