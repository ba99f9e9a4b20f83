/**
 * Whether a server lets a normal user change or cancel a reservation once it has started: its
 * `start.time.constraint` (server-facts D), a setting no API call reveals. It is learned from the
 * server's own answers (its first refusal, or a change it accepted) and kept per server in a small
 * file, so a restart or another sign-in to the same server does not learn it again, and one
 * server's rule never touches another's. Administrators are exempt on every server.
 */
import { join } from 'node:path';
import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { readJsonFile, writeJsonAtomic } from '../storage/files.js';
import type { AccountIdentity } from './account-identity.js';

/** `future`: nothing that has started may be changed (the default); `current`: it may. */
export type StartTimeRule = 'future' | 'current';

export const startTimeRulesFileName = 'server-rules.json';

const RulesFileSchema = Type.Object({
  startTimeRules: Type.Record(Type.String(), Type.Union([Type.Literal('future'), Type.Literal('current')])),
});

export interface StartTimeRules {
  /** Reads what was learned before; a missing or damaged file is nothing learned yet. */
  load(): Promise<void>;
  /** The server refuses this account's changes to a reservation under way, as far as Perch knows. */
  locksStarted(account: AccountIdentity | null): boolean;
  /** What the server's answer to a change of a started reservation showed; administrators' answers show nothing. */
  learn(account: AccountIdentity, rule: StartTimeRule): void;
}

/**
 * The local service's address changes between runs, and it is the same service: one key. Its rule
 * is its own code's (`future`, as a stock LibreBooking), known without asking.
 */
const serverKey = (account: AccountIdentity) => (account.server.kind === 'local' ? 'local' : account.apiRoot);
const localRule: StartTimeRule = 'future';

export function createStartTimeRules(options: {
  dataDir: string;
  track(work: Promise<unknown>): void;
  log(message: string, error?: unknown): void;
}): StartTimeRules {
  const path = join(options.dataDir, startTimeRulesFileName);
  const learned = new Map<string, StartTimeRule>();

  function ruleOf(account: AccountIdentity): StartTimeRule | null {
    return account.server.kind === 'local' ? localRule : (learned.get(serverKey(account)) ?? null);
  }

  return {
    async load() {
      const read = await readJsonFile(path);
      if (read.kind === 'unreadable') options.log(`could not read ${startTimeRulesFileName}: ${read.problem}`);
      if (read.kind !== 'ok' || !Value.Check(RulesFileSchema, read.value)) return;
      for (const [key, rule] of Object.entries(read.value.startTimeRules)) learned.set(key, rule);
    },
    locksStarted(account) {
      return account !== null && !account.isAdmin && ruleOf(account) === 'future';
    },
    learn(account, rule) {
      if (account.isAdmin || account.server.kind === 'local' || learned.get(serverKey(account)) === rule) return;
      learned.set(serverKey(account), rule);
      const file = { startTimeRules: Object.fromEntries(learned) };
      options.track(writeJsonAtomic(path, file).catch((error: unknown) => options.log(`could not write ${startTimeRulesFileName}`, error)));
    },
  };
}
