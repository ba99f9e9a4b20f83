/** Asking a locked keychain, now and then, whether it was unlocked. */

/** Asked every `intervalMs` this many times (the first minute: an unlock right after login)… */
const QUICK_LOCK_POLLS = 6;
/** …then this many times less often: a keychain left locked all day wakes Perch at most twice a minute (issue 23). */
const SLOW_LOCK_POLL_FACTOR = 3;

export interface LockPollOptions {
  /** Whether the keychain is locked, asked without a prompt; null when that cannot be told. */
  isLocked: () => Promise<boolean | null>;
  intervalMs: number;
  /** The keychain answered that it is no longer locked. */
  onUnlocked: () => void;
  /** Whether the keychain is still taken for locked: the polls go on only while it is. */
  stillLocked: () => boolean;
}

export interface LockPoll {
  /** Starts asking, unless it already is. */
  start(): void;
  /** Stops asking; the next start begins with the quick polls again. */
  stop(): void;
}

/**
 * Asks, without a prompt, whether the keychain was unlocked, and again while it is locked, the
 * quick polls first. Where that cannot be told it stops asking: the screen's unlock (`retry`)
 * and a late answer to the unlock prompt still open it.
 */
export function lockPoll(options: LockPollOptions): LockPoll {
  let pollTimer: NodeJS.Timeout | null = null;
  /** Polls since the keychain was found locked. */
  let lockPolls = 0;

  function pollLock(): void {
    const delay = lockPolls < QUICK_LOCK_POLLS ? options.intervalMs : options.intervalMs * SLOW_LOCK_POLL_FACTOR;
    const timer: NodeJS.Timeout = setTimeout(() => {
      lockPolls += 1;
      void options.isLocked().then((locked) => {
        if (pollTimer !== timer) return;
        pollTimer = null;
        if (locked === false) options.onUnlocked();
        if (locked !== null && options.stillLocked()) pollLock();
      });
    }, delay);
    timer.unref();
    pollTimer = timer;
  }

  return {
    start() {
      if (pollTimer === null) pollLock();
    },
    stop() {
      if (pollTimer) clearTimeout(pollTimer);
      pollTimer = null;
      lockPolls = 0;
    },
  };
}
