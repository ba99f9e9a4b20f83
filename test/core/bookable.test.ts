import { describe, expect, it } from 'vitest';
import { decode } from '../../electron/api/decode.js';
import { User } from '../../electron/api/schemas/users.js';
import { Role } from '../../electron/api/schemas/groups.js';
import { bookableTest, readBookableResourceIds } from '../../electron/core/session/bookable.js';

/** A GetUser answer as real servers write it: ids as strings or numbers, members left out. */
function user(members: Record<string, unknown>) {
  const decoded = decode(User, { id: '7', timezone: 'Europe/London', ...members });
  if (!decoded.ok) throw new Error(`unreadable at ${decoded.error}`);
  return decoded.value;
}

const grants = (byGroup: Record<number, string[] | null>) => async (groupId: number) => byGroup[groupId] ?? null;

describe('the resources a user may book', () => {
  it('are the user’s own grants and those of their groups, whatever the ids are written as', async () => {
    const answer = user({
      permissions: [{ id: '3', name: '' }, { id: 5, name: 'Severn' }, { id: 'x' }],
      groups: [{ id: '2', name: 'Staff', roleIds: [] }],
    });
    const ids = await readBookableResourceIds(
      answer,
      grants({ 2: ['http://host/Web/Services/index.php/Resources/12', 'https://host/api/Resources/4/'] }),
    );
    expect(ids).toEqual([3, 4, 5, 12]);
  });

  it('are not known when the server leaves the permissions out or sends null, or a group cannot be read', async () => {
    expect(await readBookableResourceIds(user({ groups: [] }), grants({}))).toBeNull();
    expect(await readBookableResourceIds(user({ permissions: null, groups: [] }), grants({}))).toBeNull();
    expect(
      await readBookableResourceIds(user({ permissions: [], groups: [{ id: 2, name: 'Staff', roleIds: [] }] }), grants({ 2: null })),
    ).toBeNull();
  });

  it('are not known for a resource or schedule administrator, who books what they administer', async () => {
    const administrator = user({ permissions: [{ id: 3 }], groups: [{ id: 2, name: 'Desks', roleIds: [Role.resourceAdministrator] }] });
    expect(await readBookableResourceIds(administrator, grants({ 2: [] }))).toBeNull();
  });

  it('hold nothing back when not known, nor from an application administrator', () => {
    expect(bookableTest({ isAdmin: false, bookableResourceIds: [3] })(4)).toBe(false);
    expect(bookableTest({ isAdmin: false, bookableResourceIds: [3] })(3)).toBe(true);
    expect(bookableTest({ isAdmin: false, bookableResourceIds: null })(4)).toBe(true);
    expect(bookableTest({ isAdmin: false })(4)).toBe(true);
    expect(bookableTest({ isAdmin: true, bookableResourceIds: [3] })(4)).toBe(true);
  });
});
