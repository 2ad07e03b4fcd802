#!/usr/bin/env node
// Packs the rendered PNGs into the icon containers each OS wants: icon.ico
// (Windows installer, executable and window), icons/tray.ico (the Windows
// tray, which blurs PNGs) and icon.icns (macOS). Both formats may hold PNG
// data as is (ICO since Windows Vista, ICNS since OS X 10.7), so this is byte
// layout only, no image processing and no dependency. The results are
// committed; render-icons.mjs runs this after rendering:
//   node build/pack-icons.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(png) {
  if (png.readUInt32BE(0) !== 0x89504e47 || png.toString('ascii', 12, 16) !== 'IHDR') throw new Error('not a PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** ICONDIR + one ICONDIRENTRY per image, then the PNGs. */
export function icoFromPngs(pngs) {
  const header = Buffer.alloc(6 + 16 * pngs.length);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(pngs.length, 4);
  let offset = header.length;
  pngs.forEach((png, i) => {
    const { width, height } = pngSize(png);
    if (width > 256 || height > 256) throw new Error(`ICO images are at most 256 px, not ${width}`);
    const at = 6 + 16 * i;
    header.writeUInt8(width === 256 ? 0 : width, at); // 0 means 256
    header.writeUInt8(height === 256 ? 0 : height, at + 1);
    header.writeUInt16LE(1, at + 4); // colour planes
    header.writeUInt16LE(32, at + 6); // bits per pixel
    header.writeUInt32LE(png.length, at + 8);
    header.writeUInt32LE(offset, at + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...pngs]);
}

/** ICNS element types holding PNG data, by pixel size (the @2x ones share sizes with plain ones). */
export const ICNS_TYPES = [
  ['icp4', 16],
  ['icp5', 32],
  ['icp6', 64],
  ['ic07', 128],
  ['ic08', 256],
  ['ic09', 512],
  ['ic11', 32], // 16@2x
  ['ic12', 64], // 32@2x
  ['ic13', 256], // 128@2x
  ['ic14', 512], // 256@2x
];

export function icnsFromPngs(bySize) {
  const elements = ICNS_TYPES.map(([type, size]) => {
    const png = bySize.get(size);
    if (!png) throw new Error(`no ${size} px PNG for ${type}`);
    const head = Buffer.alloc(8);
    head.write(type, 0, 'ascii');
    head.writeUInt32BE(8 + png.length, 4);
    return Buffer.concat([head, png]);
  });
  const body = Buffer.concat(elements);
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'ascii');
  head.writeUInt32BE(8 + body.length, 4);
  return Buffer.concat([head, body]);
}

const dir = new URL('.', import.meta.url);
const read = (name) => readFileSync(new URL(name, dir));

/** The three files, from the PNGs render-icons.mjs made. */
export function packIcons() {
  const appSizes = [16, 32, 48, 64, 128, 256, 512];
  const app = new Map(appSizes.map((n) => [n, read(`icons/${n}x${n}.png`)]));
  return {
    'icon.ico': icoFromPngs([16, 32, 48, 64, 128, 256].map((n) => app.get(n))),
    'icon.icns': icnsFromPngs(app),
    'icons/tray.ico': icoFromPngs(['icons/tray-16.png', 'icons/tray-32.png', 'icons/tray-32@2x.png'].map(read)),
  };
}

export function writePackedIcons() {
  for (const [name, bytes] of Object.entries(packIcons())) {
    writeFileSync(new URL(name, dir), bytes);
    console.log(`${name} (${bytes.length} bytes)`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writePackedIcons();
