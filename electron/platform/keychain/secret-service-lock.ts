/** Whether the keychain is locked, asked without ever bringing up an unlock prompt. */
import { execFile } from 'node:child_process';
import { systemProgramEnv } from '../system-program-env.js';

/**
 * Whether the Secret Service's default collection is locked, read as a D-Bus property: unlike any
 * keytar call, this never brings up an unlock prompt. Null when it cannot be told (no dbus-send,
 * no bus, no default collection).
 */
export function secretServiceLocked(env: NodeJS.ProcessEnv = process.env): Promise<boolean | null> {
  const args = [
    '--session',
    '--print-reply',
    '--reply-timeout=2000',
    '--dest=org.freedesktop.secrets',
    '/org/freedesktop/secrets/aliases/default',
    'org.freedesktop.DBus.Properties.Get',
    'string:org.freedesktop.Secret.Collection',
    'string:Locked',
  ];
  return new Promise((resolve) => {
    execFile('dbus-send', args, { env: systemProgramEnv(env), timeout: 3000 }, (error, stdout) => {
      const answer = error ? null : /boolean (true|false)/.exec(stdout);
      resolve(answer ? answer[1] === 'true' : null);
    });
  });
}

/** The Secret Service on Linux; elsewhere the keychain's lock cannot be told without a prompt (null). */
export const keychainLockedWithoutPrompt = (): Promise<boolean | null> =>
  process.platform === 'linux' ? secretServiceLocked() : Promise.resolve(null);
