import { randomInt } from 'node:crypto';

let lastStamp = 0n;

/**
 * 22 characters as on real servers (`[0-9a-f]{13}[0-9]{9}`): 13 hex digits of microseconds since
 * the epoch, kept strictly increasing within the process so numbers sort by creation, then
 * 9 random digits so two processes never collide.
 */
export function newReferenceNumber(nowMs: number = Date.now()): string {
  const micros = BigInt(nowMs) * 1000n;
  lastStamp = micros > lastStamp ? micros : lastStamp + 1n;
  const random = String(randomInt(0, 1_000_000_000)).padStart(9, '0');
  return lastStamp.toString(16).padStart(13, '0').slice(-13) + random;
}

export const isReferenceNumber = (text: string) => /^[0-9a-f]{13}[0-9]{9}$/.test(text);
