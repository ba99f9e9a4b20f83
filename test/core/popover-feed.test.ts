import { describe, expect, it } from 'vitest';
import type { StateSnapshot } from '../../electron/bridge/contract.js';
import { createPopoverFeed } from '../../electron/core/desktop/popover-feed.js';
import { signedOutState } from '../support/snapshots.js';

const at = (minute: number) => signedOutState(`2025-11-26T10:${String(minute).padStart(2, '0')}:00.000+01:00`);

function feedOn(initiallyVisible: boolean) {
  let visible = initiallyVisible;
  let latest = at(0);
  const sent: StateSnapshot[] = [];
  const feed = createPopoverFeed({ visible: () => visible, send: (snapshot) => sent.push(snapshot), snapshot: () => latest });
  return {
    feed,
    sent,
    change(snapshot: StateSnapshot) {
      latest = snapshot;
      feed.stateChanged(snapshot);
    },
    setVisible(next: boolean) {
      visible = next;
      if (next) feed.shown();
    },
  };
}

describe('the popover feed (issue 23: a closed popover is sent nothing)', () => {
  it('sends each state while the popover is shown', () => {
    const popover = feedOn(true);
    popover.change(at(1));
    popover.change(at(2));
    expect(popover.sent.map((snapshot) => snapshot.now)).toEqual([at(1).now, at(2).now]);
  });

  it('sends nothing while it is closed, then the latest state once as it is shown', () => {
    const popover = feedOn(false);
    for (let minute = 1; minute <= 12; minute++) popover.change(at(minute * 5 - 1));
    expect(popover.sent).toEqual([]);
    popover.setVisible(true);
    expect(popover.sent.map((snapshot) => snapshot.now)).toEqual([at(59).now]);
  });

  it('shown with nothing changed while it was closed: nothing to send', () => {
    const popover = feedOn(true);
    popover.change(at(1));
    popover.setVisible(false);
    popover.setVisible(true);
    expect(popover.sent.map((snapshot) => snapshot.now)).toEqual([at(1).now]);
  });
});
