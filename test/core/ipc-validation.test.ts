import { describe, expect, it, vi } from 'vitest';
import { commandNames, commandRequests, type CommandHandlers, type CommandName } from '../../electron/bridge/contract.js';
import { dispatchCommand, isCommandName, validateCommandRequest } from '../../electron/core/desktop/ipc-validation.js';

const validRequests: { [C in CommandName]: unknown } = {
  getState: undefined,
  refresh: undefined,
  reloadEverything: undefined,
  signIn: { server: { kind: 'remote', url: 'https://booked.example.org' }, username: 'ada', password: 'pw', staySignedIn: true },
  tryThisComputer: undefined,
  signOut: undefined,
  hidePopover: undefined,
  freeAt: { start: '2025-03-10T14:00:00+01:00', durationMinutes: 60 },
  readPhrase: { text: 'desk tomorrow 14:00 for 90 min' },
  bookPhrase: { text: 'desk tomorrow 14:00 for 90 min', title: '' },
  openBookForm: { resourceId: 3, start: '2025-03-10T10:00:00+01:00', durationMinutes: 30 },
  book: { resourceId: 3, start: '2025-03-10T10:00:00+01:00', durationMinutes: 30, title: 'Focus' },
  checkIn: { referenceNumber: 'abc' },
  checkOut: { referenceNumber: 'abc' },
  cancel: { referenceNumber: 'abc', scope: 'this' },
  release: { referenceNumber: 'abc' },
  extend: { referenceNumber: 'abc', minutes: 15 },
  offerExtension: { referenceNumber: 'abc' },
  retitle: { referenceNumber: 'abc', title: 'Planning' },
  move: { referenceNumber: 'abc', start: '2025-03-10T14:00:00+01:00', end: '2025-03-10T15:00:00+01:00', resourceId: 4 },
  getRecurrence: { referenceNumber: 'abc' },
  getReservationDetails: { referenceNumber: 'abc' },
  openOnServer: { referenceNumber: 'abc' },
  copyText: { text: 'Design review' },
  listSchedules: undefined,
  listResources: undefined,
  listSlots: { resourceId: 1, date: '2025-03-10' },
  listReservationAttributes: undefined,
  getSettings: undefined,
  setSettings: { pollIntervalSeconds: 120 },
};

describe('validateCommandRequest', () => {
  it.each(commandNames)('accepts a valid %s request', (name) => {
    expect(validateCommandRequest(name, validRequests[name])).toEqual({ ok: true, value: validRequests[name] });
  });

  it.each(commandNames.filter((name) => commandRequests[name] === null))(
    '%s takes nothing: null is nothing, anything else is refused',
    (name) => {
      expect(validateCommandRequest(name, null)).toEqual({ ok: true, value: undefined });
      expect(validateCommandRequest(name, { sneaky: true })).toEqual({
        ok: false,
        error: { kind: 'invalidInput', message: `The request for ${name} is not valid.`, errors: ['This command takes no request.'] },
      });
    },
  );

  it.each([
    ['book', { resourceId: '3', start: '2025-03-10T10:00:00+01:00', title: '' }, '/resourceId: Expected integer'],
    ['book', { resourceId: 3, start: '', title: '' }, '/start: Expected string length greater or equal to 1'],
    ['book', { resourceId: 0, start: 'x', title: '' }, '/resourceId: Expected integer to be greater or equal to 1'],
    ['checkIn', {}, '/referenceNumber: Expected required property'],
    ['checkIn', 'abc', '/: Expected object'],
    ['cancel', { referenceNumber: 'abc', scope: 'everything' }, '/scope: Expected union value'],
    ['extend', { referenceNumber: 'abc', minutes: 1.5 }, '/minutes: Expected integer'],
    ['listSlots', { resourceId: 1, date: '10/03/2025' }, '/date: Expected string to match'],
    ['signIn', { server: { kind: 'remote' }, username: 'a', password: 'b', staySignedIn: false }, '/server: Expected union value'],
    ['setSettings', { pollIntervalSeconds: 1 }, '/pollIntervalSeconds: Expected integer to be greater or equal to 15'],
    ['setSettings', { theme: 'neon' }, '/theme: Expected union value'],
  ] as const)('refuses a bad %s request: %j', (name, request, firstError) => {
    const result = validateCommandRequest(name, request);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.kind).toBe('invalidInput');
    expect(result.error.message).toBe(
      name === 'setSettings' ? 'The settings change is not valid.' : `The request for ${name} is not valid.`,
    );
    expect(result.error.errors?.[0]).toMatch(new RegExp(`^${firstError.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`));
  });

  it('names a refused setting by its key and says what it must be, so the settings form can label it', () => {
    const result = validateCommandRequest('setSettings', { pollIntervalSeconds: 5, theme: 'neon' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.fields).toEqual([
      { field: 'pollIntervalSeconds', problem: 'must be a whole number from 15 to 3600' },
      { field: 'theme', problem: 'must be one of system, light, dark' },
    ]);
  });

  it("drops members the schema does not declare, without touching the caller's object", () => {
    const request = JSON.parse('{"referenceNumber":"abc","__proto__":{"polluted":true},"extra":1}') as Record<string, unknown>;
    const result = validateCommandRequest('checkIn', request);
    expect(result).toEqual({ ok: true, value: { referenceNumber: 'abc' } });
    expect(result.ok && Object.keys(result.value)).toEqual(['referenceNumber']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(request['extra']).toBe(1);
  });

  it('reports at most ten problems', () => {
    const result = validateCommandRequest('setSettings', { favouriteResourceIds: Array.from({ length: 25 }, () => 'x') });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.errors?.length).toBe(10);
  });
});

describe('isCommandName', () => {
  it.each([...commandNames])('%s is a command', (name) => expect(isCommandName(name)).toBe(true));
  it.each(['toString', '__proto__', 'constructor', 'on', 'stateChanged', '', 42, null])('%j is not', (name) => {
    expect(isCommandName(name)).toBe(false);
  });
});

describe('dispatchCommand', () => {
  function handlers() {
    return Object.fromEntries(commandNames.map((name) => [name, vi.fn(async () => ({ ok: true, value: name }))])) as unknown as {
      [C in CommandName]: CommandHandlers[C] & ReturnType<typeof vi.fn>;
    };
  }

  it('runs the command with the validated request', async () => {
    const core = handlers();
    await expect(dispatchCommand(core, 'extend', { referenceNumber: 'abc', minutes: 15, junk: 1 })).resolves.toEqual({
      ok: true,
      value: 'extend',
    });
    expect(core.extend).toHaveBeenCalledExactlyOnceWith({ referenceNumber: 'abc', minutes: 15 });
  });

  it('answers a bad request with invalidInput and never calls the core', async () => {
    const core = handlers();
    const result = await dispatchCommand(core, 'book', { resourceId: -1 });
    expect(result).toMatchObject({ ok: false, error: { kind: 'invalidInput', message: 'The request for book is not valid.' } });
    for (const name of commandNames) expect(core[name]).not.toHaveBeenCalled();
  });
});
