/**
 * Which of the images in build/tray/ (appLayout.trayIcons) the tray shows, by platform.
 */
import type { DesktopPlatform } from './popover-placement.js';

export interface TrayIconChoice {
  /** A file in the tray icons folder; its @2x sibling is picked up by Electron for high-density screens. */
  file: string;
  /** macOS template image: black and alpha, tinted by the system for the menu bar's appearance. */
  template: boolean;
}

/**
 * macOS: the template image. Windows: the glyph in the colour that contrasts with the taskbar,
 * which only Windows reports apart from the apps' theme. Linux: the full-colour app icon (a light
 * glyph on its own teal tile), legible on dark and light panels alike, since no Linux desktop tells
 * apps the colour of its panel: the app's own theme (which the user may set to "light" on a dark
 * GNOME top bar) says nothing about it.
 */
export function trayIconFor(platform: DesktopPlatform, taskbar: { dark: boolean }): TrayIconChoice {
  if (platform === 'darwin') return { file: 'trayTemplate.png', template: true };
  if (platform === 'win32') return { file: taskbar.dark ? 'tray-dark.png' : 'tray-light.png', template: false };
  return { file: 'tray-color.png', template: false };
}
