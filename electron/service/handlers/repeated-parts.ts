/**
 * What a handler marks in an answer that holds one object many times over (a week of slots), so
 * that http/answer-bytes.ts serialises each repeated part once and copies it wherever it recurs.
 */

/** Objects an answer holds more than once. */
const repeatedParts = new WeakSet<object>();
/** Objects on the way from an answer down to its repeated parts: written member by member. */
const holders = new WeakSet<object>();

/** Marks an object the answer holds many times; it must not change until the answer is sent. */
export function repeated<T extends object>(part: T): T {
  repeatedParts.add(part);
  return part;
}

/**
 * Marks an object (a plain one, without `toJSON`) that holds repeated parts in its members or
 * in arrays among them. Any other object is written by `JSON.stringify` in one piece.
 */
export function holding<T extends object>(container: T): T {
  holders.add(container);
  return container;
}

export const isRepeated = (value: object): boolean => repeatedParts.has(value);

export const isHolder = (value: object): boolean => holders.has(value);
