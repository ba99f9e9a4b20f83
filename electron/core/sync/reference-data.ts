/**
 * Resources, schedules, resource groups and reservation attributes: they rarely change, and a normal user's resource list
 * costs a real server a second (server-facts E), so they are fetched every 12 hours, or when the
 * user asks for a refresh.
 */
import { AttributeCategory } from '../../api/schemas/attributes.js';
import type { Clock } from '../clock.js';
import type { CoreData, CoreState } from '../core-state.js';
import { readBookableResourceIds } from '../session/bookable.js';
import type { AccountIdentity } from '../session/account-identity.js';
import type { AccountSession } from '../session/session.js';
import type { SessionResult } from '../session/session-errors.js';
import type { WireAttribute, WireResource, WireSchedule } from '../../api/wire.js';

export const referenceDataHours = 12;

export interface ReferenceDataOptions {
  clock: Clock;
  state: CoreState;
  session: Pick<AccountSession, 'account' | 'run' | 'keepBookable'>;
  /** The data changed and is worth caching. */
  changed(): void;
}

export interface ReferenceData {
  /**
   * Joins a refresh already running rather than starting another. Right after a sign-in, which has
   * just read the user's grants, `grantsJustRead` leaves them out.
   */
  refresh(force: boolean, grantsJustRead?: boolean): Promise<void>;
  /** From the cache when it is fresh enough. */
  resources(): Promise<SessionResult<WireResource[]>>;
  schedules(): Promise<SessionResult<WireSchedule[]>>;
  /** Asked again when the last refresh could not read them; as last known when the server cannot say now. */
  reservationAttributes(): Promise<WireAttribute[]>;
}

export function createReferenceData(options: ReferenceDataOptions): ReferenceData {
  const { clock, state, session } = options;
  let running: Promise<void> | null = null;
  /** The last refresh could not read the reservation attributes (an empty list may then be wrong). */
  let attributesUnread = false;

  /**
   * Grants change on the server as resources do, so they are read again with them; kept as they
   * were when the server cannot be asked now.
   */
  async function refreshBookable(account: AccountIdentity): Promise<void> {
    if (account.isAdmin) return;
    const user = await session.run((client) => client.getUser({ params: { userId: account.userId } }));
    if (!user.ok) return;
    let unread = false;
    const ids = await readBookableResourceIds(user.value, async (groupId) => {
      const group = await session.run((client) => client.getGroup({ params: { groupId } }));
      if (!group.ok) unread = true;
      return group.ok ? group.value.permissions : null;
    });
    if (!unread) await session.keepBookable(account, ids);
  }

  const readAttributes = () =>
    session.run((client) => client.getCategoryAttributes({ params: { categoryId: AttributeCategory.reservation } }));

  function refresh(force: boolean, grantsJustRead = false): Promise<void> {
    const account = session.account;
    if (account === null) return Promise.resolve();
    const fetchedAt = state.data.referenceFetchedAt;
    const fresh = fetchedAt !== null && clock.now().diff(fetchedAt, 'hours').hours < referenceDataHours;
    if (fresh && !force) return Promise.resolve();
    running ??= (async () => {
      const [resources, types, schedules, groups, attributes] = await Promise.all([
        session.run((client) => client.getAllResources()),
        session.run((client) => client.getResourceTypes()),
        session.run((client) => client.getAllSchedules()),
        session.run((client) => client.getResourceGroups()),
        readAttributes(),
      ]);
      if (session.account !== account) return;
      const { data } = state;
      if (resources.ok) data.resources = resources.value.resources;
      // A 2.9 server has no types (404: server-facts C); kept as they were when the server cannot say now.
      if (types.ok) data.resourceTypes = types.value.types;
      else if (types.error.kind === 'notFound') data.resourceTypes = [];
      if (schedules.ok) data.schedules = schedules.value.schedules;
      if (groups.ok) data.groups = groups.value;
      if (attributes.ok) data.reservationAttributes = attributes.value.attributes;
      attributesUnread = !attributes.ok;
      if (resources.ok && schedules.ok) data.referenceFetchedAt = clock.now();
      if (!grantsJustRead) await refreshBookable(account);
      options.changed();
    })().finally(() => {
      running = null;
    });
    return running;
  }

  async function list<T>(pick: (data: CoreData) => T[]): Promise<SessionResult<T[]>> {
    await refresh(false);
    const found = pick(state.data);
    if (found.length > 0 || state.data.referenceFetchedAt !== null) return { ok: true, value: found };
    // Nothing cached and the refresh failed: ask once more to learn why.
    const probe = await session.run((client) => client.getAllSchedules());
    return probe.ok ? { ok: true, value: found } : probe;
  }

  async function reservationAttributes(): Promise<WireAttribute[]> {
    const account = session.account;
    await refresh(false);
    if (attributesUnread && session.account === account) {
      const read = await readAttributes();
      if (read.ok && session.account === account) {
        state.data.reservationAttributes = read.value.attributes;
        attributesUnread = false;
        options.changed();
      }
    }
    return state.data.reservationAttributes;
  }

  return {
    refresh,
    resources: () => list((data) => data.resources),
    schedules: () => list((data) => data.schedules),
    reservationAttributes,
  };
}
