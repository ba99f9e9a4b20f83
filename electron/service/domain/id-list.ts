import type { Violations } from '../errors.js';

const POSITIVE_INTEGER = /^[1-9]\d*$/;

/**
 * Reads a comma-separated id list from a query parameter (`scheduleId=1,2`). Absent or blank
 * means "no filter" (null); every other piece must be a positive integer, else a violation
 * naming the parameter and the piece as sent.
 */
export function parseIdList(value: string | undefined, parameter: string, violations: Violations): number[] | null {
  if (value === undefined || value.trim() === '') return null;
  const ids: number[] = [];
  for (const piece of value.split(',')) {
    const trimmed = piece.trim();
    const id = Number(trimmed);
    if (POSITIVE_INTEGER.test(trimmed) && Number.isSafeInteger(id)) ids.push(id);
    else violations.add(`Invalid ${parameter}: ${trimmed}`);
  }
  return [...new Set(ids)];
}
