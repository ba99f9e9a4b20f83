/**
 * Where the popover goes on screen, as plain data: the shell reads the tray's bounds, the pointer
 * and the display from Electron and moves the window to the answer.
 */

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Point {
  x: number;
  y: number;
}

/** The side of the screen a panel (menu bar, taskbar, top bar) sits on. */
export type ScreenEdge = 'top' | 'bottom' | 'left' | 'right';

export type DesktopPlatform = 'darwin' | 'win32' | 'linux';

export interface Display {
  /** The whole screen. */
  bounds: Rect;
  /** The screen less the panels: where windows may go. */
  workArea: Rect;
}

export interface PlacementInput {
  /** The tray icon's bounds; most Linux trays report none (a zero rectangle). */
  tray: Rect | null;
  /** The pointer, when the popover opens because it just clicked the icon; null otherwise. */
  cursor: Point | null;
  window: { width: number; height: number };
  display: Display;
  platform: DesktopPlatform;
}

/**
 * The window type the popover asks for (BaseWindowConstructorOptions `type`), or none.
 * - macOS: an NSPanel that floats above other windows and takes key focus without activating the
 *   app ("The panel type enables the window to float on top of full-screened apps").
 * - Linux: Electron 45 ignores `skipTaskbar` there (docs/breaking-changes.md, "Removed:
 *   `skipTaskbar` on Linux"; NativeWindowViews::SetSkipTaskbar acts on Windows only), so a normal
 *   window would sit in the taskbar and Alt-Tab while open. Under X11 Electron writes the type as
 *   _NET_WM_WINDOW_TYPE_TOOLBAR, and window managers keep such windows out of both: mutter forces
 *   skip-taskbar on toolbars and leaves skip-taskbar windows out of its Alt-Tab list, places them
 *   where the app says and draws no frame; Plasma's task manager lists only normal, dialog and
 *   utility windows, KWin's Alt-Tab only normal and dialog ones. Of the types Electron documents
 *   for Linux (desktop, dock, toolbar, splash, notification) the others are panels, splash screens
 *   or notifications to a window manager. A native Wayland window has no such type (Electron sets
 *   it under X11 only), so there the popover still shows in the dock or taskbar while open.
 * - Windows: none; `skipTaskbar` works there.
 */
export function popoverWindowType(platform: DesktopPlatform): 'panel' | 'toolbar' | null {
  if (platform === 'darwin') return 'panel';
  if (platform === 'linux') return 'toolbar';
  return null;
}

/** Space between the popover and its anchor, and between it and the work area's sides with no anchor. */
const gap = 4;
const margin = 8;

/** Where the panel of each platform sits when the display does not say (it reserves no space, or hides). */
const conventionalEdge: Record<DesktopPlatform, ScreenEdge> = {
  // The menu bar.
  darwin: 'top',
  // The taskbar's default place.
  win32: 'bottom',
  // GNOME's top bar, which reserves no work area under Wayland; KDE's bottom panel does reserve it.
  linux: 'top',
};

/**
 * Where the popover opens: beside the tray icon on the side away from its panel (below a top bar,
 * above a bottom taskbar, beside a vertical one); at the pointer when the tray reports no bounds
 * but the pointer just clicked it; otherwise in the corner of the work area where the platform's
 * tray lives. Always inside the work area.
 */
export function popoverPosition(input: PlacementInput): Point {
  const { window, display } = input;
  const tray = input.tray !== null && input.tray.width > 0 && input.tray.height > 0 ? input.tray : null;
  const anchor = tray ?? (input.cursor ? { ...input.cursor, width: 0, height: 0 } : null);
  const position = anchor
    ? besideAnchor(anchor, window, edgeOfAnchor(anchor, display))
    : inCorner(window, display, panelEdge(display, input.platform));
  return {
    x: Math.round(clamp(position.x, display.workArea.x, display.workArea.x + display.workArea.width - window.width)),
    y: Math.round(clamp(position.y, display.workArea.y, display.workArea.y + display.workArea.height - window.height)),
  };
}

/**
 * The panel the anchor sits in: the side of the work area it lies beyond (the work area excludes
 * the panels), else, for a panel that reserves no space (auto-hide taskbar, GNOME under Wayland),
 * the screen edge nearest to it.
 */
export function edgeOfAnchor(anchor: Rect, display: Display): ScreenEdge {
  const { workArea, bounds } = display;
  const centre = { x: anchor.x + anchor.width / 2, y: anchor.y + anchor.height / 2 };
  if (centre.y < workArea.y) return 'top';
  if (centre.y > workArea.y + workArea.height) return 'bottom';
  if (centre.x < workArea.x) return 'left';
  if (centre.x > workArea.x + workArea.width) return 'right';
  const distances: [ScreenEdge, number][] = [
    ['top', centre.y - bounds.y],
    ['bottom', bounds.y + bounds.height - centre.y],
    ['left', centre.x - bounds.x],
    ['right', bounds.x + bounds.width - centre.x],
  ];
  return distances.reduce((nearest, candidate) => (candidate[1] < nearest[1] ? candidate : nearest))[0];
}

/** The side of the display where its work area gives way to a panel, or the platform's convention when none does. */
export function panelEdge(display: Display, platform: DesktopPlatform): ScreenEdge {
  const { workArea, bounds } = display;
  const insets: [ScreenEdge, number][] = [
    ['top', workArea.y - bounds.y],
    ['bottom', bounds.y + bounds.height - (workArea.y + workArea.height)],
    ['left', workArea.x - bounds.x],
    ['right', bounds.x + bounds.width - (workArea.x + workArea.width)],
  ];
  const [edge, inset] = insets.reduce((widest, candidate) => (candidate[1] > widest[1] ? candidate : widest));
  return inset > 0 ? edge : conventionalEdge[platform];
}

function besideAnchor(anchor: Rect, window: { width: number; height: number }, edge: ScreenEdge): Point {
  const centredX = anchor.x + anchor.width / 2 - window.width / 2;
  const centredY = anchor.y + anchor.height / 2 - window.height / 2;
  switch (edge) {
    case 'top':
      return { x: centredX, y: anchor.y + anchor.height + gap };
    case 'bottom':
      return { x: centredX, y: anchor.y - window.height - gap };
    case 'left':
      return { x: anchor.x + anchor.width + gap, y: centredY };
    case 'right':
      return { x: anchor.x - window.width - gap, y: centredY };
  }
}

/**
 * With no anchor, the popover takes the end of the panel where trays live: the right-hand end of
 * a horizontal panel, the bottom end of a vertical one (the Windows notification area).
 */
function inCorner(window: { width: number; height: number }, display: Display, edge: ScreenEdge): Point {
  const { workArea } = display;
  const right = workArea.x + workArea.width - window.width - margin;
  const bottom = workArea.y + workArea.height - window.height - margin;
  switch (edge) {
    case 'top':
      return { x: right, y: workArea.y + margin };
    case 'bottom':
      return { x: right, y: bottom };
    case 'left':
      return { x: workArea.x + margin, y: bottom };
    case 'right':
      return { x: right, y: bottom };
  }
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), Math.max(min, max));
}
