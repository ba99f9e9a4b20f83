/**
 * Becoming signed in and signed out: sign-in, "Try it on this computer", restoring the kept
 * account on start, and sign-out — asked for, or forced when the session ends unasked, after
 * which nothing of the account stays in memory or in the cache.
 */
import type { BridgeResult, SignInRequest, StateSnapshot } from '../../bridge/contract.js';
import type { AccountCache } from './account-cache.js';
import type { SecretStore } from '../storage/secret-store.js';
import { clearAccountData, type CoreState } from '../core-state.js';
import { failure, invalidInput, success } from '../errors.js';
import { generateLocalPassword, thisComputersProfile, type LocalProfile } from '../local-service/local-account.js';
import type { LocalService } from '../local-service/local-service.js';
import type { ReferenceData } from '../sync/reference-data.js';
import type { AccountIdentity } from '../session/account-identity.js';
import type { AccountSession, RestoreOutcome, SignInOptions } from '../session/session.js';
import { sessionMessages } from '../session/session-errors.js';
import type { Sync } from '../sync/sync.js';
import type { CoreView } from '../views/snapshot.js';

export interface AccountFlowOptions {
  state: CoreState;
  session: AccountSession;
  /** Told when a keychain that was locked at start can be read, to restore the account kept there. */
  secrets: Pick<SecretStore, 'onUnlocked'>;
  localService?: LocalService;
  localProfile?: () => LocalProfile;
  cache: AccountCache;
  sync: Sync;
  reference: ReferenceData;
  track(work: Promise<unknown>): void;
  /** Told of each change; its snapshot is what a sign-in answers. */
  view: Pick<CoreView, 'snapshot' | 'changed'>;
}

export interface AccountFlow {
  signIn(request: SignInRequest): Promise<BridgeResult<StateSnapshot>>;
  /** Starts the local service and signs in to the person's own account there. */
  tryThisComputer(): Promise<BridgeResult<StateSnapshot>>;
  signOut(): Promise<BridgeResult<StateSnapshot>>;
  /**
   * The account kept from the last run, if it can be restored: adopted, and polling. While the
   * keychain is locked, the account stays kept and is restored once the keychain is unlocked.
   */
  restore(): Promise<void>;
  /** Stops waiting for the keychain. */
  stop(): void;
}

/** The provisioned account keeps its generated password in the keychain: nobody could type it. */
const provisionedSignIn = (username: string, password: string): SignInRequest => ({
  server: { kind: 'local' },
  username,
  password,
  staySignedIn: true,
});

export function createAccountFlow(options: AccountFlowOptions): AccountFlow {
  const { state, session, cache, sync, reference } = options;
  const stateChanged = options.view.changed;

  async function forgetAccountData(): Promise<void> {
    sync.stop();
    clearAccountData(state);
    await cache.remove();
  }

  session.onSignedOut((error) => {
    state.phase = 'signedOut';
    state.lastError = error;
    options.track(forgetAccountData().then(stateChanged));
    stateChanged();
  });

  async function signIn(request: SignInRequest, how: SignInOptions = {}): Promise<BridgeResult<StateSnapshot>> {
    state.phase = 'signingIn';
    stateChanged();
    const result = await session.signIn(request, how);
    if (!result.ok) {
      // A failed attempt to switch accounts leaves the signed-in one as it was.
      state.phase = session.account === null ? 'signedOut' : 'ready';
      stateChanged();
      return result;
    }
    sync.stop();
    await cache.adopt(result.value);
    state.phase = 'ready';
    state.lastError = null;
    sync.start();
    // Read again at every sign-in, in the background: on a large server the resource list takes
    // seconds, and My reservations must not wait for it. The poll's Free now joins this read; the
    // grants were read with the account.
    options.track(reference.refresh(true, true));
    await sync.ownListNow();
    stateChanged();
    return success(options.view.snapshot());
  }

  /**
   * "Try it on this computer": the local service with the person's own account, whose password
   * nobody types — the one kept in the keychain, or a new one the service is told to accept.
   */
  async function tryThisComputer(): Promise<BridgeResult<StateSnapshot>> {
    const localService = options.localService;
    if (!localService) return failure(invalidInput(sessionMessages.noLocalService));
    state.phase = 'signingIn';
    stateChanged();
    const profile = (options.localProfile ?? thisComputersProfile)();
    // A locked keychain hides the kept password: the service is told a new one, which the keychain keeps once unlocked.
    const kept = await session.keptLocalPassword(profile.userName);
    const password = kept.kind === 'kept' ? kept.value : generateLocalPassword();
    const started = await localService.ensureRunning({ ...profile, password });
    if (!started.ok) {
      state.phase = session.account === null ? 'signedOut' : 'ready';
      stateChanged();
      return started;
    }
    return signIn(provisionedSignIn(started.value.userName ?? profile.userName, password), { provisioned: true });
  }

  /** Starts the local service for the kept account, then restores it (or signs in afresh when the keychain lost the password). */
  async function restoreLocal(kept: AccountIdentity, localService: LocalService): Promise<RestoreOutcome> {
    const keptPassword = await session.keptLocalPassword(kept.userName);
    // A new password now would replace the one the locked keychain still holds.
    if (keptPassword.kind === 'locked') return 'keychainLocked';
    const password = keptPassword.kind === 'kept' ? keptPassword.value : generateLocalPassword();
    const { userName, firstName, lastName, timezone } = kept;
    const started = await localService.ensureRunning({ userName, firstName, lastName, timezone, password });
    if (!started.ok) {
      state.lastError = started.error;
      return 'nothingKept';
    }
    if (keptPassword.kind === 'kept') return session.restore();
    const signedIn = await session.signIn(provisionedSignIn(started.value.userName ?? userName, password), { provisioned: true });
    if (!signedIn.ok) state.lastError = signedIn.error;
    return signedIn.ok ? 'restored' : 'nothingKept';
  }

  async function restoreKept(): Promise<RestoreOutcome> {
    const kept = await session.keptIdentity();
    // Other accounts of the local service are restored like any other; the service starts when the session asks for it.
    if (kept?.server.kind === 'local' && kept.provisioned && options.localService) return restoreLocal(kept, options.localService);
    return session.restore();
  }

  let stopWaitingForKeychain: (() => void) | null = null;

  async function restore(): Promise<void> {
    const outcome = await restoreKept();
    if (outcome === 'keychainLocked') {
      stopWaitingForKeychain ??= options.secrets.onUnlocked(() => {
        stopWaitingForKeychain?.();
        stopWaitingForKeychain = null;
        // Whoever signed in while the keychain was locked is the account to keep.
        if (session.account !== null || state.phase !== 'signedOut') return;
        options.track(restore().then(stateChanged));
      });
      return;
    }
    if (outcome !== 'restored') return;
    await cache.adopt(session.account!);
    state.phase = 'ready';
    sync.start();
    options.track(reference.refresh(false));
  }

  return {
    signIn: (request) => signIn(request),
    tryThisComputer,
    async signOut() {
      sync.stop();
      await session.signOut();
      await forgetAccountData();
      state.phase = 'signedOut';
      state.lastError = null;
      stateChanged();
      return success(options.view.snapshot());
    },
    restore,
    stop() {
      stopWaitingForKeychain?.();
      stopWaitingForKeychain = null;
    },
  };
}
