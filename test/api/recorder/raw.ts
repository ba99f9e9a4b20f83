import type { DateTime } from 'luxon';
import { parseWireDateTime } from '../../../electron/api/dates.js';

// Readers for answers as the server sent them: ids may be strings, flags "1", members missing.

export type Members = Record<string, unknown>;

export function members(value: unknown): Members {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Members) : {};
}

export function items(value: unknown): Members[] {
  return Array.isArray(value) ? value.map(members) : [];
}

export function flag(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 'true';
}

export function number(value: unknown): number | null {
  const read = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof read === 'number' && Number.isFinite(read) ? read : null;
}

export function dateTime(value: unknown, zone: string): DateTime | null {
  return typeof value === 'string' ? parseWireDateTime(value, zone) : null;
}
