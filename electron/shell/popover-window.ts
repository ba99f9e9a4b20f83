/**
 * The popover: a frameless window that opens beside the tray icon (or where the tray would be, when
 * there is none to anchor to) and hides when it loses focus.
 */
import path from 'node:path';
import { app, BrowserWindow, nativeTheme, screen, type BrowserWindowConstructorOptions } from 'electron';
import { channelOf, type StateSnapshot } from '../bridge/contract.js';
import { appLayout } from '../core/desktop/app-layout.js';
import { createPopoverFeed } from '../core/desktop/popover-feed.js';
import { popoverPosition, popoverWindowType, type Rect } from '../core/desktop/popover-placement.js';
import { appEntryUrl } from '../core/desktop/security.js';
import { desktopPlatform } from './desktop-platform.js';

const popoverSize = { width: 380, height: 560 };
/** A click on the icon of an open popover blurs (and hides) it first; a click this soon after meant "close". */
const reopenGuardMs = 300;

/** Who opens the popover: a click on the tray icon (the pointer is on the icon), or anything else. */
export type PopoverOpener = 'trayIcon' | 'elsewhere';

export interface PopoverWindow {
  show(opener: PopoverOpener): void;
  /** A click on the tray icon: opens a closed popover, closes an open one. */
  toggle(): void;
  hide(): void;
  visible(): boolean;
  /** Sends an event to the page, while the window exists. */
  send(channel: string, payload: unknown): void;
  /** The core's state changed: the page is sent it while shown, else the latest once it is shown (popover-feed.ts). */
  stateChanged(snapshot: StateSnapshot): void;
}

export function createPopoverWindow(options: {
  trayBounds: () => Rect | null;
  onShown: () => void;
  /** The core's state now: what a popover shown after a change it missed is sent. */
  snapshot: () => StateSnapshot;
}): PopoverWindow {
  const win = new BrowserWindow(windowOptions());
  const visible = () => !win.isDestroyed() && win.isVisible();
  const send = (channel: string, payload: unknown) => {
    if (!win.isDestroyed()) win.webContents.send(channel, payload);
  };
  const feed = createPopoverFeed({ visible, send: (snapshot) => send(channelOf('stateChanged'), snapshot), snapshot: options.snapshot });
  let hiddenAt = 0;
  if (process.platform === 'darwin') {
    // With the panel type, over other apps' full-screen Spaces and on every Space, so the popover opens
    // where the user is (Electron's setVisibleOnAllWorkspaces sets NSWindowCollectionBehaviorCanJoinAllSpaces
    // and FullScreenAuxiliary). Perch is already a UI-element app (LSUIElement; app.dock.hide() unpackaged):
    // skipTransformProcessType spares the Dock-hiding transform, which makes windows flicker
    // (electron/electron#26350).
    win.setVisibleOnAllWorkspaces(true, { visibleOnFullScreen: true, skipTransformProcessType: true });
  }
  function hide(): void {
    if (win.isDestroyed()) return;
    win.hide();
    hiddenAt = Date.now();
  }
  win.on('blur', hide);
  win.on('show', () => {
    feed.shown();
    options.onShown();
  });
  // The theme setting is applied after the window exists (and the user may change it): without
  // this, a dark theme on a light desktop would flash white each time the popover opens. Setting
  // nativeTheme.themeSource emits 'updated' (docs/api/native-theme.md, themeSource).
  nativeTheme.on('updated', () => {
    if (!win.isDestroyed()) win.setBackgroundColor(backgroundColor());
  });
  void win.loadURL(appEntryUrl);

  function show(opener: PopoverOpener): void {
    if (win.isDestroyed()) return;
    const tray = options.trayBounds();
    const cursor = opener === 'trayIcon' ? screen.getCursorScreenPoint() : null;
    const anchor = tray ?? cursor;
    const display = anchor ? screen.getDisplayNearestPoint(anchor) : screen.getPrimaryDisplay();
    const { x, y } = popoverPosition({ tray, cursor, window: popoverSize, display, platform: desktopPlatform() });
    // Under Wayland a window cannot place itself: the compositor ignores this and picks the place.
    win.setPosition(x, y, false);
    win.show();
    // A panel becomes the key window without activating Perch, so keyboard input reaches it and
    // the user stays on their Space (NativeWindowMac::Focus skips activation for panels); elsewhere
    // this raises and focuses the window.
    win.focus();
  }

  return {
    show,
    toggle() {
      if (win.isDestroyed()) return;
      if (win.isVisible()) {
        win.hide();
        return;
      }
      if (Date.now() - hiddenAt < reopenGuardMs) return;
      show('trayIcon');
    },
    hide,
    visible,
    send,
    stateChanged: feed.stateChanged,
  };
}

/** What the window shows before the page paints: the popover's own background in the theme in force. */
function backgroundColor(): string {
  return nativeTheme.shouldUseDarkColors ? '#1f1f1f' : '#ffffff';
}

function windowOptions(): BrowserWindowConstructorOptions {
  const windowType = popoverWindowType(desktopPlatform());
  return {
    ...popoverSize,
    show: false,
    frame: false,
    resizable: false,
    movable: false,
    minimizable: false,
    maximizable: false,
    fullscreenable: false,
    // Out of the Windows taskbar; Electron 45 ignores it on Linux, where the window type below stands in under X11.
    skipTaskbar: true,
    // A Wayland compositor ignores this too (no protocol lets a window keep itself above others).
    alwaysOnTop: true,
    // A panel on macOS; out of the taskbar and Alt-Tab under X11 (popoverWindowType says why).
    ...(windowType !== null && { type: windowType }),
    backgroundColor: backgroundColor(),
    webPreferences: {
      preload: path.join(app.getAppPath(), appLayout.preload),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
      devTools: !app.isPackaged,
    },
  };
}
