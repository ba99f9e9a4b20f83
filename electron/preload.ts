/**
 * Exposes exactly the bridge as `window.perch`: one function per command and a subscription per
 * event, all built from the lists in bridge/contract.ts. Neither `ipcRenderer` nor its event objects (which
 * carry `sender`, i.e. ipcRenderer itself) ever reach the page. Sandboxed preloads can only
 * require `electron`; the build bundles bridge/contract.ts in.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import {
  channelOf,
  commandNames,
  eventNames,
  type CommandName,
  type EventName,
  type EventPayloads,
  type PerchApi,
} from './bridge/contract.js';

const commands = Object.fromEntries(
  commandNames.map((name) => [name, (request?: unknown) => ipcRenderer.invoke(channelOf(name), request)]),
  // Built from the same keys as PerchApi's commands; each forwards its request unchanged.
) as { [C in CommandName]: PerchApi[C] };

function on<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void): () => void {
  // Only the bridge's events: a page must not subscribe to channels it was not given.
  if (!(eventNames as readonly string[]).includes(event)) throw new Error(`Unknown Perch event: ${String(event)}`);
  const channel = channelOf(event);
  const forward = (_event: IpcRendererEvent, payload: EventPayloads[E]) => listener(payload);
  ipcRenderer.on(channel, forward);
  return () => {
    ipcRenderer.removeListener(channel, forward);
  };
}

const api = { ...commands, on } satisfies PerchApi;

contextBridge.exposeInMainWorld('perch', api);
