import { describe, expect, it, vi } from 'vitest';
import { KeychainLockedError, memorySecretStore } from '../../electron/core/storage/secret-store.js';
import { keychainReasons, reasonForKeychainError } from '../../electron/platform/keychain/keychain-reasons.js';
import { openKeychain } from '../../electron/platform/keychain/keychain.js';
import { probeAccount } from '../../electron/platform/keychain/keychain-probe.js';
import type { KeytarModule } from '../../electron/platform/keychain/keytar.js';

// The failure modes that need no particular D-Bus environment: keytar missing or broken, a keychain
// that hangs or answers wrongly, a keychain that fails after it was opened. Each mode that does
// need its own bus has its own file (keychain-no-bus, keychain-no-secret-service, keychain-locked).

/** A keytar stand-in on a Map, whose calls a test can make fail one by one. */
function fakeKeytar(overrides: Partial<KeytarModule> = {}): KeytarModule & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return {
    entries,
    getPassword: async (service, account) => entries.get(`${service}/${account}`) ?? null,
    setPassword: async (service, account, password) => {
      entries.set(`${service}/${account}`, password);
    },
    deletePassword: async (service, account) => entries.delete(`${service}/${account}`),
    ...overrides,
  };
}

const silent = () => {};

describe('openKeychain without a usable keytar', () => {
  it('loads nothing until the first use', async () => {
    let loads = 0;
    const store = openKeychain('Perch', {
      loadKeytar: async () => {
        loads += 1;
        return fakeKeytar();
      },
      log: silent,
    });
    expect(loads).toBe(0);
    expect(store.status()).toEqual({ available: true, reason: null });
    expect(await store.get('root|ada')).toBeNull();
    expect(await store.get('root|bob')).toBeNull();
    expect(loads).toBe(1);
  });

  it('falls back to memory when the keytar module cannot be imported', async () => {
    const logged: string[] = [];
    const store = openKeychain('Perch', {
      loadKeytar: () => import('perch-no-such-keytar-module' as string),
      log: (message) => logged.push(message),
    });
    await store.set('https://example.org/Web/Services/index.php|ada', 'token-1');
    expect(store.status()).toEqual({ available: false, reason: keychainReasons.moduleMissing });
    expect(store.status().reason).toBe(
      'No keychain is available (the keychain module could not be loaded); you will need to sign in again after Perch restarts.',
    );
    expect(logged.join('\n')).toContain('perch-no-such-keytar-module');
    expect(await store.get('https://example.org/Web/Services/index.php|ada')).toBe('token-1');
  });

  it('falls back to memory when the loader throws synchronously or gives a module without the functions', async () => {
    const throwing = openKeychain('Perch', {
      loadKeytar: () => {
        throw new Error('native binding failed: wrong ELF class');
      },
      log: silent,
    });
    expect(await throwing.get('root|ada')).toBeNull();
    expect(throwing.status()).toEqual({ available: false, reason: keychainReasons.moduleMissing });
    const empty = openKeychain('Perch', { loadKeytar: async () => ({ default: { getPassword: () => null } }), log: silent });
    expect(await empty.get('root|ada')).toBeNull();
    expect(empty.status()).toEqual({ available: false, reason: keychainReasons.moduleMissing });
  });
});

