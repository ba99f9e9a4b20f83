/**
 * The shortcut that opens Perch from anywhere: an Electron accelerator ("CommandOrControl+Alt+P"),
 * checked here in plain data so a wrong one is refused with the setting's name before the OS sees
 * it, and shown to the user in the words of their platform ("Ctrl+Alt+P", "⌘⌥P").
 */

/** What the shell registers with the OS; the core decides when. */
export interface GlobalShortcut {
  /**
   * Holds `accelerator` in place of the one held before ('' for none). False when the OS refused
   * it, usually because another app holds it; nothing is held then.
   */
  set(accelerator: string): boolean;
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
    'Space', 'Tab', 'Backspace', 'Delete', 'Insert', 'Return', 'Enter', 'Up', 'Down', 'Left', 'Right',
    'Home', 'End', 'PageUp', 'PageDown', 'Escape', 'Plus',
  ].map((key) => [key.toLowerCase(), key]),
);

function keyOf(token: string): string | null {
  if (/^[a-z0-9]$/i.test(token)) return token.toUpperCase();
  if (/^f([1-9]|1[0-9]|2[0-4])$/i.test(token)) return token.toUpperCase();
  if (/^[-=[\];',./`\\]$/.test(token)) return token;
  return namedKeys.get(token.toLowerCase()) ?? null;
}

export type AcceleratorCheck = { ok: true; accelerator: string } | { ok: false; problem: string };

/** '' (no shortcut) or modifiers and one key joined by "+", written the one way Electron and this module agree on. */
export function checkAccelerator(text: string): AcceleratorCheck {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, accelerator: '' };
  const tokens = trimmed.split('+').map((token) => token.trim());
  // "Ctrl++" means Ctrl and the plus key.
  if (tokens.at(-1) === '' && tokens.at(-2) === '') tokens.splice(-2, 2, 'Plus');
  const keyToken = tokens.pop() ?? '';
  const key = keyOf(keyToken);
  if (key === null) return { ok: false, problem: `"${keyToken || '+'}" is not a key a shortcut can use` };
  const held: string[] = [];
  for (const token of tokens) {
    const modifier = modifiers.get(token.toLowerCase());
    if (modifier === undefined) return { ok: false, problem: `"${token}" is not a modifier key` };
    if (!held.includes(modifier)) held.push(modifier);
  }
  if (!held.some((modifier) => strongModifiers.has(modifier))) {
    return { ok: false, problem: 'needs Ctrl, Alt, Super or Cmd with the key, or other apps would lose it' };
  }
  return { ok: true, accelerator: [...held, key].join('+') };
}

const macSymbols: Record<string, string> = { CommandOrControl: '⌘', Command: '⌘', Control: '⌃', Alt: '⌥', AltGr: '⌥', Shift: '⇧', Super: '⌘' };
const otherNames: Record<string, string> = { CommandOrControl: 'Ctrl', Command: 'Super', Control: 'Ctrl', Alt: 'Alt', AltGr: 'AltGr', Shift: 'Shift', Super: 'Super' };

/** The accelerator as the platform writes shortcuts: "⌘⌥P" on macOS, "Ctrl+Alt+P" elsewhere; '' for none. */
export function acceleratorLabel(accelerator: string, platform: NodeJS.Platform): string {
  if (accelerator === '') return '';
  const parts = accelerator.split('+');
  const key = parts.pop() ?? '';
  if (platform === 'darwin') return parts.map((part) => macSymbols[part] ?? part).join('') + key;
  return [...parts.map((part) => otherNames[part] ?? part), key].join('+');
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
  return `${acceleratorLabel(accelerator, process.platform)} is taken by another app or the desktop: choose another shortcut`;
}
