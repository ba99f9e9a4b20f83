/**
 * The tray app's core, composed: the session, polling, the notification schedule, the cache and
 * the settings, behind the bridge's commands and events. Plain Node; the Electron shell only
 * forwards power and screen events and wires the commands to IPC.
 */
import type { DateTime } from 'luxon';
import type { CommandHandlers, Settings, StateSnapshot, TimeFormatRules } from '../bridge/contract.js';
import type { Autostart } from './desktop/autostart.js';
import { claimShortcut, deliveryProblem, type GlobalShortcut, type ShortcutDelivery } from './desktop/global-shortcut.js';
import { failure, invalidInput, messageOf, success } from './errors.js';
import { createAccountCache } from './account/account-cache.js';
import { createStartTimeRules } from './account/start-time-rules.js';
import { createAccountFlow } from './account/account-flow.js';
import { createBackgroundWork } from './background-work.js';
import type { Clock } from './clock.js';
import { createCommandHandlers } from './commands/commands.js';
import { createCoreEvents, type CoreEvents } from './core-events.js';
import { createCoreState } from './core-state.js';
import type { SecretStore } from './storage/secret-store.js';
import type { LocalProfile } from './local-service/local-account.js';
import type { LocalService } from './local-service/local-service.js';
import { createNotificationResponder } from './notifications/notification-responses.js';
import { createNotificationSchedule } from './notifications/notification-schedule.js';
import { notifierProblemOf, type Notifier } from './notifications/notifier.js';
import { createReferenceData } from './sync/reference-data.js';
import { createAccountSession } from './session/session.js';
import { loadSettings, saveSettings } from './storage/settings-store.js';
import { resourceFaces } from './views/resource-kind.js';
import { freeViews, snapshotOf, viewContextOf } from './views/snapshot.js';
import { coveredSchedules } from './sync/free-now-schedules.js';
import { knownClosed } from './views/opening-hours.js';
import { bookNowScheduleIds } from './desktop/tray-menu.js';
import { defaultSlowAnswerMs } from './sync/poll-answers.js';
import { createSync } from './sync/sync.js';
import { autoCheckInKey, autoCheckInTarget } from './auto-check-in.js';
import { listedReservations } from './reservations.js';
import { notificationId } from './notifications/planner.js';

export interface PerchCoreOptions {
  dataDir: string;
  clock: Clock;
  secrets: SecretStore;
  notifier: Notifier;
  /** Launch at login as the OS keeps it; without it (a run from source) the setting is only remembered. */
  autostart?: Autostart;
  /** The shortcut that opens Perch from any app; without it (tests, or a desktop without one) the setting is only remembered. */
  globalShortcut?: GlobalShortcut;
  /** The service "Try it on this computer" runs; the core stops it when it stops. */
  localService?: LocalService;
  /** Who the person at this computer is to the local service; read from the OS by default. */
  localProfile?: () => LocalProfile;
  /** How the user reads times, from the OS (Electron's system locale); Intl's default when absent. */
  timeFormat?: TimeFormatRules;
  fetch?: typeof fetch;
  log?: (message: string, error?: unknown) => void;
  /** Monotonic milliseconds, to time the server's answers; `performance.now` by default. */
  monotonicMs?: () => number;
  /** An answer slower than this makes Perch poll less often; 3 s by default. */
  slowAnswerMs?: number;
}

export interface PerchCore {
  handlers: CommandHandlers;
  on: CoreEvents['on'];
  snapshot(): StateSnapshot;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** The user looks at the popover: what it shows is asked for again. */
  popoverOpened(): void;
  /**
   * The user opened the tray menu, where the OS reports it: the same refresh as the popover's, but
   * not within a minute of the last look, since a menu is opened and closed in passing.
   */
  trayMenuOpened(): void;
  systemSuspended(): void;
  systemResumed(): void;
  screenLocked(): void;
  screenUnlocked(): void;
  /** Resolves once background work (polls, notifications, cache writes) has settled: for tests and benchmarks. */
  idle(): Promise<void>;
}

