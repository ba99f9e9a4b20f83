import { describe, expect, it } from 'vitest';
import { operationNames, operations, pathParameterNames } from '../../electron/api/operations.js';
import { handlers } from '../../electron/service/handlers/index.js';

const countsByGroup = {
  Accessories: 2,
  Accounts: 4,
  Attributes: 5,
  Authentication: 2,
  Groups: 8,
  Reservations: 8,
  Resources: 11,
  Schedules: 3,
  Users: 6,
};

describe('the operation table', () => {
  it('holds the 49 operations of the spec, grouped as the spec groups them', () => {
    expect(operationNames).toHaveLength(49);
    const counts: Record<string, number> = {};
    for (const name of operationNames) counts[operations[name].group] = (counts[operations[name].group] ?? 0) + 1;
    expect(counts).toEqual(countsByGroup);
  });

  it('has one route per method and path', () => {
    const routes = operationNames.map((name) => `${operations[name].method} ${operations[name].path}`);
    expect(new Set(routes).size).toBe(routes.length);
  });

  it('writes the create routes with their trailing slash and Authenticate without one', () => {
    const creates = operationNames.filter((name) => name.startsWith('create'));
    expect(creates).toHaveLength(6);
    for (const name of creates) expect(operations[name].path).toMatch(/\/$/);
    expect(operations.authenticate.path).toBe('/Authentication/Authenticate');
  });

  it('answers creates with 201 and everything else with 200', () => {
    for (const name of operationNames) {
      expect(operations[name].successStatus, name).toBe(name.startsWith('create') ? 201 : 200);
    }
  });

  it('has a schema for every path parameter', () => {
    for (const name of operationNames) expect(() => pathParameterNames(operations[name].path)).not.toThrow();
  });

  it('marks exactly the spec’s anonymous operations as needing no session', () => {
    const anonymous = operationNames.filter((name) => operations[name].auth === 'none');
    expect(anonymous.sort()).toEqual(['authenticate', 'createAccount', 'getStatuses', 'signOut']);
  });
});

describe('the local service', () => {
  it('routes every operation of the table', () => {
    expect(Object.keys(handlers).sort()).toEqual([...operationNames].sort());
  });
});
