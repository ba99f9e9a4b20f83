/**
 * macOS release builds are signed: macOS shows no notifications from an unsigned app, and
 * electron-builder leaves one unsigned, with a log line only, where it finds no signing identity.
 */
import { validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import { MacTargetHelper } from 'app-builder-lib/out/mac/MacTargetHelper.js';
import { PlatformPackager } from 'app-builder-lib';
import { DebugLogger } from 'builder-util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Configuration, MacConfiguration } from 'electron-builder';

/** The configuration as electron-builder loads it with `release` in PERCH_RELEASE (or none). */
async function configurationWith(release: string | undefined): Promise<Configuration> {
  vi.resetModules();
  vi.stubEnv('PERCH_RELEASE', release);
  return (await import('../../build/electron-builder.config.js')).default;
}

/**
 * electron-builder's macOS signing step with no identity to sign with, on a packager for `config`:
 * the option read by electron-builder's own getter (the mac section's, else the top level's).
 */
function signingWithoutIdentity(config: Configuration) {
  const packager = Object.create(PlatformPackager.prototype, {
    config: { value: config },
    platformSpecificBuildOptions: { value: config.mac ?? {} },
  }) as PlatformPackager<MacConfiguration>;
  return () => new MacTargetHelper(packager as never).handleNullIdentity();
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('macOS code signing', () => {
  it('a release (PERCH_RELEASE=1) fails to build where there is no identity to sign with', async () => {
    const config = await configurationWith('1');
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    expect(config.mac?.forceCodeSigning).toBe(true);
    expect(signingWithoutIdentity(config)).toThrow(/forceCodeSigning/);
  });

  it.each([undefined, '', '0'])('any other build (PERCH_RELEASE=%s) may come out unsigned, for trying Perch out', async (release) => {
    const config = await configurationWith(release);
    expect(config.mac?.forceCodeSigning).toBe(false);
    expect(signingWithoutIdentity(config)()).toBe(false);
  });
});
