/**
 * The installers: `npm run dist` builds the current platform's into release/.
 *
 * macOS signing and notarisation switch on from the environment, so the configuration holds no
 * secrets. Signing uses CSC_LINK + CSC_KEY_PASSWORD (or a Developer ID in the keychain); without
 * one the app is left unsigned, and macOS then shows none of its notifications; a release
 * (PERCH_RELEASE=1) fails instead. Notarisation runs when Apple credentials are present:
 * APPLE_API_KEY + APPLE_API_KEY_ID + APPLE_API_ISSUER, or APPLE_ID + APPLE_APP_SPECIFIC_PASSWORD +
 * APPLE_TEAM_ID, or APPLE_KEYCHAIN + APPLE_KEYCHAIN_PROFILE; otherwise it is skipped.
 */
import { join } from 'node:path';
import { log } from 'builder-util';
import type { Configuration } from 'electron-builder';
import { appId } from '../electron/core/desktop/app-identity.js';
import { appLayout } from '../electron/core/desktop/app-layout.js';
import { checkLibsqlBinary } from './scripts/libsql-binary.js';
import { shipWindowsRuntime } from './scripts/windows-runtime.js';

const config: Configuration = {
  // productName, description and version come from package.json.
  appId,
  // Electron names the Linux window's app_id / WM_CLASS after desktopName; the .desktop file and
  // the XDG autostart entry carry the same name, so the desktop links all three.
  extraMetadata: { desktopName: `${appId}.desktop` },
  directories: { output: 'release', buildResources: 'build' },
  files: [
    'package.json',
    'dist/**',
    `${appLayout.trayIcons}/**`,
    appLayout.notificationIcon,
    // Intermediate objects of a native module built on install (keytar): only the .node file runs.
    '!node_modules/*/build/Release/{obj,obj.target,.deps}/**',
    // Type declarations and source maps of dependencies: a third of their size, never loaded.
    '!node_modules/**/*.{d.ts,d.mts,d.cts,map}',
  ],
  asar: true,
  // A native module or a helper program cannot be loaded or run from inside app.asar.
  asarUnpack: [
    // libsql's binary comes in a package of its own per platform: @libsql/<platform>/index.node.
    'node_modules/@libsql/*/*.node',
    'node_modules/keytar/**/*.node',
    // notify-send hands the notification server this path; the server cannot read inside app.asar.
    appLayout.notificationIcon,
  ],
  // Every native module is Node-API (libsql, keytar): the binaries npm installed load in Electron
  // as they are, which test/shell/native-modules.test.ts checks. A rebuild could only break them:
  // @electron/rebuild rebuilds keytar inside node_modules itself (then no longer the binary the
  // tests load), and fails where Electron's headers cannot be downloaded.
  npmRebuild: false,
  publish: null,
  afterPack: async (context) => {
    // So each platform's package is built on that platform: stop a build whose packed app lacks
    // the target's @libsql/<platform> binary (a Windows or Mac package built on Linux, an arm64
    // one on x64, or Windows on ARM, for which libsql 0.5.29 publishes none). First, as the
    // more precise message for a package made on another OS. See build/scripts/libsql-binary.ts.
    await checkLibsqlBinary(context);
    // libsql's Windows binary needs the Visual C++ runtime, which Windows lacks: read from the
    // native modules' import tables, copied beside them from build/win-runtime/<arch>/ (or the
    // build machine's System32); the build stops when one is missing (scripts/windows-runtime.ts).
    if (context.electronPlatformName !== 'win32') return;
    for (const dll of await shipWindowsRuntime(join(context.appOutDir, 'resources')))
      log.info({ file: dll.path, from: dll.from }, 'shipping a Visual C++ runtime DLL');
  },
  toolsets: {
    // The AppImage's static runtime (type2-runtime 20251108, FUSE 3 linked in): it starts where
    // libfuse2 is not installed, as on Ubuntu 22.04 and later. The default, "0.0.0", is the legacy
    // runtime that needs libfuse2 ("AppImages require FUSE to run"). electron-builder
    // (packages/app-builder-lib/src/targets/appimage/AppImageTarget.ts, build()) takes the static
    // runtime for any value but "0.0.0"; 26.17's schema accepts "1.0.2" and "1.0.3"
    // (packages/app-builder-lib/src/configuration.ts, ToolsetConfig.appimage), 1.0.3 being 1.0.2
    // with electron-builder issue #9598 fixed.
    appimage: '1.0.3',
  },

  win: {
    target: 'nsis',
    icon: 'build/icon.ico',
  },
  nsis: {
    // Installs for the current user without an administrator prompt. The Start-menu shortcut
    // carries the appId as its AppUserModelID, which Windows requires before it shows toasts.
    oneClick: true,
    perMachine: false,
    createStartMenuShortcut: true,
    createDesktopShortcut: false,
    shortcutName: 'Perch',
    // The uninstaller also removes the toast activator Electron registers (see the file).
    include: 'build/installer.nsh',
  },

  mac: {
    // For the Mac's own architecture: npm installs the native modules of the machine it runs on
    // (libsql's @libsql/darwin-arm64 or -x64), and nothing rebuilds them for another.
    target: ['dmg'],
    icon: 'build/icon.icns',
    category: 'public.app-category.productivity',
    // A menu-bar app: no Dock icon, no app menu.
    extendInfo: { LSUIElement: true },
    hardenedRuntime: true,
    // macOS shows notifications only from a code-signed app (UNUserNotificationCenter; Electron's
    // notification.md): a release stops with "skipped macOS application code signing" as an error
    // where electron-builder finds no signing identity, rather than ship a Perch that cannot notify.
    forceCodeSigning: process.env['PERCH_RELEASE'] === '1',
    entitlements: 'build/entitlements.mac.plist',
    entitlementsInherit: 'build/entitlements.mac.plist',
  },
  dmg: {
    contents: [
      { x: 130, y: 220 },
      { x: 410, y: 220, type: 'link', path: '/Applications' },
    ],
  },

  linux: {
    // The deb first: it installs an AppArmor profile (electron-builder's, for
    // /opt/Perch/perch) that lets Chromium's sandbox create the user namespaces Ubuntu 24.04
    // otherwise refuses (kernel.apparmor_restrict_unprivileged_userns=1). An AppImage has no
    // install step to add one; the README says how to add it by hand.
    //
    // The AppImage's desktop entry runs `AppRun %U`: electron-builder adds `--no-sandbox` to its
    // Exec only with the legacy toolset, and only when appImage.executableArgs is not set
    // (AppImageTarget.ts, desktopEntry: defaultArgs). AppRun itself, the same script for both
    // toolsets (generateAppRunScript in packages/app-builder-lib/src/targets/appimage/appImageUtil.ts),
    // still appends `--no-sandbox` when `unshare -Ur true` fails, as it does where AppArmor restricts
    // user namespaces; no option turns that off. With the AppImage's AppArmor profile (README,
    // Troubleshooting) the probe succeeds and Chromium's sandbox stays on.
    target: ['deb', 'AppImage'],
    // The profile and the postinst name the program by this name: fixed here, not derived.
    executableName: 'perch',
    icon: 'build/icons',
    category: 'Office',
    syncDesktopName: true,
    maintainer: 'Perch <perch@perchapp.org>',
    vendor: 'Perch',
    synopsis: 'Book rooms, desks and equipment from the tray',
    desktop: { entry: { Keywords: 'booking;reservation;room;desk;check-in;' } },
  },
  deb: {
    // No afterInstall, afterRemove or appArmorProfile: electron-builder's own scripts install
    // (and remove) its AppArmor profile; a script of ours would replace them and drop it.
    // electron-builder's defaults, plus notify-send, which desktop notifications run.
    depends: [
      'libgtk-3-0',
      'libnotify4',
      'libnss3',
      'libxss1',
      'libxtst6',
      'xdg-utils',
      'libatspi2.0-0',
      'libuuid1',
      'libsecret-1-0',
      'libnotify-bin',
    ],
    // The tray icon shows through an AppIndicator host on GNOME.
    recommends: ['libayatana-appindicator3-1 | libappindicator3-1'],
  },
};

export default config;
