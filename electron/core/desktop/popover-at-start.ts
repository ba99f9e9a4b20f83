/**
 * Whether Perch opens its popover by itself when it starts, instead of waiting in the tray. A tray
 * icon is easy to miss on a first run and impossible to click where the desktop shows none.
 */
import type { StateSnapshot } from '../../bridge/contract.js';

/** Whether a Linux desktop shows tray icons: the answer of electron/platform/tray-host.ts's probe. */
export type TrayHost =
  | { kind: 'registered' }
  /** The desktop cannot show the icon. */
  | { kind: 'missing'; reason: string }
  /** The probe could not tell. */
  | { kind: 'unknown'; reason: string };

export type PopoverAtStartReason =
  /** No account yet (the first run) or signed out: only the popover can sign in. */
  | 'signedOut'
  /** The desktop shows no tray icon, or the probe could not tell: the popover is the only way in. */
  | 'noTray';

export interface PopoverAtStartInput {
  phase: StateSnapshot['phase'];
  /** Linux's probe; macOS and Windows always have a menu bar or notification area: 'registered'. */
  trayHost: TrayHost;
}

/** The reason to open the popover at start, or null to start in the tray. */
export function popoverAtStart(input: PopoverAtStartInput): PopoverAtStartReason | null {
  // An unknown answer counts as missing: a popover shown once too often costs a click; a tray icon
  // that never appears leaves Perch running with no way in.
  if (input.trayHost.kind !== 'registered') return 'noTray';
  if (input.phase === 'signedOut') return 'signedOut';
  return null;
}