describe('openKeychain with a keychain that misbehaves', () => {
  it('treats a keychain that never answers as locked, within the timeout, keeping writes until it answers', async () => {
    const hanging = fakeKeytar({ setPassword: () => new Promise<void>(() => {}) });
    const started = Date.now();
    const store = openKeychain('Perch', { loadKeytar: async () => hanging, timeoutMs: 100, log: silent });
    await expect(store.get('root|ada')).rejects.toBeInstanceOf(KeychainLockedError);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(store.status()).toEqual({ available: false, reason: keychainReasons.timeout });
    await store.set('root|ada', 'token');
    expect(await store.get('root|ada')).toBe('token');
    expect(hanging.entries.size).toBe(0);
  });

  it('opens when an unlock prompt is answered after the timeout: removes the probe, writes what waited, and says so', async () => {
    let answerPrompt = () => {};
    const slow = fakeKeytar();
    const setPassword = slow.setPassword;
    slow.setPassword = (service, account, password) =>
      new Promise<void>((resolve) => {
        answerPrompt = () => void setPassword(service, account, password).then(resolve);
      });
    const store = openKeychain('Perch', { loadKeytar: async () => slow, timeoutMs: 50, log: silent });
    const unlocked = vi.fn();
    store.onUnlocked(unlocked);
    await expect(store.get('root|ada')).rejects.toBeInstanceOf(KeychainLockedError);
    expect(store.status().reason).toBe(keychainReasons.timeout);
    await store.set('root|ada', 'token while locked');

    slow.setPassword = setPassword;
    answerPrompt();
    await vi.waitFor(() => expect(unlocked).toHaveBeenCalledTimes(1));
    expect(store.status()).toEqual({ available: true, reason: null });
    expect(slow.entries.has(`Perch/${probeAccount}`)).toBe(false);
    expect(slow.entries.get('Perch/root|ada')).toBe('token while locked');
    expect(await store.get('root|ada')).toBe('token while locked');
  });

  it('does not trust a keychain that reads back something other than what was written', async () => {
    const forgetful = fakeKeytar({ getPassword: async () => null });
    const store = openKeychain('Perch', { loadKeytar: async () => forgetful, log: silent });
    await store.set('root|ada', 'token');
    expect(store.status()).toEqual({ available: false, reason: keychainReasons.mismatch });
    expect(await store.get('root|ada')).toBe('token');
  });

  it('treats a keytar call that throws synchronously like a rejection', async () => {
    const store = openKeychain('Perch', {
      loadKeytar: async () =>
        fakeKeytar({
          setPassword: () => {
            throw new Error('Cannot create an item in a locked collection');
          },
        }),
      log: silent,
    });
    await expect(store.get('root|ada')).rejects.toBeInstanceOf(KeychainLockedError);
    expect(store.status()).toEqual({ available: false, reason: keychainReasons.locked });
  });

  it('uses the keychain when it works, and removes its probe entry', async () => {
    const keytar = fakeKeytar();
    const store = openKeychain('Perch', { loadKeytar: async () => keytar, log: silent });
    await store.set('root|ada', 'secret');
    expect(store.status()).toEqual({ available: true, reason: null });
    expect(keytar.entries.has(`Perch/${probeAccount}`)).toBe(false);
    expect(keytar.entries.get('Perch/root|ada')).toBe('secret');
    expect(await store.get('root|ada')).toBe('secret');
    await store.delete('root|ada');
    expect(keytar.entries.size).toBe(0);
    expect(await store.get('root|ada')).toBeNull();
  });

  it('holds writes and deletes refused by a keychain locked meanwhile, and makes them once a poll finds it unlocked', async () => {
    let locked = false;
    const keytar = fakeKeytar();
    const setPassword = keytar.setPassword;
    keytar.setPassword = async (service, account, password) => {
      if (locked) throw new Error('Cannot create an item in a locked collection');
      return setPassword(service, account, password);
    };
    const deletePassword = keytar.deletePassword;
    keytar.deletePassword = async (service, account) => {
      if (locked) throw new Error('Cannot delete an item in a locked collection');
      return deletePassword(service, account);
    };
    const logged: string[] = [];
    const store = openKeychain('Perch', {
      loadKeytar: async () => keytar,
      isLocked: async () => locked,
      lockPollMs: 20,
      log: (message) => logged.push(message),
    });
    await store.set('root|ada', 'old-token');
    await store.set('root|bob', 'bob-token');
    expect(store.status().available).toBe(true);
    const unlocked = vi.fn();
    store.onUnlocked(unlocked);

    locked = true;
    await store.set('root|ada', 'new-token');
    await store.delete('root|bob');
    expect(store.status()).toEqual({ available: false, reason: keychainReasons.locked });
    expect(await store.get('root|ada')).toBe('new-token');
    expect(await store.get('root|bob')).toBeNull();
    await expect(store.get('root|cy')).rejects.toBeInstanceOf(KeychainLockedError);
    // Nothing was lost or moved: the keychain still holds what it held.
    expect(keytar.entries.get('Perch/root|ada')).toBe('old-token');
    expect(keytar.entries.get('Perch/root|bob')).toBe('bob-token');
    expect(logged.some((line) => line.includes('locked collection'))).toBe(true);

    locked = false;
    await vi.waitFor(() => expect(unlocked).toHaveBeenCalledTimes(1));
    expect(store.status()).toEqual({ available: true, reason: null });
    expect(keytar.entries.get('Perch/root|ada')).toBe('new-token');
    expect(keytar.entries.has('Perch/root|bob')).toBe(false);
  });

  it('asks a locked keychain again when told to, when no poll can tell', async () => {
    let locked = true;
    const keytar = fakeKeytar();
    const setPassword = keytar.setPassword;
    keytar.setPassword = async (service, account, password) => {
      if (locked) throw new Error('Cannot create an item in a locked collection');
      return setPassword(service, account, password);
    };
    const isLocked = vi.fn(async () => null);
    const store = openKeychain('Perch', { loadKeytar: async () => keytar, isLocked, lockPollMs: 20, log: silent });
    const unlocked = vi.fn();
    store.onUnlocked(unlocked);
    await expect(store.get('root|ada')).rejects.toBeInstanceOf(KeychainLockedError);
    locked = false;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(unlocked).not.toHaveBeenCalled();
    // Asked once: a poll that cannot tell is not kept ticking (issue 23).
    expect(isLocked).toHaveBeenCalledTimes(1);
    store.retry();
    await vi.waitFor(() => expect(unlocked).toHaveBeenCalledTimes(1));
    expect(store.status()).toEqual({ available: true, reason: null });
  });

  it('a keychain left locked is asked every 10 s for the first minute, then every 30 s: at most twice a minute (issue 23)', async () => {
    vi.useFakeTimers();
    try {
      const keytar = fakeKeytar({
        setPassword: async () => {
          throw new Error('Cannot create an item in a locked collection');
        },
      });
      const isLocked = vi.fn(async () => true);
      const store = openKeychain('Perch', { loadKeytar: async () => keytar, isLocked, log: silent });
      await store.set('root|ada', 'token');
      expect(store.status()).toEqual({ available: false, reason: keychainReasons.locked });
      await vi.advanceTimersByTimeAsync(60_000);
      expect(isLocked).toHaveBeenCalledTimes(6);
      await vi.advanceTimersByTimeAsync(10 * 60_000);
      expect(isLocked).toHaveBeenCalledTimes(6 + 20);
      expect(vi.getTimerCount()).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('switches to memory when a read or a delete fails for good after opening', async () => {
    let broken = false;
    const keytar = fakeKeytar();
    const getPassword = keytar.getPassword;
    keytar.getPassword = async (service, account) => {
      if (broken) throw new Error('The name org.freedesktop.secrets was not provided by any .service files');
      return getPassword(service, account);
    };
    const store = openKeychain('Perch', { loadKeytar: async () => keytar, log: silent });
    await store.set('root|ada', 'token');
    broken = true;
    await expect(store.get('root|ada')).resolves.toBeNull();
    expect(store.status()).toEqual({ available: false, reason: keychainReasons.noSecretService });

    const deleting = fakeKeytar();
    const other = openKeychain('Perch', { loadKeytar: async () => deleting, log: silent });
    await other.set('root|ada', 'token');
    deleting.deletePassword = async () => {
      throw new Error('Could not connect: No such file or directory');
    };
    await expect(other.delete('root|ada')).resolves.toBeUndefined();
    expect(other.status()).toEqual({ available: false, reason: keychainReasons.noBus });
  });
});

describe('reasonForKeychainError', () => {
  it.each([
    ['Cannot autolaunch D-Bus without X11 $DISPLAY', keychainReasons.noBus],
    ['Could not connect: No such file or directory', keychainReasons.noBus],
    ['The name org.freedesktop.secrets was not provided by any .service files', keychainReasons.noSecretService],
    ['Cannot create an item in a locked collection', keychainReasons.locked],
    ['Prompt dismissed', keychainReasons.locked],
    ['Object does not exist at path “/org/freedesktop/secrets/collection/login”', keychainReasons.locked],
    [
      'Something else entirely',
      'The keychain could not be used (Something else entirely); you will need to sign in again after Perch restarts.',
    ],
  ])('%s', (message, reason) => {
    expect(reasonForKeychainError(new Error(message))).toBe(reason);
  });
});

describe('memorySecretStore', () => {
  it('keeps secrets for this run and reports itself unavailable with its reason', async () => {
    const store = memorySecretStore('Because.');
    expect(store.status()).toEqual({ available: false, reason: 'Because.' });
    expect(await store.get('a')).toBeNull();
    await store.set('a', '1');
    await store.set('b', '2');
    await store.set('a', '3');
    expect(await store.get('a')).toBe('3');
    expect(await store.get('b')).toBe('2');
    await store.delete('a');
    await store.delete('missing');
    expect(await store.get('a')).toBeNull();
  });
});
