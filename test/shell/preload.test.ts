import { beforeAll, describe, expect, it, vi } from 'vitest';
import { channelOf, commandNames, type PerchApi } from '../../electron/bridge/contract.js';

const electron = vi.hoisted(() => ({
  contextBridge: { exposeInMainWorld: vi.fn() },
  ipcRenderer: { invoke: vi.fn(async (channel: string, request: unknown) => ({ channel, request })), on: vi.fn(), removeListener: vi.fn() },
}));
vi.mock('electron', () => electron);

let api: PerchApi;
beforeAll(async () => {
  await import('../../electron/preload.js');
  expect(electron.contextBridge.exposeInMainWorld).toHaveBeenCalledTimes(1);
  const [key, exposed] = electron.contextBridge.exposeInMainWorld.mock.calls[0] as [string, PerchApi];
  expect(key).toBe('perch');
  api = exposed;
});

describe('preload', () => {
  it('exposes exactly one function per command plus on, and nothing else', () => {
    expect(Object.keys(api).sort()).toEqual([...commandNames, 'on'].sort());
    for (const value of Object.values(api)) {
      expect(typeof value).toBe('function');
      expect(value).not.toBe(electron.ipcRenderer);
    }
    expect(Object.values(api)).not.toContain(electron.ipcRenderer.invoke);
  });

  it.each(commandNames)('%s invokes its own channel with the request as given', async (name) => {
    const request = { marker: name };
    const call = api[name] as (request?: unknown) => Promise<unknown>;
    await expect(call(request)).resolves.toEqual({ channel: channelOf(name), request });
    expect(electron.ipcRenderer.invoke).toHaveBeenLastCalledWith(channelOf(name), request);
  });

  it('on: subscribes to the event channel, hands the listener the payload only, and unsubscribes', () => {
    const listener = vi.fn();
    const unsubscribe = api.on('stateChanged', listener);
    expect(electron.ipcRenderer.on).toHaveBeenCalledTimes(1);
    const [channel, forward] = electron.ipcRenderer.on.mock.calls[0] as [string, (event: unknown, payload: unknown) => void];
    expect(channel).toBe('perch:stateChanged');
    forward({ sender: electron.ipcRenderer }, { phase: 'ready' });
    expect(listener).toHaveBeenCalledExactlyOnceWith({ phase: 'ready' });
    unsubscribe();
    expect(electron.ipcRenderer.removeListener).toHaveBeenCalledExactlyOnceWith('perch:stateChanged', forward);
  });

  it('on: refuses events the bridge does not declare', () => {
    const on = api.on as (event: string, listener: () => void) => () => void;
    expect(() => on('perch:internal', () => {})).toThrow('Unknown Perch event: perch:internal');
    expect(() => on('getState', () => {})).toThrow('Unknown Perch event');
  });
});
