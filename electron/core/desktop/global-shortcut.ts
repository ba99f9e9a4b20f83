/**
 * The shortcut that opens Perch from anywhere: an Electron accelerator ("CommandOrControl+Alt+P"),
 * checked here in plain data so a wrong one is refused with the setting's name before the OS sees
 * it, and shown to the user in the words of their platform ("Ctrl+Alt+P", "⌘⌥P").
 */
import type { Result } from '../../api/result.js';

/**
 * Whether a Wayland desktop's portal (org.freedesktop.portal.Desktop) offers the GlobalShortcuts
 * interface, through which alone an app gets keys pressed in other apps there. GNOME's portal
 * implements it from GNOME 48, KDE Plasma's from 5.27, Hyprland's; GNOME 46 (Ubuntu 24.04) and
 * wlroots' portal (Sway) do not, and then a registered shortcut never fires.
 */
export type ShortcutPortal =
  | { kind: 'present'; version: number }
  | { kind: 'missing'; reason: string }
  /** The bus did not say (no answer in time, an unexpected error). */
  | { kind: 'unknown'; reason: string };

/** How keys pressed in other apps reach Perch: the OS's own registration (macOS, Windows, X11), or the portal (Wayland). */
export type ShortcutDelivery = { kind: 'direct' } | { kind: 'portal'; portal: ShortcutPortal };

/** What the shell registers with the OS; the core decides when. */
export interface GlobalShortcut {
  /**
   * Holds `accelerator` in place of the one held before ('' for none). False when the OS refused
   * it, usually because another app holds it; nothing is held then.
   */
  set(accelerator: string): boolean;
  /** How the desktop delivers the keys; asked once (on Wayland, of the session bus). */
  delivery(): Promise<ShortcutDelivery>;
  /**
   * The command that starts Perch, for a shortcut made in the desktop's own keyboard settings
   * (starting Perch while it runs opens the popover); null where Perch offers no such route.
   */
  launchCommand: string | null;
}

/**
 * A Wayland session, where a shortcut goes through the portal: Electron runs as a Wayland client
 * there (its `--ozone-platform` is `auto`), and even forced onto XWayland its X11 key grab only
 * sees keys pressed in other X11 windows.
 */
export function waylandSession(env: NodeJS.ProcessEnv): boolean {
  return env['XDG_SESSION_TYPE'] === 'wayland' || Boolean(env['WAYLAND_DISPLAY']);
}

