import { describe, expect, it } from 'vitest';
import { decode } from '../../electron/api/decode.js';
import { operations } from '../../electron/api/operations.js';
import { everyAttribute, fullBodyOf } from '../../electron/core/commands/reservation-body.js';
import type { WireAttribute, WireReservation } from '../../electron/api/wire.js';
import { readRecording } from '../api/recorder/recording.js';

// Release 2.8.6.1 answers a reservation body that leaves out one of the server's reservation
// attributes with a 500 (server-facts D): every body carries them all, from real servers' reads.

function decoded<T>(schema: Parameters<typeof decode>[0], name: string): T {
  const result = decode(schema, readRecording('as-installed', name).body);
  if (!result.ok) throw new Error(`${name}: ${result.error}`);
  return result.value as T;
}

const reservation = decoded<WireReservation>(operations.getReservation.response, 'getReservation-single');
const recordedAttributes = decoded<{ attributes: WireAttribute[] }>(
  operations.getCategoryAttributes.response,
  'getCategoryAttributes-reservation',
).attributes;
/** An attribute only administrators see and set, which a normal user's GetReservation leaves out. */
const adminOnly: WireAttribute = { ...recordedAttributes[0]!, id: 3, label: 'Invoice number', adminOnly: true };

describe('the reservation attributes a body carries', () => {
  it('an update of a recorded reservation whose attributes hold nothing sends each as ""', () => {
    expect(reservation.customAttributes.map((attribute) => attribute.value)).toEqual([null, null]);
    expect(fullBodyOf(reservation, undefined, recordedAttributes, false).customAttributes).toEqual([
      { attributeId: 1, attributeValue: '' },
      { attributeId: 2, attributeValue: '' },
    ]);
  });

  it('keeps what the reservation holds, and sends an attribute defined since the list was read', () => {
    const held: WireReservation = {
      ...reservation,
      customAttributes: [
        { ...reservation.customAttributes[0]!, value: '42' },
        { ...reservation.customAttributes[1]!, id: 9 },
      ],
    };
    expect(fullBodyOf(held, undefined, recordedAttributes, false).customAttributes).toEqual([
      { attributeId: 1, attributeValue: '42' },
      { attributeId: 2, attributeValue: '' },
      { attributeId: 9, attributeValue: '' },
    ]);
  });

  it('leaves out an admin-only attribute a normal user’s read did not show ("" would clear its value), never for an administrator', () => {
    const attributes = [...recordedAttributes, adminOnly];
    expect(fullBodyOf(reservation, undefined, attributes, false).customAttributes!.map((attribute) => attribute.attributeId)).toEqual([
      1, 2,
    ]);
    expect(fullBodyOf(reservation, undefined, attributes, true).customAttributes).toContainEqual({ attributeId: 3, attributeValue: '' });
  });

  it('a new booking carries every attribute in the server’s order, the values given kept', () => {
    expect(everyAttribute([{ attributeId: 2, attributeValue: 'Board' }], [...recordedAttributes, adminOnly])).toEqual([
      { attributeId: 1, attributeValue: '' },
      { attributeId: 2, attributeValue: 'Board' },
      { attributeId: 3, attributeValue: '' },
    ]);
  });
});
