import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notFoundBody, unauthenticatedBody } from '../support/answers.js';
import { insertAccessory, insertResource, insertSchedule } from '../support/fixtures.js';
import { createNormalUser, startTestService, type Session, type TestService } from '../support/service.js';

let service: TestService;
let user: Session;
let projector: number;
let chairs: number;
let cables: number;
let roomA: number;
let roomB: number;

beforeAll(async () => {
  service = await startTestService();
  user = await createNormalUser(service, 'borrower');
  const scheduleId = await insertSchedule(service.store);
  roomA = await insertResource(service.store, { name: 'Room A', scheduleId });
  roomB = await insertResource(service.store, { name: 'Room B', scheduleId });
  projector = await insertAccessory(service.store, {
    name: 'Projector',
    quantityAvailable: 2,
    creditCount: 3,
    peakCreditCount: 5,
    creditApplicability: 2,
    creditsChargedAllSlots: 1,
  });
  chairs = await insertAccessory(service.store, { name: 'Chairs', quantityAvailable: 0 });
  cables = await insertAccessory(service.store, { name: 'Cables', quantityAvailable: 10 });
  await service.store
    .insertInto('accessoryResources')
    .values([
      { accessoryId: projector, resourceId: roomB, minQuantity: 1, maxQuantity: 2 },
      { accessoryId: projector, resourceId: roomA, minQuantity: 0, maxQuantity: 0 },
      { accessoryId: cables, resourceId: roomA, minQuantity: 0, maxQuantity: 4 },
    ])
    .execute();
});
afterAll(() => service.dispose());

const link = (path: string, title: string) => ({ href: `${service.apiRoot}${path}`, title });

describe('GetAllAccessories', () => {
  it('lists every accessory by name, counting the resources it belongs to', async () => {
    const answer = await service.call('GET', '/Accessories/', { session: user });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      accessories: [
        {
          id: cables,
          name: 'Cables',
          quantityAvailable: 10,
          associatedResourceCount: 1,
          creditCount: 0,
          peakCreditCount: 0,
          creditApplicability: 1,
          creditsChargedAllSlots: false,
          links: [link(`/Accessories/${cables}`, 'get_accessory')],
          message: null,
        },
        {
          id: chairs,
          name: 'Chairs',
          quantityAvailable: 0,
          associatedResourceCount: 0,
          creditCount: 0,
          peakCreditCount: 0,
          creditApplicability: 1,
          creditsChargedAllSlots: false,
          links: [link(`/Accessories/${chairs}`, 'get_accessory')],
          message: null,
        },
        {
          id: projector,
          name: 'Projector',
          quantityAvailable: 2,
          associatedResourceCount: 2,
          creditCount: 3,
          peakCreditCount: 5,
          creditApplicability: 2,
          creditsChargedAllSlots: true,
          links: [link(`/Accessories/${projector}`, 'get_accessory')],
          message: null,
        },
      ],
      links: [],
      message: null,
    });
  });

  it('answers 401 without a session', async () => {
    const answer = await service.call('GET', '/Accessories/');
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(unauthenticatedBody);
  });
});

describe('GetAccessory', () => {
  it('shows the resources it belongs to with their quantities', async () => {
    const answer = await service.call('GET', `/Accessories/${projector}`, { session: user });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      id: projector,
      name: 'Projector',
      quantityAvailable: 2,
      creditCount: 3,
      peakCreditCount: 5,
      creditApplicability: 2,
      associatedResources: [
        { resourceId: roomA, minQuantity: 0, maxQuantity: 0, links: [link(`/Resources/${roomA}`, 'get_resource')], message: null },
        { resourceId: roomB, minQuantity: 1, maxQuantity: 2, links: [link(`/Resources/${roomB}`, 'get_resource')], message: null },
      ],
      links: [],
      message: null,
    });
  });

  it('gives an empty list for an accessory of no resource', async () => {
    const answer = await service.call('GET', `/Accessories/${chairs}`, { session: service.admin });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: chairs, quantityAvailable: 0, associatedResources: [] });
  });

  it.each([
    ['an unknown id', '/Accessories/9999'],
    ['a non-numeric id', '/Accessories/projector'],
  ])('answers 404 for %s', async (_case, path) => {
    const answer = await service.call('GET', path, { session: user });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(notFoundBody);
  });

  it('answers 401 without a session', async () => {
    const answer = await service.call('GET', `/Accessories/${projector}`);
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(unauthenticatedBody);
  });
});
