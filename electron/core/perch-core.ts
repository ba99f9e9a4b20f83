/**
 * The tray app's core, composed: the session, the poller, the notification planner and notifier,
 * the cache and the settings, behind the bridge's commands and events. Plain Node; the Electron
 * shell only forwards power and screen events and wires the commands to IPC.
 *
 * What polling costs a server is bounded (server-facts E): a regular poll asks for the user's own
 * reservations in a narrow window and, at most every 5 minutes, for availability — never more than
 * two requests. The 14-day list and availability are fetched when the user looks (popover opened,
 * refresh); resources and schedules at most hourly or on refresh.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { formatWireDateTime } from '../api/dates.js';
import type { BridgeError, BridgeResult, CommandHandlers, EventPayloads, Settings, SignInRequest, StateSnapshot } from '../bridge.js';
import { cacheFileName, loadCache, saveCache, type CachedData } from './cache.js';
import type { Clock, TimerHandle } from './clock.js';
import { createCommandHandlers } from './commands.js';
import { failure, invalidInput, success } from './errors.js';
import type { SecretStore } from './keychain.js';
import { generateLocalPassword, thisComputersProfile, type LocalProfile } from './local-account.js';
import type { LocalService } from './local-service.js';
import type { Notifier } from './notifier.js';
import { planNotifications, retainShown, type PlannerReservation } from './planner.js';
import { createPoller, type PollOutcome, type PollReason } from './poller.js';
import {
  accountView,
  bridgeErrorFromSession,
  createAccountSession,
  sessionMessages,
  type AccountIdentity,
  type SessionResult,
  type SignInOptions,
} from './session.js';
import { defaultSettings, loadSettings, saveSettings } from './settings-store.js';
import {
  freeNowViews,
  groupNamesByResource,
  isoIn,
  plannerReservations,
  summaryUpdatedBy,
  upcomingViews,
  wireInstant,
  type ViewContext,
  type WireAvailability,
  type WireGroupTree,
  type WireReservation,
  type WireResource,
  type WireSchedule,
  type WireSummary,
} from './state.js';

export interface PerchCoreOptions {
  dataDir: string;
  clock: Clock;
  secrets: SecretStore;
  notifier: Notifier;
  /** The service "Try it on this computer" runs; the core stops it when it stops. */
  localService?: LocalService;
  /** Who the person at this computer is to the local service; read from the OS by default. */
  localProfile?: () => LocalProfile;
  fetch?: typeof fetch;
  log?: (message: string, error?: unknown) => void;
}

export interface PerchCore {
  handlers: CommandHandlers;
  on<E extends keyof EventPayloads>(event: E, listener: (payload: EventPayloads[E]) => void): () => void;
  snapshot(): StateSnapshot;
  start(): Promise<void>;
  stop(): Promise<void>;
  popoverOpened(): void;
  systemSuspended(): void;
  systemResumed(): void;
  screenLocked(): void;
  screenUnlocked(): void;
  /** Resolves once background work (polls, notifications, cache writes) has settled: for tests and benchmarks. */
  idle(): Promise<void>;
}

/** How far the list the user opens looks ahead (GetReservations' own default). */
export const fullWindowDays = 14;
/** Availability in the background: at most this often (server-facts E). */
export const availabilityBackgroundMinutes = 5;
/** Resources, schedules and resource groups rarely change. */
export const referenceDataMinutes = 60;

interface CoreData {
  reservations: WireSummary[];
  availability: WireAvailability[];
  availabilityAskedAt: DateTime | null;
  resources: WireResource[];
  schedules: WireSchedule[];
  groups: WireGroupTree | null;
  referenceFetchedAt: DateTime | null;
  fetchedAt: DateTime | null;
}

const emptyData = (): CoreData => ({
  reservations: [],
  availability: [],
  availabilityAskedAt: null,
  resources: [],
  schedules: [],
  groups: null,
  referenceFetchedAt: null,
  fetchedAt: null,
});

type Phase = StateSnapshot['phase'];
type PauseReason = 'suspended' | 'locked';

