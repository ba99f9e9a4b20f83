/**
 * Launch at login on Linux, where Electron has no login items: an XDG autostart entry
 * (`$XDG_CONFIG_HOME/autostart/<appId>.desktop`, freedesktop's Desktop Application Autostart
 * Specification), which GNOME, KDE, Xfce and the other desktops run at login.
 */
import { access, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { appId } from '../core/desktop/app-identity.js';
import type { Autostart } from '../core/desktop/autostart.js';

export interface LinuxAutostartOptions {
  /** The program to start at login (see `linuxAutostartExecutable`). */
  executable: string;
  /** The user's configuration folder (see `linuxConfigHome`). */
  configHome: string;
  /** The name desktops show in their list of startup programs. */
  name: string;
}

/** `$XDG_CONFIG_HOME` when it is an absolute path (the spec says to ignore relative ones), else ~/.config. */
export function linuxConfigHome(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
  const configured = env.XDG_CONFIG_HOME;
  return configured && isAbsolute(configured) ? configured : join(home, '.config');
}

/**
 * An AppImage runs from a temporary mount that is gone after logout; its own file, which the
 * AppImage runtime names in `$APPIMAGE`, is what must start at login.
 */
export function linuxAutostartExecutable(env: NodeJS.ProcessEnv = process.env, executable: string = process.execPath): string {
  return env.APPIMAGE || executable;
}

export function linuxAutostartFile(configHome: string): string {
  return join(configHome, 'autostart', `${appId}.desktop`);
}

/** Writes or removes the autostart entry. Rejects when the file system refuses. */
export async function setLinuxAutostart(enabled: boolean, options: LinuxAutostartOptions): Promise<void> {
  const file = linuxAutostartFile(options.configHome);
  if (!enabled) {
    await rm(file, { force: true });
    return;
  }
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, autostartEntry(options.executable, options.name));
}

/** Whether the desktop will start Perch at login: the entry exists and is not switched off. */
export async function isLinuxAutostartEnabled(configHome: string): Promise<boolean> {
  const file = linuxAutostartFile(configHome);
  try {
    await access(file);
  } catch {
    return false;
  }
  // Desktops switch an entry off in their settings by rewriting these keys rather than deleting it.
  const entry = await readFile(file, 'utf8');
  return !/^Hidden=true$/m.test(entry) && !/^X-GNOME-Autostart-enabled=false$/m.test(entry);
}

/** Launch at login on Linux: the XDG autostart entry, as written here or changed in the desktop's settings. */
export function linuxAutostart(options: LinuxAutostartOptions): Autostart {
  return {
    read: () => isLinuxAutostartEnabled(options.configHome),
    write: (enabled) => setLinuxAutostart(enabled, options),
  };
}

function autostartEntry(executable: string, name: string): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    `Name=${desktopString(name)}`,
    `Exec=${execArgument(executable)}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/** A value of type string: backslash and line breaks are escaped, so no value can add a key. */
function desktopString(value: string): string {
  return value.replaceAll('\\', '\\\\').replaceAll('\n', '\\n').replaceAll('\r', '\\r').replaceAll('\t', '\\t');
}

/**
 * One argument of an Exec key: `%` doubled (field codes), quoted when it holds a reserved
 * character, with `"`, `` ` ``, `$` and `\` backslash-escaped inside the quotes; then the string
 * escaping above, which desktops undo first.
 */
function execArgument(argument: string): string {
  const literal = argument.replaceAll('%', '%%');
  const quoted = /[\s"'\\><~|&;$*?#()`]/.test(literal) ? `"${literal.replace(/["`$\\]/g, (character) => `\\${character}`)}"` : literal;
  return desktopString(quoted);
}
