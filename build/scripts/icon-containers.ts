/**
 * Icon container files built from PNGs. Both formats accept PNG data as is: ICO since Windows
 * Vista, ICNS since macOS 10.7, so every size keeps Chromium's rendering of the vector.
 */

export interface SizedPng {
  size: number;
  png: Buffer;
}

/** A Windows .ico: a directory of 16-byte entries, then the images. */
export function icoFile(images: SizedPng[]): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // 1: an icon (2 would be a cursor)
  header.writeUInt16LE(images.length, 4);
  const entrySize = 16;
  let offset = header.length + entrySize * images.length;
  const entries = images.map(({ size, png }) => {
    if (size > 256) throw new Error(`An .ico image is at most 256 px wide; got ${size}.`);
    const entry = Buffer.alloc(entrySize);
    // Width and height are one byte each, where 0 means 256.
    entry.writeUInt8(size % 256, 0);
    entry.writeUInt8(size % 256, 1);
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map((image) => image.png)]);
}

/** The ICNS element type that holds a PNG of this pixel size (1x types first, then @2x). */
const icnsTypes: Array<{ type: string; pixels: number }> = [
  { type: 'icp4', pixels: 16 },
  { type: 'icp5', pixels: 32 },
  { type: 'icp6', pixels: 64 },
  { type: 'ic07', pixels: 128 },
  { type: 'ic08', pixels: 256 },
  { type: 'ic09', pixels: 512 },
  { type: 'ic10', pixels: 1024 }, // 512@2x
  { type: 'ic11', pixels: 32 }, // 16@2x
  { type: 'ic12', pixels: 64 }, // 32@2x
  { type: 'ic13', pixels: 256 }, // 128@2x
  { type: 'ic14', pixels: 512 }, // 256@2x
];

export const icnsPixelSizes = [...new Set(icnsTypes.map((entry) => entry.pixels))];

/** A macOS .icns: 'icns' and the file's length, then elements of a type, their length and data. */
export function icnsFile(pngOfSize: (pixels: number) => Buffer): Buffer {
  const elements = icnsTypes.map(({ type, pixels }) => {
    const png = pngOfSize(pixels);
    const header = Buffer.alloc(8);
    header.write(type, 0, 'ascii');
    header.writeUInt32BE(header.length + png.length, 4);
    return Buffer.concat([header, png]);
  });
  const header = Buffer.alloc(8);
  header.write('icns', 0, 'ascii');
  header.writeUInt32BE(header.length + elements.reduce((total, element) => total + element.length, 0), 4);
  return Buffer.concat([header, ...elements]);
}
