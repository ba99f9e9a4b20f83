/**
 * Whether Chromium, started by `npm start` on Linux, would abort for want of its setuid sandbox
 * helper (electron/electron#42510), and what the developer can do about it.
 *
 * Chromium's rule (content/browser/zygote_host/zygote_host_impl_linux.cc, ZygoteHostImpl::Init;
 * sandbox/linux/suid/client/setuid_sandbox_host.cc): with the sandbox on, it uses the namespace
 * sandbox when the process may create a user namespace, and never looks at chrome-sandbox then.
 * Only where user namespaces are refused does it fall back on chrome-sandbox beside the binary,
 * and it aborts unless that file is owned by root, setuid and executable by others ("The SUID
 * sandbox helper binary was found, but is not configured correctly"), or, when there is none,
 * with "No usable sandbox!". Electron turns the sandbox off only for ELECTRON_DISABLE_SANDBOX or
 * --no-sandbox, which Perch never suggests.
 *
 * User namespaces are refused where the kernel is told so: Debian's kernel.unprivileged_userns_clone
 * = 0, user.max_user_namespaces = 0, or AppArmor's kernel.apparmor_restrict_unprivileged_userns = 1
 * (Ubuntu 23.10 and later) for a program no AppArmor profile confines. A profile for the Electron
 * binary lifts the AppArmor restriction, so the binary's AppArmor label is read as well.
 */
import { dirname } from 'node:path';

export interface FileOwnership {
  uid: number;
  mode: number;
}

/** What the check reads from the system; null where a file does not exist or cannot be read. */
export interface SandboxReads {
  readFile(path: string): string | null;
  stat(path: string): FileOwnership | null;
  /** The AppArmor label the Electron binary runs under: "unconfined" where no profile attaches to it. */
  electronAppArmorLabel(): string | null;
}

export interface SandboxCheck {
  platform: NodeJS.Platform;
  /** The Electron binary `npm start` runs; Chromium looks for chrome-sandbox beside it. */
  electronBinary: string;
  environment: NodeJS.ProcessEnv;
  reads: SandboxReads;
}

export const userNamespaceSwitches = {
  debianClone: '/proc/sys/kernel/unprivileged_userns_clone',
  maxUserNamespaces: '/proc/sys/user/max_user_namespaces',
  appArmorRestriction: '/proc/sys/kernel/apparmor_restrict_unprivileged_userns',
} as const;

/** The name of the AppArmor profile the remedy installs for the development Electron binary. */
export const devProfileName = 'perch-dev-electron';

const setuidBit = 0o4000;
const executableByOthers = 0o001;

/** Why Chromium would not get a user namespace here, or null where it would. */
function userNamespaceRefusal(reads: SandboxReads): { reason: string; appArmor: boolean } | null {
  const value = (path: string) => reads.readFile(path)?.trim() ?? null;
  if (value(userNamespaceSwitches.debianClone) === '0') return { reason: 'kernel.unprivileged_userns_clone = 0', appArmor: false };
  if (value(userNamespaceSwitches.maxUserNamespaces) === '0') return { reason: 'user.max_user_namespaces = 0', appArmor: false };
  if (value(userNamespaceSwitches.appArmorRestriction) === '1') {
    const label = reads.electronAppArmorLabel();
    // An unknown label counts as unconfined: without a profile of its own the restriction applies.
    if (label === null || label === 'unconfined') return { reason: 'kernel.apparmor_restrict_unprivileged_userns = 1', appArmor: true };
  }
  return null;
}

/** A path as one shell word. */
function shellWord(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}

/**
 * The message `npm start` prints before it stops, where Chromium would abort for want of a usable
 * setuid helper; null where Chromium would start.
 */
export function sandboxHelperProblem({ platform, electronBinary, environment, reads }: SandboxCheck): string | null {
  if (platform !== 'linux' || environment.ELECTRON_DISABLE_SANDBOX !== undefined) return null;
  const refusal = userNamespaceRefusal(reads);
  if (refusal === null) return null;
  const helper = `${dirname(electronBinary)}/chrome-sandbox`;
  const ownership = reads.stat(helper);
  const usable =
    ownership !== null && ownership.uid === 0 && (ownership.mode & setuidBit) !== 0 && (ownership.mode & executableByOthers) !== 0;
  if (usable) return null;

  const lines = [
    `Perch cannot start from source here: this system refuses unprivileged user namespaces (${refusal.reason}), ` +
      `so Chromium's sandbox needs its setuid helper, and ${helper} ${ownership === null ? 'is missing' : 'is not owned by root with mode 4755'}. ` +
      'Chromium would abort ("The SUID sandbox helper binary was found, but is not configured correctly").',
  ];
  if (refusal.appArmor) {
    const profile = `/etc/apparmor.d/${devProfileName}`;
    lines.push(
      'Either let this Electron binary create user namespaces with an AppArmor profile (it outlasts npm ci):',
      `sudo tee ${profile} >/dev/null <<'EOF'`,
      'abi <abi/4.0>,',
      'include <tunables/global>',
      '',
      `profile ${devProfileName} "${electronBinary}" flags=(unconfined) {`,
      '  userns,',
      '}',
      'EOF',
      `sudo apparmor_parser -r ${profile}`,
      'or make the helper setuid root (again after every npm ci, which replaces it):',
    );
  } else {
    lines.push('Make the helper setuid root (again after every npm ci, which replaces it):');
  }
  if (ownership === null) lines.push('rm -rf node_modules/electron/dist && node node_modules/electron/install.js');
  lines.push(`sudo chown root:root ${shellWord(helper)} && sudo chmod 4755 ${shellWord(helper)}`);
  return lines.join('\n');
}
