/**
 * Who the app is to the operating system. The installers register this id (electron-builder's
 * `appId`, Windows' AppUserModelID) and notifications must carry the same one, or Windows drops them.
 */
export const appId = 'org.perchapp.perch';

/**
 * Windows' toast activator of the installed app: the COM class Windows starts when a toast is
 * clicked after Perch quit. Electron writes it into the Start-menu shortcut and registers it under
 * HKCU\Software\Classes\CLSID\{…} the first time Perch shows a toast; left to itself it picks a
 * random one, which the uninstaller could not know. build/installer.nsh removes this one.
 */
export const toastActivatorClsid = '{E9B42FAF-8F17-4F56-8855-0D8BB219C01C}';

/** What a run of Perch tells the OS it is. */
export interface RunIdentity {
  appId: string;
  toastActivatorClsid: string;
}

/**
 * A run from source (`npm start`, unpackaged) is another app to the OS. Windows ties an
 * AppUserModelID and its toast activator to the program that registered them last: under the
 * installed app's id, a toast clicked later would start bare electron.exe (Electron's default
 * app) instead of Perch. On Linux a notification names the desktop entry the notification server
 * files it under and may start when it is clicked: the installed app's is not the run's.
 */
export function runIdentity(packaged: boolean): RunIdentity {
  if (packaged) return { appId, toastActivatorClsid };
  return { appId: `${appId}.dev`, toastActivatorClsid: '{21BFD22D-BF54-49D8-A344-C90DC6EB8860}' };
}
