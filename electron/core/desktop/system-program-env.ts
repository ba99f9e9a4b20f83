/**
 * The environment for running one of the system's own programs (notify-send, stdbuf, dbus-send)
 * from Perch.
 *
 * An AppImage's AppRun exports LD_LIBRARY_PATH="$APPDIR/usr/lib:…" before it starts Perch
 * (electron-builder's generateAppRunScript, packages/app-builder-lib/src/targets/appimage/appImageUtil.ts),
 * and that folder holds the AppImage toolset's own libraries (libnotify 0.7.6 among them). A
 * system program inheriting it would load those instead of the ones it was built against:
 * notify-send would lose its buttons or fail. So every entry inside $APPDIR is dropped; the
 * user's own entries stay. Outside an AppImage (no APPDIR) the environment is passed on as it is.
 */
import path from 'node:path';

export function systemProgramEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const appDir = env['APPDIR'];
  const libraryPath = env['LD_LIBRARY_PATH'];
  if (!appDir || libraryPath === undefined) return env;
  const bundled = path.resolve(appDir);
  const insideAppDir = (entry: string) => path.isAbsolute(entry) && (path.resolve(entry) === bundled || path.resolve(entry).startsWith(`${bundled}/`));
  const kept = libraryPath.split(':').filter((entry) => !insideAppDir(entry));
  const result = { ...env };
  if (kept.length > 0) result['LD_LIBRARY_PATH'] = kept.join(':');
  else delete result['LD_LIBRARY_PATH'];
  return result;
}
