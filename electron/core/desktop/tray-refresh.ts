import type { StateSnapshot } from '../../bridge/contract.js';
import type { Clock, TimerHandle } from '../clock.js';
import { trayWordsChangeAt } from './tray-menu.js';

export interface TrayRefresh {
  /** Shows this state (the core's current one when not given) in the tray now, and waits for the next moment its words change. */
  refresh(snapshot?: StateSnapshot): void;
}

/**
 * Keeps the tray's words in step with the clock between state changes (a poll may be minutes
 * away): one timer, armed for the moment they next read differently, none while nothing will change
 * them; no ticking while nothing is due (issue 23).
 */
export function createTrayRefresh(options: {
  clock: Clock;
  snapshot: () => StateSnapshot;
  show: (snapshot: StateSnapshot) => void;
}): TrayRefresh {
  const { clock } = options;
  let timer: TimerHandle | null = null;
  function refresh(snapshot = options.snapshot()): void {
    if (timer !== null) clock.clearTimeout(timer);
    timer = null;
    options.show(snapshot);
    const now = clock.now();
    const changeAt = trayWordsChangeAt(snapshot, now);
    if (changeAt === null) return;
    timer = clock.setTimeout(() => {
      timer = null;
      refresh();
    }, changeAt.toMillis() - now.toMillis());
  }
  return { refresh };
}
