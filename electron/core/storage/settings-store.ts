import { basename, join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { DateTime } from 'luxon';
import { SettingsSchema, type BridgeResult, type FieldProblem, type Settings, type SettingsPatch } from '../../bridge/contract.js';
import { failure, invalidInput, success } from '../errors.js';
import { problemLine, schemaProblems } from '../schema-problems.js';
import { checkAccelerator } from '../desktop/global-shortcut.js';
import { isPlainObject, moveAside, readJsonFile, writeJsonAtomic } from './files.js';

export const settingsFileName = 'settings.json';

function frozen<T extends object>(value: T): T {
  return Object.freeze(value);
}

/** Frozen, so no caller can change the defaults for everyone by editing what it was handed. */
export const defaultSettings: Settings = frozen({
  pollIntervalSeconds: 60,
  startReminderMinutes: 10,
  endReminderMinutes: 5,
  checkInLeadMinutes: 5,
  notifications: frozen({
    startReminder: true,
    endReminder: true,
    checkInOpen: true,
    autoReleaseWarning: true,
    released: true,
    approvalOutcome: true,
  }),
  // Off until the user asks for it: checking in is a statement that they are there.
  autoCheckIn: false,
  launchAtLogin: false,
  theme: 'system',
  favouriteResourceIds: frozen<number[]>([]),
  // Ctrl+Alt+P (⌘⌥P): rarely taken by desktops or apps, and P for Perch.
  globalShortcut: 'CommandOrControl+Alt+P',
});

export interface LoadedSettings {
  settings: Settings;
  /** Why the defaults are in use although a settings file existed; null when all is well. */
  problem: string | null;
}

/**
 * Lays `candidate` over `base`, member by member and into nested objects, keeping only the members
 * `base` knows: a file from an older version gets the newer members' defaults, and members a newer
 * version (or a hand edit) added are dropped rather than carried along.
 */
function overlay(base: unknown, candidate: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(candidate)) return candidate === undefined ? structuredClone(base) : candidate;
  const result: Record<string, unknown> = {};
  for (const [key, baseValue] of Object.entries(base)) {
    const value = Object.hasOwn(candidate, key) ? candidate[key] : undefined;
    result[key] = overlay(baseValue, value);
  }
  return result;
}

export async function loadSettings(dataDir: string, options: { now?: () => DateTime } = {}): Promise<LoadedSettings> {
  const path = join(dataDir, settingsFileName);
  const read = await readJsonFile(path);
  if (read.kind === 'missing') return { settings: structuredClone(defaultSettings), problem: null };

  let why: string;
  if (read.kind === 'unreadable') {
    why = read.problem;
  } else if (!isPlainObject(read.value)) {
    why = 'it does not hold a settings object';
  } else {
    const merged = overlay(defaultSettings, read.value);
    if (Value.Check(SettingsSchema, merged)) return { settings: merged, problem: null };
    why = `some values are not valid: ${schemaProblems(SettingsSchema, merged, 'settings').map(problemLine).join('; ')}`;
  }

  const keptAs = await moveAside(path, (options.now ?? DateTime.now)());
  const kept =
    keptAs === null
      ? 'The file could not be renamed, so it will be replaced when settings are saved.'
      : `The old file was kept as ${basename(keptAs)}.`;
  return {
    settings: structuredClone(defaultSettings),
    problem: `Your settings file could not be used (${why}), so Perch is using the default settings. ${kept}`,
  };
}

export async function saveSettings(dataDir: string, settings: Settings): Promise<void> {
  await writeJsonAtomic(join(dataDir, settingsFileName), settings);
}

/** Each refused member by its key: the settings form names it by its own label. */
const invalidPatch = (fields: FieldProblem[]) => failure<Settings>({ ...invalidInput('The settings change is not valid.'), fields });

/** Applies a change from the UI; the whole result must be valid, or nothing changes. */
export function applySettingsPatch(settings: Settings, patch: SettingsPatch): BridgeResult<Settings> {
  if (!isPlainObject(patch)) {
    return invalidPatch([{ field: 'settings', problem: 'must be an object' }]);
  }
  const unknown = Object.keys(patch)
    .filter((key) => !Object.hasOwn(defaultSettings, key))
    .map((field) => ({ field, problem: 'is not a setting' }));
  const merged = overlay(settings, patch);
  const problems = [...unknown, ...schemaProblems(SettingsSchema, merged, 'settings')];
  if (problems.length > 0 || !Value.Check(SettingsSchema, merged)) {
    return invalidPatch(problems);
  }
  const shortcut = checkAccelerator(merged.globalShortcut);
  if (!shortcut.ok) return invalidPatch([{ field: 'globalShortcut', problem: shortcut.error }]);
  return success({ ...structuredClone(merged), globalShortcut: shortcut.value });
}
