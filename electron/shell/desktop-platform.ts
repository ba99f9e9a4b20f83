import type { DesktopPlatform } from '../core/desktop/popover-placement.js';

/** The platform as the core's desktop decisions know it: the BSDs take Linux's desktop conventions. */
export function desktopPlatform(): DesktopPlatform {
  return process.platform === 'darwin' || process.platform === 'win32' ? process.platform : 'linux';
}
