import { describe, expect, it } from 'vitest';
import { sandboxOffNotice } from '../../electron/core/desktop/sandbox-notice.js';

describe('the notice that the sandbox is off', () => {
  it('says nothing while the sandbox is on, AppImage or not', () => {
    expect(sandboxOffNotice({ noSandbox: false, appImage: '/home/ada/Applications/Perch-1.2.0.AppImage' })).toBeNull();
    expect(sandboxOffNotice({ noSandbox: false, appImage: undefined })).toBeNull();
  });

  it("names the AppImage's launcher and the two remedies when an AppImage runs without it", () => {
    const notice = sandboxOffNotice({ noSandbox: true, appImage: '/home/ada/Applications/Perch-1.2.0.AppImage' });
    expect(notice).toMatch(/launcher started Perch with --no-sandbox/);
    expect(notice).toMatch(/Install the deb, or give the AppImage a profile/);
  });

  it('asks to start without the switch when someone else passed it', () => {
    expect(sandboxOffNotice({ noSandbox: true, appImage: '' })).toBe(
      "Chromium's sandbox is off: Perch was started with --no-sandbox. Start it without that switch.",
    );
  });
});
