/**
 * How an attached tray menu follows the state: rebuilt only when its structure changes, otherwise
 * changed in place. Replacing the menu (Tray.setContextMenu) closes it if it is open, and the state
 * changes on every poll; most polls change a time or nothing at all.
 */
import type { TrayMenuItem } from './tray-menu.js';

/** An item by its position: its index in the menu, then in each submenu down to it. */
export type MenuPath = number[];

/** What an item shows that Electron lets the shell change on a built menu (MenuItem.label, MenuItem.enabled). */
export interface MenuItemChange {
  path: MenuPath;
  label: string;
  enabled: boolean;
}

export type TrayMenuUpdate =
  | { kind: 'rebuild' }
  /** Every change applies to the built menu's item at its path; none at all when the menu shows the same. */
  | { kind: 'inPlace'; changes: MenuItemChange[] };

type ItemKind = 'separator' | 'item' | 'submenu';

function kindOf(item: TrayMenuItem): ItemKind {
  if (item.type === 'separator') return 'separator';
  return item.submenu ? 'submenu' : 'item';
}

/** Same number of items, of the same kinds, with submenus of the same structure, all the way down. */
export function sameMenuStructure(a: readonly TrayMenuItem[], b: readonly TrayMenuItem[]): boolean {
  return (
    a.length === b.length &&
    a.every((item, index) => {
      const other = b[index]!;
      if (kindOf(item) !== kindOf(other)) return false;
      return item.submenu === undefined || sameMenuStructure(item.submenu, other.submenu ?? []);
    })
  );
}

/**
 * What to do to the built menu, which shows `shown`, so that it shows `next`: nothing was built
 * yet or the structure differs, rebuild; otherwise the labels and enabled states that differ.
 * What an item does on a click is not part of the built menu: the shell looks it up in the model
 * when the click comes.
 */
export function trayMenuUpdate(shown: readonly TrayMenuItem[] | null, next: readonly TrayMenuItem[]): TrayMenuUpdate {
  if (shown === null || !sameMenuStructure(shown, next)) return { kind: 'rebuild' };
  return { kind: 'inPlace', changes: itemChanges(shown, next, []) };
}

function itemChanges(shown: readonly TrayMenuItem[], next: readonly TrayMenuItem[], parent: MenuPath): MenuItemChange[] {
  return next.flatMap((item, index) => {
    const before = shown[index]!;
    const path = [...parent, index];
    if (item.type === 'separator') return [];
    const enabled = item.enabled ?? true;
    const own = item.label !== before.label || enabled !== (before.enabled ?? true) ? [{ path, label: item.label, enabled }] : [];
    return [...own, ...(item.submenu ? itemChanges(before.submenu ?? [], item.submenu, path) : [])];
  });
}

/** The model's item at a path, or null when the model has none there (a click on a menu since replaced). */
export function menuItemAt(items: readonly TrayMenuItem[], path: MenuPath): TrayMenuItem | null {
  const [index, ...rest] = path;
  const item = index === undefined ? undefined : items[index];
  if (!item) return null;
  if (rest.length === 0) return item;
  return item.submenu ? menuItemAt(item.submenu, rest) : null;
}
