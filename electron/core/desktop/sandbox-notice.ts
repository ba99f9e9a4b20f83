/**
 * What the log says when Chromium's sandbox is off. electron-builder's AppRun starts an AppImage
 * with `--no-sandbox` where the system refuses user namespaces (Ubuntu 24.04 without an AppArmor
 * profile: app-builder-lib's appImageUtil.ts, generateAppRunScript), and no build setting turns
 * that off; the README's Troubleshooting gives the profile that keeps the sandbox on.
 */
export function sandboxOffNotice(run: { noSandbox: boolean; appImage: string | undefined }): string | null {
  if (!run.noSandbox) return null;
  if (run.appImage !== undefined && run.appImage !== '') {
    return (
      "Chromium's sandbox is off: the AppImage's launcher started Perch with --no-sandbox because this system refuses " +
      'user namespaces to programs without an AppArmor profile. Install the deb, or give the AppImage a profile ' +
      '(README, Troubleshooting: "The AppImage runs without Chromium\'s sandbox").'
    );
  }
  return "Chromium's sandbox is off: Perch was started with --no-sandbox. Start it without that switch.";
}
