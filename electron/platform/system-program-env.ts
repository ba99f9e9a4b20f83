/**
 * The environment for running one of the system's own programs (notify-send, stdbuf, dbus-send)
 * from Perch.
 *
 * An AppImage's AppRun exports LD_LIBRARY_PATH="$APPDIR/usr/lib:…" before it starts Perch
 * (electron-builder's generateAppRunScript, packages/app-builder-lib/src/targets/appimage/appImageUtil.ts),
 * and that folder holds the AppImage toolset's own libraries: libnotify.so.4, libXss, libXtst,
 * libappindicator, taken from Ubuntu 20.04 for the static runtime (electron-builder-binaries,
 * packages/appimage/assets/appimage-docker.sh) and older still for the legacy one. A system
 * program inheriting it loads those instead of the ones it was built against: the system's
 * notify-send, newer than that libnotify, would fail or lose its buttons. So every entry inside
 * $APPDIR is dropped; the user's own entries stay. Outside an AppImage (no APPDIR) the
 * environment is passed on as it is.
 */
import path from 'node:path';

export function systemProgramEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const appDir = env['APPDIR'];
  const libraryPath = env['LD_LIBRARY_PATH'];
  if (!appDir || libraryPath === undefined) return env;
  const bundled = path.resolve(appDir);
  const insideAppDir = (entry: string) =>
    path.isAbsolute(entry) && (path.resolve(entry) === bundled || path.resolve(entry).startsWith(`${bundled}/`));
  const kept = libraryPath.split(':').filter((entry) => !insideAppDir(entry));
  const result = { ...env };
  if (kept.length > 0) result['LD_LIBRARY_PATH'] = kept.join(':');
  else delete result['LD_LIBRARY_PATH'];
  return result;
}
