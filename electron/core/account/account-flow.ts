/**
 * Becoming signed in and signed out: sign-in, "Try it on this computer", restoring the kept
 * account on start, and sign-out — asked for, or forced when the session ends unasked, after
 * which nothing of the account stays in memory or in the cache.
 */
import type { BridgeResult, SignInRequest, StateSnapshot } from '../../bridge.js';
import type { AccountCache } from '../storage/account-cache.js';
import { clearAccountData, type CoreState } from '../core-state.js';
import { failure, invalidInput, success } from '../errors.js';
import { generateLocalPassword, thisComputersProfile, type LocalProfile } from '../local-service/local-account.js';
import type { LocalService } from '../local-service/local-service.js';
import type { ReferenceData } from '../sync/reference-data.js';
import { sessionMessages, type AccountIdentity, type AccountSession, type SignInOptions } from './session.js';
import type { Sync } from '../sync/sync.js';

export interface AccountFlowOptions {
  state: CoreState;
  session: AccountSession;
  localService?: LocalService;
  localProfile?: () => LocalProfile;
  cache: AccountCache;
  sync: Sync;
  reference: ReferenceData;
  track(work: Promise<unknown>): void;
  snapshot(): StateSnapshot;
  stateChanged(): void;
}

export interface AccountFlow {
  signIn(request: SignInRequest): Promise<BridgeResult<StateSnapshot>>;
  /** Starts the local service and signs in to the person's own account there. */
  tryThisComputer(): Promise<BridgeResult<StateSnapshot>>;
  signOut(): Promise<BridgeResult<StateSnapshot>>;
  /** The account kept from the last run, if it can be restored: adopted, and polling. */
  restore(): Promise<void>;
}

/** The provisioned account keeps its generated password in the keychain: nobody could type it. */
const provisionedSignIn = (username: string, password: string): SignInRequest => ({ server: { kind: 'local' }, username, password, staySignedIn: true });

export function createAccountFlow(options: AccountFlowOptions): AccountFlow {
  const { state, session, cache, sync, reference, stateChanged } = options;

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
    await Promise.all([sync.refreshNow(), reference.refresh(true)]);
    stateChanged();
    return success(options.snapshot());
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
    const password = (await session.keptLocalPassword(profile.userName)) ?? generateLocalPassword();
    const started = await localService.ensureRunning({ ...profile, password });
    if (!started.ok) {
      state.phase = session.account === null ? 'signedOut' : 'ready';
      stateChanged();
      return started;
    }
    return signIn(provisionedSignIn(started.value.userName ?? profile.userName, password), { provisioned: true });
  }

  /** Starts the local service for the kept account, then restores it (or signs in afresh when the keychain lost the password). */
  async function restoreLocal(kept: AccountIdentity, localService: LocalService): Promise<boolean> {
    const keptPassword = await session.keptLocalPassword(kept.userName);
    const password = keptPassword ?? generateLocalPassword();
    const { userName, firstName, lastName, timezone } = kept;
    const started = await localService.ensureRunning({ userName, firstName, lastName, timezone, password });
    if (!started.ok) {
      state.lastError = started.error;
      return false;
    }
    if (keptPassword !== null) return session.restore();
    const signedIn = await session.signIn(provisionedSignIn(started.value.userName ?? userName, password), { provisioned: true });
    if (!signedIn.ok) state.lastError = signedIn.error;
    return signedIn.ok;
  }

  async function restoreKept(): Promise<boolean> {
    const kept = await session.keptIdentity();
    // Other accounts of the local service are restored like any other; the service starts when the session asks for it.
    if (kept?.server.kind === 'local' && kept.provisioned && options.localService) return restoreLocal(kept, options.localService);
    return session.restore();
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
      return success(options.snapshot());
    },
    async restore() {
      if (!(await restoreKept())) return;
      await cache.adopt(session.account!);
      state.phase = 'ready';
      sync.start();
      options.track(reference.refresh(false));
    },
  };
}
