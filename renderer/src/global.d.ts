import type { PerchApi } from '../../electron/bridge.js';

declare global {
  interface Window {
    /** Exposed by the preload (or bound by the e2e harness): the app's only way out. */
    perch: PerchApi;
  }
}

export {};
