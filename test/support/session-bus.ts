import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';

/** The password of the login keyring the private gnome-keyring creates (and unlocks with). */
export const testKeyringPassword = 'perch-test-keyring';

export interface PrivateSessionBus {
  /** For DBUS_SESSION_BUS_ADDRESS. */
  address: string;
  stop(): Promise<void>;
}

async function readFirstLine(child: ChildProcess): Promise<string> {
  let buffered = '';
  for await (const chunk of child.stdout!) {
    buffered += String(chunk);
    const newline = buffered.indexOf('\n');
    if (newline >= 0) return buffered.slice(0, newline).trim();
  }
  throw new Error('dbus-daemon exited without printing its address');
}

async function stopChild(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await Promise.race([once(child, 'exit'), sleep(2000)]);
}

/**
 * A D-Bus session bus of the test's own (dbus-daemon), optionally with an unlocked gnome-keyring
 * Secret Service on it, in throwaway data folders: the real OS keychain and notification bus,
 * isolated from the machine's. Set `process.env.DBUS_SESSION_BUS_ADDRESS` to `address` before the
 * first keytar call of the process.
 */
export async function startPrivateSessionBus(
  options: {
    keyring?: boolean;
    /** false: a bare bus that starts nothing on demand, so no Secret Service appears unless started here. */
    activation?: boolean;
  } = {},
): Promise<PrivateSessionBus> {
  const folder = mkdtempSync(join(tmpdir(), 'perch-bus-'));
  const env = { ...process.env, XDG_DATA_HOME: join(folder, 'data'), XDG_RUNTIME_DIR: folder, HOME: folder };
  const config = options.activation === false ? ['--config-file', writeBareBusConfig(folder)] : ['--session'];
  const daemon = spawn('dbus-daemon', [...config, '--nofork', '--print-address=1'], { env, stdio: ['ignore', 'pipe', 'ignore'] });
  const address = await readFirstLine(daemon);
  const children: ChildProcess[] = [daemon];
  if (options.keyring) {
    const keyring = spawn('gnome-keyring-daemon', ['--foreground', '--unlock', '--components=secrets'], {
      env: { ...env, DBUS_SESSION_BUS_ADDRESS: address },
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    keyring.stdin!.end(testKeyringPassword);
    children.push(keyring);
    await waitForName(address, 'org.freedesktop.secrets');
  }
  return {
    address,
    async stop() {
      for (const child of children.reverse()) await stopChild(child);
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** The session bus configuration without any service folders: the machine's installed services stay out. */
function writeBareBusConfig(folder: string): string {
  const path = join(folder, 'bare-session.conf');
  writeFileSync(
    path,
    `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir=${folder}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>
`,
  );
  return path;
}

/** Polls the bus until a well-known name has an owner (a daemon finished starting). */
async function waitForName(address: string, name: string, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const probe = spawn(
      'dbus-send',
      [
        '--session',
        '--print-reply',
        '--dest=org.freedesktop.DBus',
        '/org/freedesktop/DBus',
        'org.freedesktop.DBus.NameHasOwner',
        `string:${name}`,
      ],
      {
        env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: address },
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    let output = '';
    probe.stdout.on('data', (chunk) => (output += String(chunk)));
    await once(probe, 'exit');
    if (output.includes('boolean true')) return;
    await sleep(50);
  }
  throw new Error(`${name} did not appear on the private session bus`);
}
