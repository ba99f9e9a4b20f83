import type { PerchApi } from '$bridge/contract.js';

declare global {
  interface Window {
    /** Exposed by the preload (or bound by the e2e harness): the app's only way out. */
    perch: PerchApi;
  }
}

export {};
