import { generatePassword } from '../passwords.js';
import type { Store } from '../store/database.js';
import { createAdministrator, hasUsers } from './bootstrap.js';
import { seedDemo, type DemoOrganisation } from './demo.js';

export const firstAdministratorName = 'admin';

export interface FirstStartOptions {
  /** Seed the demo organisation instead of a lone administrator. */
  demo: boolean;
  /** The administrator's password (from the environment); generated when absent. */
  administratorPassword?: string | undefined;
  /** The administrator's timezone; the machine's own by default. */
  timezone?: string;
}

/** What the first start seeded, kept in `settings` so later starts can tell a demo store apart. */
export type SeedKind = 'demo' | 'administrator';
const seedSetting = 'firstStartSeed';

export type FirstStart =
  /** The store already held users: nothing was added, so no record is ever overwritten. */
  | { kind: 'existing'; seeded: SeedKind | null }
  /** `generatedPassword` is null when the caller supplied the password. */
  | { kind: 'administrator'; userName: string; generatedPassword: string | null }
  | { kind: 'demo'; organisation: DemoOrganisation };

const machineTimezone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/**
 * Makes a store usable on its first start: a store without users gets either the demo organisation
 * or one application administrator. The check and the seed share a transaction, so two starts on
 * the same folder cannot both seed.
 */
export async function prepareFirstStart(store: Store, options: FirstStartOptions): Promise<FirstStart> {
  return store.transaction().execute(async (trx): Promise<FirstStart> => {
    if (await hasUsers(trx)) {
      const setting = await trx.selectFrom('settings').select('value').where('key', '=', seedSetting).executeTakeFirst();
      return { kind: 'existing', seeded: setting?.value === 'demo' || setting?.value === 'administrator' ? setting.value : null };
    }
    const remember = (seeded: SeedKind) => trx.insertInto('settings').values({ key: seedSetting, value: seeded }).execute();
    if (options.demo) {
      const organisation = await seedDemo(trx);
      await remember('demo');
      return { kind: 'demo', organisation };
    }
    const supplied = options.administratorPassword ? options.administratorPassword : null;
    const password = supplied ?? generatePassword();
    await createAdministrator(trx, {
      userName: firstAdministratorName,
      emailAddress: 'admin@example.com',
      password,
      timezone: options.timezone ?? machineTimezone(),
    });
    await remember('administrator');
    return { kind: 'administrator', userName: firstAdministratorName, generatedPassword: supplied ? null : password };
  });
}
