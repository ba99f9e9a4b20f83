import type { EventPayloads } from '../bridge.js';

export interface CoreEvents {
  on<E extends keyof EventPayloads>(event: E, listener: (payload: EventPayloads[E]) => void): () => void;
  /** Calls every listener; one that throws is logged and does not keep the others from hearing. */
  emit<E extends keyof EventPayloads>(event: E, payload: EventPayloads[E]): void;
}

export function createCoreEvents(log: (message: string, error?: unknown) => void): CoreEvents {
  const listeners: { [E in keyof EventPayloads]: Set<(payload: EventPayloads[E]) => void> } = {
    stateChanged: new Set(),
    navigate: new Set(),
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
