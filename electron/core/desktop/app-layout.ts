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
} as const;
