/**
 * Launch at login as the core knows it. The OS keeps the setting (Electron's login items on macOS
 * and Windows, the XDG autostart entry on Linux: electron/shell/login-item.ts and
 * electron/platform/linux-autostart.ts); the core shows what it says and changes it when the user does.
 */

/** Whether the OS starts Perch at login: read from the OS each time, written only when the user changes it. */
export interface Autostart {
  read(): Promise<boolean>;
  /** Rejects when the OS refuses. */
  write(enabled: boolean): Promise<void>;
}
