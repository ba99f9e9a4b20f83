/**
 * How typed text and names are compared, the same in the popover's filter and in the core's
 * reading of a typed booking: as words, lower case and without accents.
 */

/** The words of a text, lower case and without accents, split at spaces and punctuation: "Severn (1.02)" is severn, 1, 02. */
export function wordsOf(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLocaleLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}
