/**
 * One Tab stop for a list of rows: of the buttons in its rows only one is in the Tab order (the
 * last one focused, else the first); ↑ and ↓ move between rows, ← and → between a row's buttons,
 * Home and End to the first and the last. A key a control already used (a menu button's ↓, a
 * question's Escape) is left alone. Rows are the elements matching `rowSelector`; a row's buttons
 * are those whose nearest row it is, so rows may nest (a series and its dates).
 */
export function roving(list: HTMLElement, rowSelector: string): { destroy(): void } {
  let current: HTMLElement | null = null;

  const rows = () => [...list.querySelectorAll<HTMLElement>(rowSelector)];
  const controlsOf = (row: HTMLElement) =>
    [...row.querySelectorAll<HTMLButtonElement>('button')].filter(
      (button) => button.closest(rowSelector) === row && button.closest('[role="menu"]') === null,
    );

  function apply(): void {
    const all = rows().flatMap(controlsOf);
    if (current === null || !all.includes(current as HTMLButtonElement)) current = all.find((button) => !button.disabled) ?? all[0] ?? null;
    for (const button of all) button.tabIndex = button === current ? 0 : -1;
  }

  function onFocusIn(event: FocusEvent): void {
    const target = event.target as HTMLElement;
    if (
      !rows()
        .flatMap(controlsOf)
        .includes(target as HTMLButtonElement)
    )
      return;
    current = target;
    apply();
  }

  function onKeydown(event: KeyboardEvent): void {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    const allRows = rows().filter((row) => controlsOf(row).length > 0);
    const row = allRows.find((candidate) => controlsOf(candidate).includes(event.target as HTMLButtonElement));
    if (row === undefined) return;
    const inRow = controlsOf(row);
    const rowIndex = allRows.indexOf(row);
    const index = inRow.indexOf(event.target as HTMLButtonElement);
    let target: HTMLElement | undefined;
    if (event.key === 'ArrowDown') target = controlsOf(allRows[Math.min(rowIndex + 1, allRows.length - 1)]!)[0];
    else if (event.key === 'ArrowUp') target = controlsOf(allRows[Math.max(rowIndex - 1, 0)]!)[0];
    else if (event.key === 'ArrowRight') target = inRow[Math.min(index + 1, inRow.length - 1)];
    else if (event.key === 'ArrowLeft') target = inRow[Math.max(index - 1, 0)];
    else if (event.key === 'Home') target = controlsOf(allRows[0]!)[0];
    else if (event.key === 'End') target = controlsOf(allRows[allRows.length - 1]!).at(-1);
    else return;
    event.preventDefault();
    target?.focus();
  }

  // Rows come and go (a poll, an expanded series, a question in place of a button): keep one stop.
  const observer = new MutationObserver(apply);
  observer.observe(list, { childList: true, subtree: true });
  list.addEventListener('focusin', onFocusIn);
  list.addEventListener('keydown', onKeydown);
  apply();
  return {
    destroy() {
      observer.disconnect();
      list.removeEventListener('focusin', onFocusIn);
      list.removeEventListener('keydown', onKeydown);
    },
  };
}

/**
 * Where a key moves focus in a list of `count` items that wraps around (tabs, a menu): `keys.next`
 * and `keys.previous` one step, Home and End to the ends; null for any other key. From no item
 * (index -1), next goes to the first and previous to the last.
 */
export function wrappingMove(key: string, index: number, count: number, keys: { previous: string; next: string }): number | null {
  const last = count - 1;
  if (key === keys.next) return index >= last ? 0 : index + 1;
  if (key === keys.previous) return index <= 0 ? last : index - 1;
  if (key === 'Home') return 0;
  if (key === 'End') return last;
  return null;
}
