/**
 * The user's settings: kept in the data folder, except launch at login, which is the OS's, and the
 * global shortcut, which is claimed from the OS as well as kept.
 */
import type { BridgeResult, Settings } from '../bridge/contract.js';
import type { Autostart } from './desktop/autostart.js';
import { claimShortcut, deliveryProblem, type GlobalShortcut, type ShortcutDelivery } from './desktop/global-shortcut.js';
import type { Clock } from './clock.js';
import type { CoreState } from './core-state.js';
import { failure, invalidInput, messageOf, success } from './errors.js';
import type { NotificationSchedule } from './notifications/notification-schedule.js';
import type { AccountSession } from './session/session.js';
import { loadSettings, saveSettings } from './storage/settings-store.js';
import type { CoreView } from './views/snapshot.js';

export interface UserSettingsOptions {
  dataDir: string;
  clock: Clock;
  state: CoreState;
  /** Launch at login as the OS keeps it; without it (a run from source) the setting is only remembered. */
  autostart?: Autostart;
  /** The shortcut that opens Perch from any app; without it (tests, or a desktop without one) the setting is only remembered. */
  globalShortcut?: GlobalShortcut;
  log(message: string, error?: unknown): void;
  session: Pick<AccountSession, 'account'>;
  /** Saved settings change what is due (new lead times or switches)... */
  notifications: Pick<NotificationSchedule, 'replan'>;
  /** ...and what is shown. */
  view: Pick<CoreView, 'changed'>;
}

export interface UserSettings {
  /** The settings as last read. */
  current(): Settings;
  /** The settings as they are now: launch at login as the OS has it, which the user may have changed there. */
  read(): Promise<Settings>;
  /** Refused (the OS would not give Perch the shortcut) with the setting's name in the error's lines. */
  save(next: Settings): Promise<BridgeResult<null>>;
  /** At start: the kept settings read, and the shortcut claimed. */
  load(): Promise<void>;
}

export function createUserSettings(options: UserSettingsOptions): UserSettings {
  const { state, autostart, globalShortcut, log } = options;
  /** How the desktop delivers the shortcut: known once load() has asked. */
  let shortcutDelivery: ShortcutDelivery = { kind: 'direct' };
  state.shortcutCommand = globalShortcut?.launchCommand ?? null;

  /** Launch at login is the OS's: shown as the OS has it, which the user may change in the OS's own settings. */
  async function read(): Promise<Settings> {
    if (autostart) {
      try {
        state.settings = { ...state.settings, launchAtLogin: await autostart.read() };
      } catch (error) {
        log('could not read whether Perch starts at login', error);
      }
    }
    return state.settings;
  }

  return {
    current: () => state.settings,
    read,

    async save(next) {
      // Written only when the user changes it (state.settings was just read from the OS): a start,
      // or a change of theme, leaves the OS's login items alone.
      if (autostart && next.launchAtLogin !== state.settings.launchAtLogin) {
        await autostart.write(next.launchAtLogin).catch((error: unknown) => {
          throw new Error(`Perch could not change whether it starts at login: ${messageOf(error)}`);
        });
      }
      if (globalShortcut && next.globalShortcut !== state.settings.globalShortcut) {
        const problem = claimShortcut(globalShortcut, next.globalShortcut, state.settings.globalShortcut);
        if (problem !== null)
          return failure({ ...invalidInput('The shortcut could not be set.'), fields: [{ field: 'globalShortcut', problem }] });
        // Held, yet it may never fire: the desktop's limit is shown, not refused, since no other keys would do better.
        state.shortcutProblem = deliveryProblem(shortcutDelivery, next.globalShortcut, state.shortcutCommand);
      }
      await saveSettings(options.dataDir, next);
      state.settings = next;
      if (options.session.account !== null) await options.notifications.replan(null, null);
      options.view.changed();
      return success(null);
    },

    async load() {
      // Asked first: on Wayland a question to the session bus, answered while the settings load.
      const delivery = globalShortcut?.delivery();
      const loaded = await loadSettings(options.dataDir, { now: () => options.clock.now() });
      state.settings = loaded.settings;
      await read();
      if (globalShortcut && delivery) {
        shortcutDelivery = await delivery;
        if (shortcutDelivery.kind === 'portal' && shortcutDelivery.portal.kind !== 'present') {
          log(`global shortcuts go through the desktop portal here: ${shortcutDelivery.portal.reason}`);
        }
        const accelerator = state.settings.globalShortcut;
        if (accelerator !== '') {
          state.shortcutProblem =
            claimShortcut(globalShortcut, accelerator, null) ?? deliveryProblem(shortcutDelivery, accelerator, state.shortcutCommand);
        }
      }
      if (loaded.problem !== null) state.lastError = { kind: 'unexpected', message: loaded.problem };
    },
  };
}
