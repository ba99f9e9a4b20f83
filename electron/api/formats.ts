import { FormatRegistry } from '@sinclair/typebox';
import { parseWireDateTime } from './dates.js';
import { parseHumanDuration } from './durations.js';
import { WireFormat } from './schemas/common.js';

/** Validators for the string formats the schemas tag; shared by the service's AJV and TypeBox checks. */
export const formatValidators: Record<(typeof WireFormat)[keyof typeof WireFormat], (value: string) => boolean> = {
  [WireFormat.dateTime]: (value) => parseWireDateTime(value, 'UTC') !== null,
  [WireFormat.humanDuration]: (value) => value === '' || parseHumanDuration(value) !== null,
  [WireFormat.hexColor]: (value) => /^#[0-9a-fA-F]{6}$/.test(value),
};

export function registerWireFormats(): void {
  for (const [name, validate] of Object.entries(formatValidators)) FormatRegistry.Set(name, validate);
}