/** Replaces what the window covered with what the server listed there; keeps the rest that has not ended. */
export function mergeReservations(existing: readonly WireSummary[], fetched: readonly WireSummary[], from: DateTime, to: DateTime, now: DateTime): WireSummary[] {
  const fromMs = from.toMillis();
  const toMs = to.toMillis();
  const nowMs = now.toMillis();
  const listed = new Set(fetched.map((summary) => summary.referenceNumber));
  const kept = existing.filter((summary) => {
    if (listed.has(summary.referenceNumber)) return false;
    const start = wireInstant(summary.startDate)?.toMillis();
    const end = wireInstant(summary.endDate)?.toMillis();
    if (start === undefined || end === undefined || end <= nowMs) return false;
    return !(start < toMs && end > fromMs);
  });
  return [...kept, ...fetched];
}

function machineZone(): string {
  return DateTime.local().zoneName ?? 'UTC';
}

export function createPerchCore(options: PerchCoreOptions): PerchCore {
  const { clock, dataDir, notifier } = options;
  const log = options.log ?? ((message: string, error?: unknown) => console.warn(`[perch] ${message}`, error ?? ''));
  const session = createAccountSession({
    dataDir,
    clock,
    secrets: options.secrets,
    ...(options.localService !== undefined && { localService: options.localService }),
    ...(options.fetch !== undefined && { fetch: options.fetch }),
    log,
  });

  let settings: Settings = structuredClone(defaultSettings);
  let phase: Phase = 'signedOut';
  let data = emptyData();
  let offline = false;
  let lastError: BridgeError | null = null;
  let notifierProblem: string | null = null;
  let shown = new Set<string>();
  /** The planner's view after the previous poll; null until a poll of this run has been seen. */
  let previousPlanned: PlannerReservation[] | null = null;
  let wakeTimer: TimerHandle | null = null;
  const pausedBy = new Set<PauseReason>();
  const wanted = { full: false, availability: false };
  let pollsStarted = 0;
  let referenceRefresh: Promise<void> | null = null;
  let lastSavedCache = '';
  let cacheWrites: Promise<void> = Promise.resolve();
  const pending = new Set<Promise<unknown>>();
  const listeners: { [E in keyof EventPayloads]: Set<(payload: EventPayloads[E]) => void> } = {
    stateChanged: new Set(),
    navigate: new Set(),
  };
  let unsubscribeClicks: (() => void) | null = null;

  function track<T>(work: Promise<T>): void {
    const guarded = work.catch((error: unknown) => log('background work failed', error));
    pending.add(guarded);
    void guarded.finally(() => pending.delete(guarded));
  }

  function emit<E extends keyof EventPayloads>(event: E, payload: EventPayloads[E]): void {
    for (const listener of [...listeners[event]]) {
      try {
        listener(payload);
      } catch (error) {
        log(`a ${event} listener failed`, error);
      }
    }
  }

  const zone = () => session.account?.timezone ?? machineZone();

  function viewContext(): ViewContext | null {
    const account = session.account;
    if (account === null) return null;
    return { zone: account.timezone, now: clock.now(), userId: account.userId, checkInLeadMinutes: settings.checkInLeadMinutes };
  }

  function snapshot(): StateSnapshot {
    const now = clock.now();
    const account = session.account;
    const userZone = zone();
    const context: ViewContext = { zone: userZone, now, userId: account?.userId ?? 0, checkInLeadMinutes: settings.checkInLeadMinutes };
    return {
      phase,
      account: account === null ? null : accountView(account),
      reservations: account === null ? [] : upcomingViews(data.reservations, context),
      freeNow:
        account === null || data.availabilityAskedAt === null
          ? []
          : freeNowViews(data.availability, {
              zone: userZone,
              now,
              askedAt: data.availabilityAskedAt,
              schedules: data.schedules,
              groupNames: groupNamesByResource(data.groups),
            }),
      fetchedAt: data.fetchedAt === null ? null : isoIn(userZone, data.fetchedAt),
      offline,
      lastError,
      keychain: options.secrets.status(),
      notifierProblem,
      now: isoIn(userZone, now),
    };
  }

  const stateChanged = () => emit('stateChanged', snapshot());

  // ---- the cache: the last good data, without secrets, so a restart shows something at once

  function cacheOf(account: AccountIdentity): CachedData {
    const view = accountView(account);
    return {
      savedAt: clock.now().toUTC().toISO() ?? '',
      account: { apiRoot: account.apiRoot, userId: account.userId, userName: account.userName, displayName: view.displayName, timezone: account.timezone, isAdmin: account.isAdmin },
      reservations: data.reservations,
      availability: data.availability,
      resources: data.resources,
      schedules: data.schedules,
      fetchedAt: data.fetchedAt?.toUTC().toISO() ?? null,
      shownNotificationIds: [...shown],
    };
  }

  function persistCache(): void {
    const account = session.account;
    if (account === null) return;
    const cache = cacheOf(account);
    const fingerprint = JSON.stringify({ ...cache, savedAt: '' });
    if (fingerprint === lastSavedCache) return;
    lastSavedCache = fingerprint;
    // One write at a time, in order: the last state is the one left on disk.
    cacheWrites = cacheWrites.then(() => saveCache(dataDir, cache, { log: (message) => log(message) })).catch((error: unknown) => log('could not write the cache', error));
    track(cacheWrites);
  }

  async function removeCache(): Promise<void> {
    lastSavedCache = '';
    await cacheWrites;
    await rm(join(dataDir, cacheFileName), { force: true });
  }

  /** The cache, when it belongs to this account (the local service's address changes between runs). */
  async function adoptAccount(account: AccountIdentity): Promise<void> {
    data = emptyData();
    shown = new Set();
    previousPlanned = null;
    offline = false;
    const cache = await loadCache(dataDir);
    const owner = cache?.account;
    if (!cache || !owner || owner.userId !== account.userId || owner.userName !== account.userName) return;
    if (account.server.kind !== 'local' && owner.apiRoot !== account.apiRoot) return;
    const fetchedAt = cache.fetchedAt === null ? null : DateTime.fromISO(cache.fetchedAt);
    data = {
      ...emptyData(),
      reservations: cache.reservations,
      availability: cache.availability,
      availabilityAskedAt: cache.availability.length > 0 && fetchedAt?.isValid ? fetchedAt : null,
      resources: cache.resources,
      schedules: cache.schedules,
      fetchedAt: fetchedAt?.isValid ? fetchedAt : null,
    };
    shown = new Set(cache.shownNotificationIds);
    lastSavedCache = JSON.stringify({ ...cacheOf(account), savedAt: '' });
  }

  // ---- notifications: re-planned after every poll, and by one timer in between

  function clearWakeTimer(): void {
    if (wakeTimer !== null) clock.clearTimeout(wakeTimer);
    wakeTimer = null;
  }

  async function replan(previous: PlannerReservation[] | null, horizon: DateTime | null): Promise<void> {
    clearWakeTimer();
    const account = session.account;
    if (account === null) return;
    const now = clock.now();
    const current = plannerReservations(data.reservations);
    const plan = planNotifications({ now, zone: account.timezone, reservations: current, previous, settings, shown, horizon });
    for (const notification of plan.due) {
      shown.add(notification.id);
      const shownResult = await notifier.show({ id: notification.id, referenceNumber: notification.referenceNumber, title: notification.title, body: notification.body });
      notifierProblem = shownResult.ok ? null : shownResult.problem;
    }
    shown = retainShown(shown, current, now);
    if (session.account !== account) return;
    if (plan.nextWakeAt !== null) {
      const delay = Math.max(0, plan.nextWakeAt.toMillis() - clock.now().toMillis());
      wakeTimer = clock.setTimeout(() => {
        wakeTimer = null;
        track(
          replan(null, null).then(() => {
            persistCache();
            stateChanged();
          }),
        );
      }, delay);
    }
  }

  // ---- polling

  /** Now to the end of tomorrow in the user's zone, or further when a reminder lead reaches further. */
  function narrowWindow(now: DateTime, account: AccountIdentity): { from: DateTime; to: DateTime } {
    const endOfTomorrow = now.setZone(account.timezone).plus({ days: 1 }).endOf('day');
    const leads = [settings.startReminderMinutes, settings.endReminderMinutes, settings.checkInLeadMinutes];
    for (const summary of data.reservations) {
      if (summary.startReminder !== null) leads.push(summary.startReminder);
      if (summary.endReminder !== null) leads.push(summary.endReminder);
    }
    // A reservation must be listed before its reminder is due, one poll interval ahead.
    const reach = now.plus({ minutes: Math.max(...leads), seconds: settings.pollIntervalSeconds });
    return { from: now, to: reach > endOfTomorrow ? reach : endOfTomorrow };
  }

  const availabilityStale = (now: DateTime) =>
    pausedBy.size === 0 && (data.availabilityAskedAt === null || now.diff(data.availabilityAskedAt, 'minutes').minutes >= availabilityBackgroundMinutes);

  /** Whether an error means the server cannot be reached (offline and backoff) rather than refused. */
  const unreachable = (result: SessionResult<unknown> | null) => result !== null && !result.ok && result.error.kind === 'network';

  async function poll(reason: PollReason): Promise<PollOutcome> {
    const account = session.account;
    if (account === null) return 'failed';
    pollsStarted += 1;
    const now = clock.now();
    const full = wanted.full || reason === 'start';
    const withAvailability = wanted.availability || full || availabilityStale(now);
    wanted.full = false;
    wanted.availability = false;
    const window = full ? { from: now, to: now.plus({ days: fullWindowDays }) } : narrowWindow(now, account);
    const [reservations, availability] = await Promise.all([
      session.run((client) =>
        client.getReservations({
          query: { userId: String(account.userId), startDateTime: formatWireDateTime(window.from.toUTC()), endDateTime: formatWireDateTime(window.to.toUTC()) },
        }),
      ),
      withAvailability
        ? session.run((client) => client.getAvailability({ query: { dateTime: formatWireDateTime(now.setZone(account.timezone)) } }))
        : Promise.resolve(null),
    ]);
    if (session.account !== account) return 'failed';

    if (unreachable(reservations) || unreachable(availability)) {
      // What the user asked for is still owed once the server is back.
      wanted.full ||= full;
      offline = true;
      stateChanged();
      return 'unreachable';
    }
    let outcome: PollOutcome = 'ok';
    for (const result of [reservations, availability]) {
      if (result !== null && !result.ok) {
        outcome = 'failed';
        if (result.error.kind !== 'signedOut') lastError = bridgeErrorFromSession(result.error);
      }
    }
    if (session.account !== account) return 'failed';
    offline = false;
    if (availability?.ok) {
      data.availability = availability.data.resources;
      data.availabilityAskedAt = now;
    }
    if (reservations.ok) {
      data.reservations = mergeReservations(data.reservations, reservations.data.reservations, window.from, window.to, now);
      data.fetchedAt = now;
      if (outcome === 'ok') lastError = null;
      const previous = previousPlanned;
      previousPlanned = plannerReservations(data.reservations);
      await replan(previous, window.to);
    }
    persistCache();
    stateChanged();
    return outcome;
  }

  const poller = createPoller({
    clock,
    intervalMs: () => settings.pollIntervalSeconds * 1000,
    poll(reason) {
      const work = poll(reason);
      track(work);
      return work;
    },
    log: (message, error) => log(`poller: ${message}`, error),
  });

  /** Runs a poll for what was asked; joins a running poll only if it started after the ask. */
  async function demandRefresh(): Promise<void> {
    const asked = pollsStarted;
    await poller.refreshNow('demand');
    if (pollsStarted === asked || wanted.full || wanted.availability) {
      if (!offline) await poller.refreshNow('demand');
    }
  }

  /** Resources, schedules and resource groups, at most hourly unless forced. */
  function refreshReference(force: boolean): Promise<void> {
    const account = session.account;
    if (account === null) return Promise.resolve();
    const fetchedAt = data.referenceFetchedAt;
    const fresh = fetchedAt !== null && clock.now().diff(fetchedAt, 'minutes').minutes < referenceDataMinutes && data.resources.length > 0;
    if (fresh && !force) return Promise.resolve();
    referenceRefresh ??= (async () => {
      const [resources, schedules, groups] = await Promise.all([
        session.run((client) => client.getAllResources()),
        session.run((client) => client.getAllSchedules()),
        session.run((client) => client.getResourceGroups()),
      ]);
      if (session.account !== account) return;
      if (resources.ok) data.resources = resources.data.resources;
      if (schedules.ok) data.schedules = schedules.data.schedules;
      if (groups.ok) data.groups = groups.data;
      if (resources.ok && schedules.ok) data.referenceFetchedAt = clock.now();
      persistCache();
    })().finally(() => {
      referenceRefresh = null;
    });
    return referenceRefresh;
  }

  async function referenceList<T>(pick: (data: CoreData) => T[]): Promise<SessionResult<T[]>> {
    await refreshReference(false);
    const list = pick(data);
    if (list.length > 0 || data.referenceFetchedAt !== null) return { ok: true, data: list };
    // Nothing cached and the refresh failed: ask once more to learn why.
    const probe = await session.run((client) => client.getAllSchedules());
    return probe.ok ? { ok: true, data: list } : probe;
  }

  function startPolling(): void {
    poller.stop();
    poller.start();
    if (pausedBy.size > 0) poller.pause();
  }

  function stopBackground(): void {
    poller.stop();
    clearWakeTimer();
  }

  /** After sign-out, asked for or forced: nothing of the account stays in memory or in the cache. */
  async function forgetAccountData(): Promise<void> {
    stopBackground();
    data = emptyData();
    shown = new Set();
    previousPlanned = null;
    offline = false;
    await removeCache();
  }

  session.onSignedOut((error) => {
    phase = 'signedOut';
    lastError = error;
    track(forgetAccountData().then(stateChanged));
    stateChanged();
  });

  async function signIn(request: SignInRequest, how: SignInOptions = {}): Promise<BridgeResult<StateSnapshot>> {
    phase = 'signingIn';
    stateChanged();
    const result = await session.signIn(request, how);
    if (!result.ok) {
      // A failed attempt to switch accounts leaves the signed-in one as it was.
      phase = session.account === null ? 'signedOut' : 'ready';
      stateChanged();
      return result;
    }
    stopBackground();
    await adoptAccount(result.value);
    phase = 'ready';
    lastError = null;
    startPolling();
    await Promise.all([poller.refreshNow('demand'), refreshReference(true)]);
    stateChanged();
    return success(snapshot());
  }

  /** The provisioned account keeps its generated password in the keychain: nobody could type it. */
  const provisionedSignIn = (username: string, password: string): SignInRequest => ({ server: { kind: 'local' }, username, password, staySignedIn: true });

  /**
   * "Try it on this computer": the local service with the person's own account, whose password
   * nobody types — the one kept in the keychain, or a new one the service is told to accept.
   */
  async function tryThisComputer(): Promise<BridgeResult<StateSnapshot>> {
    const localService = options.localService;
    if (!localService) return failure(invalidInput(sessionMessages.noLocalService));
    phase = 'signingIn';
    stateChanged();
    const profile = (options.localProfile ?? thisComputersProfile)();
    const password = (await session.keptLocalPassword(profile.userName)) ?? generateLocalPassword();
    const started = await localService.ensureRunning({ ...profile, password });
    if (!started.ok) {
      phase = session.account === null ? 'signedOut' : 'ready';
      stateChanged();
      return started;
    }
    return signIn(provisionedSignIn(started.value.userName ?? profile.userName, password), { provisioned: true });
  }

  /** Starts the local service for the kept account, then restores it (or signs in afresh when the keychain lost the password). */
  async function restoreLocal(kept: AccountIdentity, localService: LocalService): Promise<boolean> {
    const keptPassword = await session.keptLocalPassword(kept.userName);
    const password = keptPassword ?? generateLocalPassword();
    const { userName, firstName, lastName, timezone } = kept;
    const started = await localService.ensureRunning({ userName, firstName, lastName, timezone, password });
    if (!started.ok) {
      lastError = started.error;
      return false;
    }
    if (keptPassword !== null) return session.restore();
    const signedIn = await session.signIn(provisionedSignIn(started.value.userName ?? userName, password), { provisioned: true });
    if (!signedIn.ok) lastError = signedIn.error;
    return signedIn.ok;
  }

  async function restoreKept(): Promise<boolean> {
    const kept = await session.keptIdentity();
    // Other accounts of the local service are restored like any other; the service starts when the session asks for it.
    if (kept?.server.kind === 'local' && kept.provisioned && options.localService) return restoreLocal(kept, options.localService);
    return session.restore();
  }

  async function signOut(): Promise<BridgeResult<StateSnapshot>> {
    stopBackground();
    await session.signOut();
    await forgetAccountData();
    phase = 'signedOut';
    lastError = null;
    stateChanged();
    return success(snapshot());
  }

  async function refresh(): Promise<StateSnapshot> {
    if (session.account === null) return snapshot();
    wanted.full = true;
    wanted.availability = true;
    await Promise.all([demandRefresh(), refreshReference(true)]);
    return snapshot();
  }

  const handlers = createCommandHandlers({
    session,
    snapshot,
    viewContext,
    signIn,
    tryThisComputer,
    signOut,
    refresh,
    settings: () => settings,
    async saveSettings(next) {
      await saveSettings(dataDir, next);
      settings = next;
      // New lead times or switches change what is due.
      if (session.account !== null) await replan(null, null);
      stateChanged();
    },
    resources: () => referenceList((current) => current.resources),
    schedules: () => referenceList((current) => current.schedules),
    knownSummary: (referenceNumber) => data.reservations.find((summary) => summary.referenceNumber === referenceNumber),
    reservationChanged(detail: WireReservation) {
      const index = data.reservations.findIndex((summary) => summary.referenceNumber === detail.referenceNumber);
      if (index >= 0) data.reservations[index] = summaryUpdatedBy(data.reservations[index]!, detail);
      previousPlanned = plannerReservations(data.reservations);
      track(replan(null, null));
      persistCache();
      stateChanged();
    },
    async reservationsChanged() {
      wanted.full = true;
      wanted.availability = true;
      await demandRefresh();
    },
  });

  async function idle(): Promise<void> {
    // A timer callback starts its work a few microtasks later; let it begin before looking.
    do {
      await new Promise<void>((resolve) => setImmediate(resolve));
      await Promise.allSettled([...pending]);
      await new Promise<void>((resolve) => setImmediate(resolve));
    } while (pending.size > 0);
  }

  function pause(reason: PauseReason): void {
    pausedBy.add(reason);
    poller.pause();
  }

  function resume(reason: PauseReason): void {
    pausedBy.delete(reason);
    if (pausedBy.size > 0 || session.account === null) return;
    track(poller.resume(reason === 'suspended' ? 'resume' : 'unlock'));
  }

  return {
    handlers,
    on(event, listener) {
      listeners[event].add(listener);
      return () => {
        listeners[event].delete(listener);
      };
    },
    snapshot,
    async start() {
      const loaded = await loadSettings(dataDir, { now: () => clock.now() });
      settings = loaded.settings;
      if (loaded.problem !== null) lastError = { kind: 'unexpected', message: loaded.problem };
      unsubscribeClicks ??= notifier.onClick((referenceNumber) => emit('navigate', { referenceNumber }));
      if (await restoreKept()) {
        await adoptAccount(session.account!);
        phase = 'ready';
        startPolling();
        track(refreshReference(false));
      }
      stateChanged();
    },
    async stop() {
      stopBackground();
      unsubscribeClicks?.();
      unsubscribeClicks = null;
      await idle();
      await options.localService?.stop();
    },
    popoverOpened() {
      if (session.account === null) return;
      wanted.full = true;
      wanted.availability = true;
      track(demandRefresh());
      track(refreshReference(false));
    },
    systemSuspended: () => pause('suspended'),
    systemResumed: () => resume('suspended'),
    screenLocked: () => pause('locked'),
    screenUnlocked: () => resume('locked'),
    idle,
  };
}