/** A tray menu opened this soon after the last look asks the server nothing more. */
export const trayMenuLookIntervalMs = 60_000;

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
  const state = createCoreState(options.timeFormat);
  state.notifierProblem = notifier.knownProblem ?? null;
  const events = createCoreEvents(log);
  const { track, idle } = createBackgroundWork(log);
  let unsubscribeResponses: (() => void) | null = null;
  let unsubscribeUnlocked: (() => void) | null = null;
  /** When the user last looked (popover or tray menu), in epoch ms. */
  let lookedAtMs = Number.NEGATIVE_INFINITY;
  /** How the desktop delivers the shortcut: known once start() has asked. */
  let shortcutDelivery: ShortcutDelivery = { kind: 'direct' };
  state.shortcutCommand = options.globalShortcut?.launchCommand ?? null;

  const startTimeRules = createStartTimeRules({ dataDir, track, log });
  const snapshot = () => snapshotOf(state, session.account, clock.now(), options.secrets.status(), startTimeRules.locksStarted(session.account));
  /** The last state shown: the background keeps fresh what its tray's Book now shows. */
  let lastShown: StateSnapshot | null = null;
  const stateChanged = () => {
    lastShown = snapshot();
    events.emit('stateChanged', lastShown);
  };

  /** Launch at login is the OS's: shown as the OS has it, which the user may change in the OS's own settings. */
  async function readSettings(): Promise<Settings> {
    if (options.autostart) {
      try {
        state.settings = { ...state.settings, launchAtLogin: await options.autostart.read() };
      } catch (error) {
        log('could not read whether Perch starts at login', error);
      }
    }
    return state.settings;
  }

  const cache = createAccountCache({ dataDir, state, session, track, log });
  const notifications = createNotificationSchedule({
    clock,
    state,
    session,
    notifier,
    startTimeRules,
    track,
    readOwnList: () => sync.ownListNow(),
    woke() {
      cache.persist();
      stateChanged();
    },
  });
  const reference = createReferenceData({ clock, state, session, changed: cache.persist });
  const sync = createSync({
    clock,
    state,
    session,
    notifications,
    track,
    persist: cache.persist,
    stateChanged,
    log,
    shownInTray: () => (lastShown === null ? [] : bookNowScheduleIds(lastShown, clock.now())),
    referenceData: () => reference.refresh(false),
    monotonicMs: options.monotonicMs ?? (() => performance.now()),
    slowAnswerMs: options.slowAnswerMs ?? defaultSlowAnswerMs,
  });
  const accounts = createAccountFlow({
    state,
    session,
    secrets: options.secrets,
    ...(options.localService !== undefined && { localService: options.localService }),
    ...(options.localProfile !== undefined && { localProfile: options.localProfile }),
    cache,
    sync,
    reference,
    track,
    snapshot,
    stateChanged,
  });

  const handlers = createCommandHandlers({
    session,
    snapshot,
    viewContext: () => viewContextOf(session.account, clock.now(), state.data, startTimeRules.locksStarted(session.account)),
    startTimeRules,
    signIn: accounts.signIn,
    tryThisComputer: accounts.tryThisComputer,
    signOut: accounts.signOut,
    async refresh() {
      // The look's poll reads the reference data too, but only when it is stale.
      if (session.account !== null) await sync.refreshReservations();
      return snapshot();
    },
    async reloadEverything() {
      if (session.account === null) return snapshot();
      // Started first, so that the look's poll joins this read and works Free now out against it.
      await Promise.all([reference.refresh(true), sync.refreshReservations()]);
      return snapshot();
    },
    settings: () => state.settings,
    readSettings,
    async saveSettings(next) {
      // Written only when the user changes it (state.settings was just read from the OS): a start,
      // or a change of theme, leaves the OS's login items alone.
      if (options.autostart && next.launchAtLogin !== state.settings.launchAtLogin) {
        await options.autostart.write(next.launchAtLogin).catch((error: unknown) => {
          throw new Error(`Perch could not change whether it starts at login: ${messageOf(error)}`);
        });
      }
      if (options.globalShortcut && next.globalShortcut !== state.settings.globalShortcut) {
        const problem = claimShortcut(options.globalShortcut, next.globalShortcut, state.settings.globalShortcut);
        if (problem !== null) return failure({ ...invalidInput('The shortcut could not be set.'), fields: [{ field: 'globalShortcut', problem }] });
        // Held, yet it may never fire: the desktop's limit is shown, not refused, since no other keys would do better.
        state.shortcutProblem = deliveryProblem(shortcutDelivery, next.globalShortcut, state.shortcutCommand);
      }
      await saveSettings(dataDir, next);
      state.settings = next;
      // New lead times or switches change what is due.
      if (session.account !== null) await notifications.replan(null, null);
      stateChanged();
      return success(null);
    },
    resources: reference.resources,
    resourceFaces: () => resourceFaces(state.data.resources, state.data.resourceTypes, state.data.groups),
    schedules: reference.schedules,
    reservationAttributes: reference.reservationAttributes,
    knownSummary: (referenceNumber) => state.data.reservations.find((summary) => summary.referenceNumber === referenceNumber),
    reservationChanged: sync.reservationChanged,
    reservationsChanged: sync.refreshReservations,
    hidePopover: () => events.emit('hidePopover', null),
    openExternal: (url) => events.emit('openExternal', url),
    copyText: (text) => events.emit('copyText', text),
    openBookForm: (book) => events.emit('navigate', { book }),
    freeNowScheduleIds: (at) => coveredSchedules(state, session.account).filter((scheduleId) => !knownClosed(state.data.hours, scheduleId, at)),
    freeViews: (answers, start, end) => (session.account === null ? [] : freeViews(state, session.account, answers, start, end)),
  });

  /** The bookings auto check-in tried this run (autoCheckInKey): one chance each, whatever came of it. */
  const autoCheckInTried = new Set<string>();

  /**
   * Unlocked or woken: with the setting on, checks in to the booking whose check-in window is open,
   * once. It waits for the list read on resume and acts only on a list read since `back` (a booking
   * moved or released while the computer slept must not be checked in to as it was); where no such
   * read came (still asleep or locked, offline), it does nothing. A refusal changes nothing: the
   * check-in notification stands as it was. A success replaces it with a short confirmation.
   */
  async function checkInByItself(back: DateTime): Promise<void> {
    if (!state.settings.autoCheckIn || session.account === null) return;
    await sync.ownListNow();
    const fetchedAt = state.data.fetchedAt;
    if (!state.settings.autoCheckIn || session.account === null || fetchedAt === null || fetchedAt.toMillis() < back.toMillis()) return;
    const target = autoCheckInTarget(listedReservations(state.data, session.account.userId), clock.now(), state.settings.checkInLeadMinutes, autoCheckInTried);
    if (target === null) return;
    autoCheckInTried.add(autoCheckInKey(target));
    const { referenceNumber } = target;
    const result = await handlers.checkIn({ referenceNumber });
    if (!result.ok) {
      log(`checking in by itself to ${referenceNumber} failed: ${result.error.message}`);
      return;
    }
    const shown = await notifier.show({
      // The check-in notice's own id: a notice still on screen is replaced, not left offering Check in.
      id: notificationId('checkInOpen', referenceNumber, target.start.toMillis()),
      referenceNumber,
      title: `Checked in to ${target.resourceName}`,
      body: `${target.title || target.resourceName}: Perch checked in as you came back to this computer.`,
      actions: [],
    });
    state.notifierProblem = notifierProblemOf(shown);
    stateChanged();
  }

  const respond = createNotificationResponder({
    handlers,
    snooze: notifications.snooze,
    navigate: (payload) => events.emit('navigate', payload),
  });

  /** The user looks: their list and who is busy now are asked for again (README, "How often Perch asks the server"). */
  function looked(): void {
    lookedAtMs = clock.now().toMillis();
    if (session.account === null) return;
    track(sync.refreshReservations());
    track(reference.refresh(false));
  }

  return {
    handlers,
    on: events.on,
    snapshot,
    async start() {
      // Asked first: on Wayland a question to the session bus, answered while the settings load.
      const delivery = options.globalShortcut?.delivery();
      const loaded = await loadSettings(dataDir, { now: () => clock.now() });
      await startTimeRules.load();
      state.settings = loaded.settings;
      await readSettings();
      if (options.globalShortcut && delivery) {
        shortcutDelivery = await delivery;
        if (shortcutDelivery.kind === 'portal' && shortcutDelivery.portal.kind !== 'present') {
          log(`global shortcuts go through the desktop portal here: ${shortcutDelivery.portal.reason}`);
        }
        const accelerator = state.settings.globalShortcut;
        if (accelerator !== '') {
          state.shortcutProblem = claimShortcut(options.globalShortcut, accelerator, null) ?? deliveryProblem(shortcutDelivery, accelerator, state.shortcutCommand);
        }
      }
      if (loaded.problem !== null) state.lastError = { kind: 'unexpected', message: loaded.problem };
      unsubscribeResponses ??= notifier.onResponse((invocation) => track(respond(invocation)));
      // The keychain's status is part of what the popover shows.
      unsubscribeUnlocked ??= options.secrets.onUnlocked(stateChanged);
      await accounts.restore();
      stateChanged();
    },
    async stop() {
      accounts.stop();
      sync.stop();
      cache.flush();
      unsubscribeResponses?.();
      unsubscribeResponses = null;
      unsubscribeUnlocked?.();
      unsubscribeUnlocked = null;
      await idle();
      await options.localService?.stop();
    },
    popoverOpened: looked,
    trayMenuOpened() {
      if (clock.now().toMillis() - lookedAtMs < trayMenuLookIntervalMs) return;
      looked();
    },
    systemSuspended() {
      sync.pause('suspended');
      notifications.suspended();
      cache.flush();
    },
    systemResumed() {
      const back = clock.now();
      sync.resume('suspended');
      // Joins the read the resume started: nothing is shown before it is in.
      notifications.resumed();
      track(checkInByItself(back));
    },
    screenLocked: () => sync.pause('locked'),
    screenUnlocked() {
      const back = clock.now();
      sync.resume('locked');
      // Unlocking the screen often unlocks the keychain too (through PAM, on Linux).
      options.secrets.retry();
      track(checkInByItself(back));
    },
    idle,
  };
}
