/**
 * Whether the popover is narrow: 190 CSS pixels at 200% zoom, where a card keeps to fewer lines so
 * the free resources stay in view. At the real size (380 px) it is 19 rem even with a 20 px font.
 * Where the page cannot be asked (no matchMedia), it is not narrow.
 */
export function narrowPopover(): { readonly current: boolean } {
  const query = globalThis.matchMedia?.('(max-width: 18rem)');
  let narrow = $state(query?.matches ?? false);
  $effect(() => {
    if (query === undefined) return;
    const update = () => (narrow = query.matches);
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  });
  return {
    get current() {
      return narrow;
    },
  };
}