/** What a desktop's command line takes as one word: the text as it is, or in single quotes. */
function shellWord(text: string): string {
  return /^[\w./+-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/** Where the deb and rpm install the program; their postinst links /usr/bin/perch to it. */
export const installedProgram = { path: '/opt/Perch/perch', command: 'perch' } as const;

/**
 * The command a desktop's custom shortcut runs to open Perch, on Linux (null elsewhere): `perch`
 * for the deb or rpm, the AppImage's own file for an AppImage (APPIMAGE; the program inside it
 * lives in a mount that changes each run), the program as it lies elsewhere, and Electron with
 * the app's folder for a run from source.
 */
export function launchCommand(facts: {
  platform: NodeJS.Platform;
  packaged: boolean;
  execPath: string;
  appImage: string | undefined;
  appPath: string;
}): string | null {
  if (facts.platform === 'darwin' || facts.platform === 'win32') return null;
  if (facts.appImage) return shellWord(facts.appImage);
  if (!facts.packaged) return `${shellWord(facts.execPath)} ${shellWord(facts.appPath)}`;
  return facts.execPath === installedProgram.path ? installedProgram.command : shellWord(facts.execPath);
}

const modifiers = new Map<string, string>([
  ['commandorcontrol', 'CommandOrControl'],
  ['cmdorctrl', 'CommandOrControl'],
  ['command', 'Command'],
  ['cmd', 'Command'],
  ['control', 'Control'],
  ['ctrl', 'Control'],
  ['alt', 'Alt'],
  ['option', 'Alt'],
  ['altgr', 'AltGr'],
  ['shift', 'Shift'],
  ['super', 'Super'],
  ['meta', 'Super'],
]);

/** Modifiers that make a combination global-worthy: Shift alone would take a letter from every app. */
const strongModifiers = new Set(['CommandOrControl', 'Command', 'Control', 'Alt', 'AltGr', 'Super']);

const namedKeys = new Map<string, string>(
  [
    'Space',
    'Tab',
    'Backspace',
    'Delete',
    'Insert',
    'Return',
    'Enter',
    'Up',
    'Down',
    'Left',
    'Right',
    'Home',
    'End',
    'PageUp',
    'PageDown',
    'Escape',
    'Plus',
  ].map((key) => [key.toLowerCase(), key]),
);

function keyOf(token: string): string | null {
  if (/^[a-z0-9]$/i.test(token)) return token.toUpperCase();
  if (/^f([1-9]|1[0-9]|2[0-4])$/i.test(token)) return token.toUpperCase();
  if (/^[-=[\];',./`\\]$/.test(token)) return token;
  return namedKeys.get(token.toLowerCase()) ?? null;
}

/** The accelerator written the one way, or why the text is not one. */
export type AcceleratorCheck = Result<string, string>;

/** '' (no shortcut) or modifiers and one key joined by "+", written the one way Electron and this module agree on. */
export function checkAccelerator(text: string): AcceleratorCheck {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, value: '' };
  const tokens = trimmed.split('+').map((token) => token.trim());
  // "Ctrl++" means Ctrl and the plus key.
  if (tokens.at(-1) === '' && tokens.at(-2) === '') tokens.splice(-2, 2, 'Plus');
  const keyToken = tokens.pop() ?? '';
  const key = keyOf(keyToken);
  if (key === null) return { ok: false, error: `"${keyToken || '+'}" is not a key a shortcut can use` };
  const held: string[] = [];
  for (const token of tokens) {
    const modifier = modifiers.get(token.toLowerCase());
    if (modifier === undefined) return { ok: false, error: `"${token}" is not a modifier key` };
    if (!held.includes(modifier)) held.push(modifier);
  }
  if (!held.some((modifier) => strongModifiers.has(modifier))) {
    return { ok: false, error: 'needs Ctrl, Alt, Super or Cmd with the key, or other apps would lose it' };
  }
  return { ok: true, value: [...held, key].join('+') };
}

const macSymbols: Record<string, string> = {
  CommandOrControl: '⌘',
  Command: '⌘',
  Control: '⌃',
  Alt: '⌥',
  AltGr: '⌥',
  Shift: '⇧',
  Super: '⌘',
};
const otherNames: Record<string, string> = {
  CommandOrControl: 'Ctrl',
  Command: 'Super',
  Control: 'Ctrl',
  Alt: 'Alt',
  AltGr: 'AltGr',
  Shift: 'Shift',
  Super: 'Super',
};

/** The accelerator as the platform writes shortcuts: "⌘⌥P" on macOS, "Ctrl+Alt+P" elsewhere; '' for none. */
export function acceleratorLabel(accelerator: string, platform: NodeJS.Platform): string {
  if (accelerator === '') return '';
  const parts = accelerator.split('+');
  const key = parts.pop() ?? '';
  if (platform === 'darwin') return parts.map((part) => macSymbols[part] ?? part).join('') + key;
  return [...parts.map((part) => otherNames[part] ?? part), key].join('+');
}

/** The desktop's own shortcut, offered where Perch's cannot work: the settings say which command it runs. */
function customShortcutRoute(command: string | null): string {
  return command === null
    ? ''
    : ", or add a custom shortcut in your desktop's keyboard settings that runs the command below (starting Perch again opens it)";
}

/**
 * Asks the OS for `accelerator` ('' gives up the shortcut). Refused, the previous shortcut (when
 * there was one) is asked for again, and the answer is why, in words for the settings screen.
 */
export function claimShortcut(shortcut: GlobalShortcut, accelerator: string, previous: string | null): string | null {
  let held: boolean;
  try {
    held = shortcut.set(accelerator);
  } catch {
    // Electron throws on an accelerator it cannot parse (a hand-edited settings file).
    held = false;
  }
  if (held) return null;
  if (previous !== null) shortcut.set(previous);
  return `${acceleratorLabel(accelerator, process.platform)} is taken by another app or the desktop: choose another shortcut${customShortcutRoute(shortcut.launchCommand)}`;
}

/**
 * Why a shortcut Perch holds still never fires: a Wayland desktop without the GlobalShortcuts
 * portal accepts the registration and delivers nothing. Null when it can work, or when the bus
 * could not tell (a warning then could be wrong).
 */
export function deliveryProblem(delivery: ShortcutDelivery, accelerator: string, launchCommand: string | null): string | null {
  if (accelerator === '' || delivery.kind === 'direct' || delivery.portal.kind !== 'missing') return null;
  const route =
    launchCommand === null
      ? ''
      : " To open Perch with keys, add a custom shortcut in your desktop's keyboard settings (GNOME: Settings › Keyboard › View and Customize Shortcuts › Custom Shortcuts) that runs the command below: starting Perch again opens it.";
  return `${acceleratorLabel(accelerator, process.platform)} does nothing on this desktop: it does not pass shortcuts to apps (it has no GlobalShortcuts portal; GNOME has one from version 48, KDE Plasma from 5.27).${route}`;
}
