import { DateTime } from 'luxon';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ResourceFace } from '../../electron/bridge/contract.js';
import { resourceColor, resourceFaces, resourceKind, resourceTypeNames } from '../../electron/core/views/resource-kind.js';
import type { WireGroupTree, WireResource } from '../../electron/api/wire.js';
import { demoSignIn, startCoreHarness, type CoreHarness, type CoreUnderTest } from '../support/core-harness.js';

// Only the members the kind is read from; the rest of the wire object does not matter here.
const resource = (resourceId: number, name: string, patch: Partial<WireResource> = {}) =>
  ({ resourceId, name, typeId: null, maxParticipants: null, color: '', ...patch }) as WireResource;

const types = [
  { id: 1, description: 'Meeting room' },
  { id: 2, description: 'Hot desks' },
  { id: 3, description: 'Equipment' },
  { id: 4, description: 'Category B' },
];
const typeNames = resourceTypeNames(types);

describe('what kind of resource it is', () => {
  it('goes by its resource type first, whatever its name says', () => {
    expect(resourceKind(resource(1, 'Thames', { typeId: 1 }), typeNames)).toBe('room');
    expect(resourceKind(resource(2, 'Window seat', { typeId: 2 }), typeNames)).toBe('desk');
    expect(resourceKind(resource(3, 'Loan kit', { typeId: 3 }), typeNames)).toBe('equipment');
    expect(resourceKind(resource(4, 'Projector room', { typeId: 2 }), typeNames)).toBe('desk');
  });

  it('reads its groups, name and size when the type tells nothing or the server has no types (2.9)', () => {
    const none = resourceTypeNames([]);
    expect(resourceKind(resource(5, 'Seat 4', { typeId: 4 }), typeNames, ['Floor 2 desks'])).toBe('desk');
    expect(resourceKind(resource(6, 'Hot desk D1', { typeId: 9 }), none)).toBe('desk');
    expect(resourceKind(resource(7, 'Projector A'), none)).toBe('equipment');
    expect(resourceKind(resource(8, 'Phone booth'), none)).toBe('room');
    expect(resourceKind(resource(9, 'Thames', { maxParticipants: 8 }), none)).toBe('room');
  });

  it("is 'other' when nothing tells", () => {
    expect(resourceKind(resource(10, 'Thames'), resourceTypeNames([]))).toBe('other');
    expect(resourceKind(resource(11, 'Thames', { typeId: 4, maxParticipants: 1 }), typeNames)).toBe('other');
  });
});

describe("the server's colour for a resource", () => {
  it('is kept as a colour the popover can paint, with or without its #', () => {
    expect(resourceColor('#2E7D32')).toBe('#2e7d32');
    expect(resourceColor(' 2e7d32 ')).toBe('#2e7d32');
    expect(resourceColor('#abc')).toBe('#abc');
  });

  it('is none when the server set none or something that is not a colour', () => {
    for (const unset of ['', '   ', null, undefined, 'green', '#12345', 'url(x)', '#2e7d32;background:red'])
      expect(resourceColor(unset)).toBeNull();
  });
});

describe('the faces of a resource list', () => {
  const groups = {
    groups: [{ id: 5, name: 'Desks', type: 'group', children: [{ type: 'resource', resource_id: 2 }] }],
  } as unknown as WireGroupTree;

  it('gives each resource its kind and colour by id, its groups read too', () => {
    const faces = resourceFaces([resource(1, 'Thames', { typeId: 1, color: '#1565C0' }), resource(2, 'D4')], types, groups);
    expect(faces.get(1)).toEqual({ kind: 'room', color: '#1565c0' });
    expect(faces.get(2)).toEqual({ kind: 'desk', color: null });
  });

  it('reads the same lists once, and new lists again', () => {
    const resources = [resource(1, 'Thames', { typeId: 1 })];
    const first = resourceFaces(resources, types, null);
    expect(resourceFaces(resources, types, null)).toBe(first);
    expect(resourceFaces(resources, [], null).get(1)).toEqual({ kind: 'other', color: null });
  });
});

describe('the faces the core shows, against the local service', () => {
  let harness: CoreHarness;
  const running: CoreUnderTest[] = [];

  beforeAll(async () => {
    // A Tuesday morning: the head office is open, and the hub always is.
    harness = await startCoreHarness(DateTime.fromISO('2030-03-12T08:50:00Z', { zone: 'utc' }));
  });
  afterAll(() => harness.dispose());
  afterEach(async () => {
    while (running.length > 0) await running.pop()!.core.stop();
    harness.intercept(null);
  });

  async function signedIn(): Promise<CoreUnderTest> {
    const created = harness.newCore();
    running.push(created);
    await created.core.start();
    const result = await created.core.handlers.signIn(demoSignIn('user'));
    if (!result.ok) throw new Error(result.error.message);
    await harness.idle();
    return created;
  }

  async function facesByName(core: CoreUnderTest['core']): Promise<Map<string, ResourceFace>> {
    const listed = await core.handlers.listResources();
    if (!listed.ok) throw new Error(listed.error.message);
    return new Map(listed.value.map((resource) => [resource.name, resource.face]));
  }

  it('gives the Book form, Free now and My reservations each resource by its type, with its colour', async () => {
    const { core } = await signedIn();
    const faces = await facesByName(core);
    expect(faces.get('Thames (1.01)')).toEqual({ kind: 'room', color: '#2e7d32' });
    expect(faces.get('Hot desk D1')).toEqual({ kind: 'desk', color: '#5d4037' });
    expect(faces.get('Loan laptop')).toEqual({ kind: 'equipment', color: '#455a64' });
    expect(faces.get('Loan headset')).toEqual({ kind: 'equipment', color: '#546e7a' });
    expect(harness.requests.some((request) => request.path === '/Resources/Types')).toBe(true);

    const snapshot = core.snapshot();
    expect(snapshot.freeNow.find((row) => row.name === 'Hub desk H1')?.face).toEqual({ kind: 'desk', color: '#4e342e' });
    const booked = await core.handlers.book({
      resourceId: harness.org.resources.focusBooth,
      start: '2030-03-12T09:00:00Z',
      durationMinutes: 30,
      title: '',
    });
    if (!booked.ok) throw new Error(booked.error.message);
    await harness.idle();
    expect(core.snapshot().reservations.find((reservation) => reservation.resourceName === 'Focus booth')?.resourceFace).toEqual({
      kind: 'room',
      color: '#283593',
    });
  });

  it('reads the names and sizes on a server without resource types (2.9 answers 404)', async () => {
    harness.intercept(({ path }) => (path === '/Resources/Types' ? new Response('Not found', { status: 404 }) : null));
    const { core } = await signedIn();
    const faces = await facesByName(core);
    expect(faces.get('Thames (1.01)')?.kind).toBe('room');
    expect(faces.get('Hot desk D1')?.kind).toBe('desk');
    expect(faces.get('Loan laptop')?.kind).toBe('equipment');
    expect(faces.get('Focus booth')?.kind).toBe('room');
    // Its name says nothing; its group "Equipment" does.
    expect(faces.get('Loan headset')).toEqual({ kind: 'equipment', color: '#546e7a' });
  });
});
