/**
 * The tray icon and its menu. What they show comes from the core's tray model
 * (core/desktop/tray-menu.ts); how a shown menu follows it, from core/desktop/tray-menu-update.ts.
 */
import path from 'node:path';
import { app, Menu, nativeImage, nativeTheme, Tray, type MenuItem, type MenuItemConstructorOptions, type NativeImage } from 'electron';
import { appLayout } from '../core/desktop/app-layout.js';
import type { Rect } from '../core/desktop/popover-placement.js';
import { trayIconFor } from '../core/desktop/tray-icon.js';
import { menuItemAt, trayMenuUpdate, type MenuItemChange, type MenuPath } from '../core/desktop/tray-menu-update.js';
import type { TrayAction, TrayCommand, TrayMenuItem } from '../core/desktop/tray-menu.js';
import { desktopPlatform } from './desktop-platform.js';

/** What the tray shows at a moment. */
export interface TrayView {
  menu: TrayMenuItem[];
  tooltip: string;
  /** Beside the icon in the macOS menu bar. */
  title: string;
}

export interface PerchTray {
  /** Shows this view, or the current one: call whenever the state may have changed. */
  refresh(view?: TrayView): void;
  /** The icon's place on screen, or null where the tray reports none (most Linux trays). */
  bounds(): Rect | null;
}

export function createPerchTray(options: {
  view: () => TrayView;
  onIconClick: () => void;
  onCommand: (command: TrayCommand) => void;
  onAction: (action: TrayAction) => void;
  /** The user opened the menu, or one of its submenus, where the OS tells (see `reportOpening`). */
  onMenuOpened: () => void;
}): PerchTray {
  const tray = new Tray(trayIcon());
  let shown: { tooltip: string; title: string } | null = null;
  let attached: { model: TrayMenuItem[]; menu: Menu } | null = null;

  tray.on('click', () => options.onIconClick());
  // Most Linux trays report no clicks and open the attached menu instead (see refresh); elsewhere
  // the menu is built when asked for, so its times are current.
  if (process.platform !== 'linux') tray.on('right-click', () => tray.popUpContextMenu(buildMenu(options.view().menu, () => null)));
  // Only Windows picks its icon by the taskbar's colour, which can change while Perch runs.
  if (process.platform === 'win32') nativeTheme.on('updated', () => tray.setImage(trayIcon()));

  /**
   * The menu's items run what the model says when the click comes, not when the menu was built:
   * an item changed in place (a reservation's Check in turning into Check out) does the new thing.
   */
  function buildMenu(model: TrayMenuItem[], current: () => TrayMenuItem[] | null): Menu {
    const run = (item: TrayMenuItem) => {
      if (item.command) options.onCommand(item.command);
      else if (item.action) options.onAction(item.action);
    };
    const menu = Menu.buildFromTemplate(toElectronMenu(model, [], (path, built) => run(menuItemAt(current() ?? model, path) ?? built)));
    reportOpening(menu, options.onMenuOpened);
    return menu;
  }

  /**
   * On Linux the menu is attached, and the tray host (a StatusNotifierHost, over D-Bus) reads it from
   * Chromium's DbusMenu, which republishes the whole layout on every setContextMenu and setToolTip
   * (StatusIconLinuxDbus::UpdateMenuImpl). So nothing is sent when nothing changed, a new menu only
   * when the structure changed, and otherwise the built items are changed in place (Electron 42+
   * reads MenuItem.label and .enabled when the menu is published: electron/electron#49678) and the
   * same menu republished, keeping its Menu object and click handlers.
   */
  function attachMenu(model: TrayMenuItem[], tooltipChanged: boolean): void {
    const update = trayMenuUpdate(attached?.model ?? null, model);
    if (update.kind === 'rebuild' || attached === null || !applyInPlace(attached.menu, update.changes)) {
      // Its items follow the model while it is the attached menu.
      const menu: Menu = buildMenu(model, () => (attached?.menu === menu ? attached.model : null));
      attached = { model, menu };
      tray.setContextMenu(menu);
      return;
    }
    attached = { model, menu: attached.menu };
    // A new tooltip republishes the menu as it now stands anyway.
    if (update.changes.length > 0 && !tooltipChanged) tray.setContextMenu(attached.menu);
  }

  return {
    refresh(view = options.view()) {
      const tooltipChanged = view.tooltip !== shown?.tooltip;
      if (process.platform === 'linux') attachMenu(view.menu, tooltipChanged);
      if (tooltipChanged) tray.setToolTip(view.tooltip);
      if (process.platform === 'darwin' && view.title !== shown?.title) tray.setTitle(view.title);
      shown = { tooltip: view.tooltip, title: view.title };
    },
    bounds() {
      const bounds = tray.getBounds();
      return bounds.width > 0 && bounds.height > 0 ? bounds : null;
    },
  };
}

function trayIcon(): NativeImage {
  // Windows' taskbar may be dark while apps are light; only it says so apart from the apps' theme.
  const choice = trayIconFor(desktopPlatform(), { dark: nativeTheme.shouldUseDarkColorsForSystemIntegratedUI });
  const image = nativeImage.createFromPath(path.join(app.getAppPath(), appLayout.trayIcons, choice.file));
  if (choice.template) image.setTemplateImage(true);
  return image;
}

/**
 * 'menu-will-show' comes from the menu model's MenuWillShow (electron_api_menu.cc). macOS calls it
 * when the menu opens (ElectronMenuController menuWillOpen), Windows too (views' MenuModelAdapter
 * WillShowMenu). On Linux Chromium's DbusMenu calls it only for a submenu the tray host announces
 * with AboutToShow, never for the top level (its root item holds no model), and the GtkStatusIcon
 * fallback not at all: so the submenus are listened to as well, and there opening the top level
 * alone goes unreported.
 */
function reportOpening(menu: Menu, opened: () => void): void {
  menu.on('menu-will-show', () => opened());
  for (const item of menu.items) if (item.submenu) reportOpening(item.submenu, opened);
}

/** Sets each change on the built menu's item; false when an item is not where the change says (then the menu is rebuilt). */
function applyInPlace(menu: Menu, changes: MenuItemChange[]): boolean {
  const items = changes.map((change) => builtItemAt(menu, change.path));
  if (items.some((item) => item === null)) return false;
  changes.forEach((change, index) => {
    const item = items[index]!;
    item.label = menuLabel(change.label);
    item.enabled = change.enabled;
  });
  return true;
}

function builtItemAt(menu: Menu, [index, ...rest]: MenuPath): MenuItem | null {
  const item = index === undefined ? undefined : menu.items[index];
  if (!item) return null;
  if (rest.length === 0) return item;
  return item.submenu ? builtItemAt(item.submenu, rest) : null;
}

function toElectronMenu(
  items: TrayMenuItem[],
  parent: MenuPath,
  onClick: (path: MenuPath, built: TrayMenuItem) => void,
): MenuItemConstructorOptions[] {
  return items.map((item, index): MenuItemConstructorOptions => {
    if (item.type === 'separator') return { type: 'separator' };
    const path = [...parent, index];
    const options: MenuItemConstructorOptions = { label: menuLabel(item.label), enabled: item.enabled ?? true };
    if (item.submenu) options.submenu = toElectronMenu(item.submenu, path, onClick);
    else options.click = () => onClick(path, item);
    return options;
  });
}

/** Windows and Linux read `&` as a mnemonic marker; a resource named "R&D" must show as written. */
function menuLabel(label: string): string {
  return process.platform === 'darwin' ? label : label.replaceAll('&', '&&');
}
