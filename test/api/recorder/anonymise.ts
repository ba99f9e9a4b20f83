/** Where recorded links point instead of the recorded machine. */
export const publicOrigin = 'http://booking.example.org';

/** Stands for every session token: 50 hex characters, as real servers issue them. */
export const recordedSessionToken = '0123456789abcdef'.repeat(4).slice(0, 50);

const EMAIL_ADDRESS = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Takes out of answers what belongs to the recorded machine or its people: the origin links are
 * built from, session tokens and e-mail addresses. The same address becomes the same `userN` in
 * every answer of one run, so recordings stay consistent with each other.
 */
export function createAnonymiser(recordedOrigin: string) {
  const addresses = new Map<string, string>();

  const address = (found: string): string => {
    const key = found.toLowerCase();
    if (!addresses.has(key)) addresses.set(key, `user${addresses.size + 1}@example.org`);
    return addresses.get(key)!;
  };

  const text = (value: string): string => value.replaceAll(recordedOrigin, publicOrigin).replace(EMAIL_ADDRESS, address);

  const json = (value: unknown, key?: string): unknown => {
    if (key === 'sessionToken' && typeof value === 'string' && value !== '') return recordedSessionToken;
    if (typeof value === 'string') return text(value);
    if (Array.isArray(value)) return value.map((item) => json(item));
    if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, json(item, name)]));
    return value;
  };

  return { text, json };
}

export type Anonymiser = ReturnType<typeof createAnonymiser>;
