import type { EventPayloads } from '../bridge/contract.js';

/** What the core tells the shell alone, never the page: the bridge's events plus these. */
export interface CoreEventPayloads extends EventPayloads {
  /** The page asked to be hidden (Escape). */
  hidePopover: null;
  /** A page of the signed-in server's website to open in the user's browser. */
  openExternal: string;
  /** Text for the system clipboard. */
  copyText: string;
}

export interface CoreEvents {
  on<E extends keyof CoreEventPayloads>(event: E, listener: (payload: CoreEventPayloads[E]) => void): () => void;
  /** Calls every listener; one that throws is logged and does not keep the others from hearing. */
  emit<E extends keyof CoreEventPayloads>(event: E, payload: CoreEventPayloads[E]): void;
}

export function createCoreEvents(log: (message: string, error?: unknown) => void): CoreEvents {
  const listeners: { [E in keyof CoreEventPayloads]: Set<(payload: CoreEventPayloads[E]) => void> } = {
    stateChanged: new Set(),
    navigate: new Set(),
    hidePopover: new Set(),
    openExternal: new Set(),
    copyText: new Set(),
  };
  return {
    on(event, listener) {
      listeners[event].add(listener);
      return () => {
        listeners[event].delete(listener);
      };
    },
    emit(event, payload) {
      for (const listener of [...listeners[event]]) {
        try {
          listener(payload);
        } catch (error) {
          log(`a ${event} listener failed`, error);
        }
      }
    },
  };
}
