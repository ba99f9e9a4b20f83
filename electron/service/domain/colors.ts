const HEX_COLOR = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i;

/**
 * Black or white, whichever reads better on the given background (YIQ brightness, as real servers
 * compute `textColor`); "" when there is no background color.
 */
export function contrastingTextColor(background: string): string {
  const match = HEX_COLOR.exec(background.trim());
  if (!match) return '';
  const [red, green, blue] = match.slice(1).map((part) => Number.parseInt(part, 16)) as [number, number, number];
  const brightness = (red * 299 + green * 587 + blue * 114) / 1000;
  return brightness >= 128 ? '#000000' : '#ffffff';
}
