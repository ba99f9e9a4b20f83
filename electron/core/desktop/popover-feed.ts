import type { StateSnapshot } from '../../bridge/contract.js';

export interface PopoverFeed {
  /** The core's state changed. */
  stateChanged(snapshot: StateSnapshot): void;
  /** The popover was just shown. */
  shown(): void;
}

/**
 * What the popover's page is sent of the core's state: every new state while the popover is shown;
 * nothing while it is closed, since a hidden page would take in and lay out every poll's snapshot
 * for nobody (issue 23: nothing spent while idle); and the latest state the moment it is shown,
 * when anything changed meanwhile.
 */
export function createPopoverFeed(options: {
  visible: () => boolean;
  send: (snapshot: StateSnapshot) => void;
  snapshot: () => StateSnapshot;
}): PopoverFeed {
  let missed = false;
  return {
    stateChanged(snapshot) {
      if (options.visible()) options.send(snapshot);
      else missed = true;
    },
    shown() {
      if (!missed) return;
      missed = false;
      options.send(options.snapshot());
    },
  };
}
