/**
 * The afterPack check that a package holds the SQLite binary of the system it is built for.
 *
 * libsql ships its binary in one npm package per platform, @libsql/<platform>, listed as
 * optionalDependencies: npm installs only the build machine's own (the others' `os` and `cpu`
 * do not match), and with `npmRebuild: false` the build fetches nothing else. So a Windows or
 * macOS package built on Linux, or an arm64 one built on x64, would be packed without it, and
 * the local service would fail on the user's computer ("Cannot find module '@libsql/…'").
 * This check stops such a build before anything is signed or made into an installer.
 */
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Arch, type AfterPackContext } from 'electron-builder';
import { projectRoot } from './project-root.js';

/**
 * The @libsql/<platform> packages a package for this platform and architecture loads, named as
 * libsql's index.js names them (through @neon-rs/load's currentTarget). Linux takes the glibc
 * build: Electron is built against glibc. A universal Mac app carries both Mac builds. Null
 * where libsql has no name for the pair at all.
 */
export function libsqlPackagesFor(platform: string, arch: Arch): string[] | null {
  switch (platform) {
    case 'linux':
      if (arch === Arch.x64) return ['@libsql/linux-x64-gnu'];
      if (arch === Arch.arm64) return ['@libsql/linux-arm64-gnu'];
      if (arch === Arch.armv7l) return ['@libsql/linux-arm-gnueabihf'];
      return null;
    case 'darwin':
    case 'mas':
      if (arch === Arch.x64) return ['@libsql/darwin-x64'];
      if (arch === Arch.arm64) return ['@libsql/darwin-arm64'];
      if (arch === Arch.universal) return ['@libsql/darwin-x64', '@libsql/darwin-arm64'];
      return null;
    case 'win32':
      if (arch === Arch.x64) return ['@libsql/win32-x64-msvc'];
      if (arch === Arch.arm64) return ['@libsql/win32-arm64-msvc'];
      if (arch === Arch.ia32) return ['@libsql/win32-ia32-msvc'];
      return null;
    default:
      return null;
  }
}

/** Why a package for this platform and architecture cannot run Perch's SQLite, or null when it can. */
export async function missingLibsqlBinary(resourcesDir: string, platform: string, arch: Arch): Promise<string | null> {
  const target = `${platform} ${Arch[arch]}`;
  const libsql = JSON.parse(await readFile(join(projectRoot, 'node_modules', 'libsql', 'package.json'), 'utf8')) as {
    version: string;
    optionalDependencies?: Record<string, string>;
  };
  const published = Object.keys(libsql.optionalDependencies ?? {});
  const needed = libsqlPackagesFor(platform, arch);
  const unpublished = needed?.filter((name) => !published.includes(name)) ?? [];
  if (needed === null || unpublished.length > 0) {
    const which = needed === null ? '' : ` (${unpublished.join(', ')} is not among its optionalDependencies)`;
    return `Perch cannot be packaged for ${target}: libsql ${libsql.version} publishes no SQLite binary for it${which}.`;
  }
  for (const name of needed) {
    const binary = join(resourcesDir, 'app.asar.unpacked', 'node_modules', name, 'index.node');
    try {
      await access(binary);
    } catch {
      return (
        `The ${target} package has no SQLite binary: ${binary} is missing. ` +
        `npm installs only the build machine's own @libsql/<platform> package, and the build rebuilds nothing (npmRebuild: false). ` +
        `Build the ${target} package on a ${target} machine, after npm ci there.`
      );
    }
  }
  return null;
}

/** electron-builder's afterPack hook: fails the build when the packed app lacks its SQLite binary. */
export async function checkLibsqlBinary(context: AfterPackContext): Promise<void> {
  const problem = await missingLibsqlBinary(
    context.packager.getResourcesDir(context.appOutDir),
    context.electronPlatformName,
    context.arch,
  );
  if (problem !== null) throw new Error(problem);
}
