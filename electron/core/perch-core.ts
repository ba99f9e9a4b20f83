/**
 * The tray app's core, composed: the session, polling, the notification schedule, the cache and
 * the settings, behind the bridge's commands and events. Plain Node; the Electron shell only
 * forwards power and screen events and wires the commands to IPC.
 */
import type { DateTime } from 'luxon';
import type { CommandHandlers, StateSnapshot, TimeFormatRules } from '../bridge/contract.js';
import type { Autostart } from './desktop/autostart.js';
import type { GlobalShortcut } from './desktop/global-shortcut.js';
import { createAccountCache } from './account/account-cache.js';
import { createStartTimeRules } from './account/start-time-rules.js';
import { createAccountFlow } from './account/account-flow.js';
import { createBackgroundWork } from './background-work.js';
import type { Clock } from './clock.js';
import { createCommandHandlers } from './commands/commands.js';
import { createCoreEvents, type CoreEvents } from './core-events.js';
import { createCoreState } from './core-state.js';
import { createCoreView } from './views/snapshot.js';
import type { SecretStore } from './storage/secret-store.js';
import type { LocalProfile } from './local-service/local-account.js';
import type { LocalService } from './local-service/local-service.js';
import { createNotificationResponder } from './notifications/notification-responses.js';
import { createNotificationSchedule } from './notifications/notification-schedule.js';
import { notifierProblemOf, type Notifier } from './notifications/notifier.js';
import { createReferenceData } from './sync/reference-data.js';
import { createAccountSession } from './session/session.js';
import { bookNowScheduleIds } from './desktop/tray-menu.js';
import { defaultSlowAnswerMs } from './sync/poll-answers.js';
import { createSync } from './sync/sync.js';
import { autoCheckInKey, autoCheckInTarget } from './auto-check-in.js';
import { listedReservations } from './reservations.js';
import { notificationId } from './notifications/planner.js';
import { createUserSettings } from './user-settings.js';

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

  const startTimeRules = createStartTimeRules({ dataDir, track, log });
  const view = createCoreView({ clock, state, session, secrets: options.secrets, startTimeRules });
  const { snapshot } = view;
  /** The last state shown: the background keeps fresh what its tray's Book now shows. */
  let lastShown: StateSnapshot | null = null;
  const stateChanged = () => {
    lastShown = snapshot();
    events.emit('stateChanged', lastShown);
  };

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

  const settings = createUserSettings({
    dataDir,
    clock,
    state,
    ...(options.autostart !== undefined && { autostart: options.autostart }),
    ...(options.globalShortcut !== undefined && { globalShortcut: options.globalShortcut }),
    log,
    async saved() {
      // New lead times or switches change what is due.
      if (session.account !== null) await notifications.replan(null, null);
      stateChanged();
    },
  });

  const handlers = createCommandHandlers({ state, session, accounts, sync, reference, startTimeRules, settings, view, events });

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
    const target = autoCheckInTarget(
      listedReservations(state.data, session.account.userId),
      clock.now(),
      state.settings.checkInLeadMinutes,
      autoCheckInTried,
    );
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
      await Promise.all([settings.load(), startTimeRules.load()]);
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
