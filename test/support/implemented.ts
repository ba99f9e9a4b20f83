import { operationNames, type OperationName } from '../../electron/api/operations.js';

/** The operations the reservation engine will add; everything else is served today. */
const pending = new Set<OperationName>([
]);

export const implementedOperations = operationNames.filter((name) => !pending.has(name));
