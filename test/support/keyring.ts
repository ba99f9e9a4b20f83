import dbus from 'dbus-next';

/**
 * Locking and unlocking the login keyring of a private gnome-keyring, over the Secret Service's
 * own D-Bus calls: what a desktop does at login, at screen lock and at unlock, without its prompts.
 */

const secretsName = 'org.freedesktop.secrets';
const servicePath = '/org/freedesktop/secrets';
export const loginCollection = '/org/freedesktop/secrets/collection/login';

async function withSecretService<T>(address: string, work: (bus: dbus.MessageBus) => Promise<T>): Promise<T> {
  const bus = dbus.sessionBus({ busAddress: address });
  try {
    return await work(bus);
  } finally {
    bus.disconnect();
  }
}

export async function lockKeyring(address: string): Promise<void> {
  await withSecretService(address, async (bus) => {
    const service = (await bus.getProxyObject(secretsName, servicePath)).getInterface('org.freedesktop.Secret.Service');
    await service['Lock']!([loginCollection]);
  });
}

/**
 * Unlocks with the keyring's password, as PAM does at login: gnome-keyring's own call for it, since
 * the Secret Service's Unlock would ask the user through a prompt. The secret travels in a "plain"
 * session, which belongs to the connection that opened it, hence one connection for both calls.
 */
export async function unlockKeyring(address: string, password: string): Promise<void> {
  await withSecretService(address, async (bus) => {
    const object = await bus.getProxyObject(secretsName, servicePath);
    const service = object.getInterface('org.freedesktop.Secret.Service');
    const [, session] = (await service['OpenSession']!('plain', new dbus.Variant('s', ''))) as [unknown, string];
    const internal = object.getInterface('org.gnome.keyring.InternalUnsupportedGuiltRiddenInterface');
    await internal['UnlockWithMasterPassword']!(loginCollection, [
      session,
      Buffer.alloc(0),
      Buffer.from(password, 'utf8'),
      'text/plain; charset=utf8',
    ]);
  });
}

export async function isKeyringLocked(address: string): Promise<boolean> {
  return withSecretService(address, async (bus) => {
    const properties = (await bus.getProxyObject(secretsName, loginCollection)).getInterface('org.freedesktop.DBus.Properties');
    const locked = (await properties['Get']!('org.freedesktop.Secret.Collection', 'Locked')) as dbus.Variant<boolean>;
    return locked.value;
  });
}
