/**
 * The tray app's core, composed: the session, polling, the notification schedule, the cache and
 * the settings, behind the bridge's commands and events. Plain Node; the Electron shell only
 * forwards power and screen events and wires the commands to IPC.
 */
import type { CommandHandlers, StateSnapshot, TimeFormatRules } from '../bridge/contract.js';
import type { Autostart } from './desktop/autostart.js';
import type { GlobalShortcut } from './desktop/global-shortcut.js';
import { createAccountCache } from './account/account-cache.js';
import { createStartTimeRules } from './session/start-time-rules.js';
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
import type { Notifier } from './notifications/notifier.js';
import { createReferenceData } from './sync/reference-data.js';
import { createAccountSession } from './session/session.js';
import { defaultSlowAnswerMs } from './sync/poll-answers.js';
import { createSync } from './sync/sync.js';
import { createAutoCheckIn } from './auto-check-in.js';
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
  const view = createCoreView({ clock, state, session, secrets: options.secrets, startTimeRules, events });
  const { snapshot, changed: stateChanged } = view;

  const cache = createAccountCache({ dataDir, state, session, track, log });
  const notifications = createNotificationSchedule({
    clock,
    state,
    session,
    notifier,
    startTimeRules,
    track,
    // The sync is made after the schedule, which it re-plans after each read.
    readOwnList: () => sync.ownListNow(),
    persist: cache.persist,
    view,
  });
  const reference = createReferenceData({ clock, state, session, changed: cache.persist });
  const sync = createSync({
    clock,
    state,
    session,
    notifications,
    track,
    persist: cache.persist,
    log,
    view,
    reference,
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
    view,
  });

  const settings = createUserSettings({
    dataDir,
    clock,
    state,
    ...(options.autostart !== undefined && { autostart: options.autostart }),
    ...(options.globalShortcut !== undefined && { globalShortcut: options.globalShortcut }),
    log,
    session,
    notifications,
    view,
  });

  const handlers = createCommandHandlers({ state, session, accounts, sync, reference, startTimeRules, settings, view, events });

  const autoCheckIn = createAutoCheckIn({ clock, state, session, sync, handlers, notifier, view, log });

  const respond = createNotificationResponder({
    handlers,
    snooze: notifications.snooze,
    events,
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
      track(autoCheckIn.cameBack(back));
    },
    screenLocked: () => sync.pause('locked'),
    screenUnlocked() {
      const back = clock.now();
      sync.resume('locked');
      // Unlocking the screen often unlocks the keychain too (through PAM, on Linux).
      options.secrets.retry();
      track(autoCheckIn.cameBack(back));
    },
    idle,
  };
}
