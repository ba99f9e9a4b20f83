import { PermissionType } from '../../electron/service/tables.js';
import type { CoreHarness } from '../support/core-harness.js';
import { insertResource } from '../support/fixtures.js';

/** The benchmarks' organisation: the demo one grown to this many resources with desks on the lab schedule. */
export const totalResources = 500;

/**
 * Adds desks on the round-the-clock lab schedule until the organisation has `totalResources`, each
 * bookable by the staff group; the first needs check-in and releases after 15 minutes. Returns their ids.
 */
export async function addBenchDesks(harness: CoreHarness): Promise<number[]> {
  const { org, service } = harness;
  const demoResources = Object.keys(org.resources).length;
  return service.store.transaction().execute(async (trx) => {
    const ids: number[] = [];
    for (let index = 0; index < totalResources - demoResources; index++) {
      const checkIn = index === 0 ? { requiresCheckIn: 1, autoReleaseMinutes: 15 } : {};
      ids.push(
        await insertResource(trx, { name: `Bench desk ${index + 1}`, scheduleId: org.schedules.lab, sortOrder: 100 + index, ...checkIn }),
      );
    }
    await trx
      .insertInto('groupResourcePermissions')
      .values(ids.map((resourceId) => ({ groupId: org.groups.staff, resourceId, permissionType: PermissionType.full })))
      .execute();
    await trx
      .insertInto('resourceGroupMembers')
      .values(ids.map((resourceId) => ({ groupId: org.resourceGroups.lab, resourceId })))
      .execute();
    return ids;
  });
}
