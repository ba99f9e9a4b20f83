import path from 'node:path';

/**
 * Where the build puts what the app loads, relative to the app's root (package.json's folder in
 * development, `app.asar` when packaged). The build scripts write these paths and the shell reads
 * them, so both take them from here.
 */
export const appLayout = {
  main: 'dist/electron/main.js',
  preload: 'dist/electron/preload.cjs',
  serviceHost: 'dist/electron/service-host.js',
  renderer: 'dist/renderer',
  trayIcons: 'build/tray',
  /** Shown by the desktop's notification server, another process: so unpacked (see `unpackedPath`). */
  notificationIcon: 'build/icons/256x256.png',
} as const;

/**
 * A file of the app that another program reads: when packaged, electron-builder's `asarUnpack`
 * puts it beside app.asar, in app.asar.unpacked, since only the app itself can read inside the archive.
 */
export function unpackedPath(appPath: string, relative: string): string {
  return path.join(appPath.replace(/app\.asar$/, 'app.asar.unpacked'), relative);
}
