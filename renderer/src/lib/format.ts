/**
 * Every date the popover shows goes through here: the account's timezone, and the time rules the
 * core put in the snapshot, applied by the same formatter the tray and the notifications use
 * (electron/bridge/format.ts). Until the first snapshot, the browser's language and Intl's clock.
 */
import { createTimeFormat, defaultTimeFormatRules, zoneWords, type TimeFormat } from '$bridge/format.js';
import type { TimeFormatRules } from '$bridge/contract.js';

export type DateFormat = TimeFormat;

/** The system's timezone, used until an account tells us its own. */
export function systemTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** Rules for the page before the core has said: the browser's language, as Intl reads it. */
export function browserTimeFormat(): TimeFormatRules {
  return defaultTimeFormatRules(globalThis.navigator?.language);
}

export function createDateFormat(timeZone: string = systemTimeZone(), rules: TimeFormatRules = browserTimeFormat()): DateFormat {
  return createTimeFormat(rules, timeZone);
}

/**
 * The one zone label a screen needs: the account's zone in words ("London time") when its clock
 * differs from this device's now, else null (the times are simply the user's).
 */
export function zoneNote(format: DateFormat, nowMs: number, deviceZone: string = systemTimeZone()): string | null {
  return format.time(nowMs, deviceZone) === format.time(nowMs) ? null : `Times in ${zoneWords(format.timeZone)}`;
}
