#!/usr/bin/env node
// Renders the SVG icons to the PNGs electron-builder and the tray use, with
// the Chromium Playwright drives (Debian's /usr/bin/chromium here). The PNGs
// are committed, so this runs only when an SVG changes:
//   node build/render-icons.mjs
// It then packs them into icon.ico, icon.icns and icons/tray.ico (pack-icons.mjs).
import { readFileSync, existsSync } from 'node:fs';
import { chromium } from 'playwright';
import { writePackedIcons } from './pack-icons.mjs';

const dir = new URL('.', import.meta.url);
const jobs = [
  ['icon.svg', 'icon.png', 512],
  ['icons/tray.svg', 'icons/tray-16.png', 16],
  ['icons/tray.svg', 'icons/tray-16@2x.png', 32],
  ['icons/tray.svg', 'icons/tray-32.png', 32],
  ['icons/tray.svg', 'icons/tray-32@2x.png', 64],
  ['icons/tray-template.svg', 'icons/trayTemplate.png', 16],
  ['icons/tray-template.svg', 'icons/trayTemplate@2x.png', 32],
  ...[16, 32, 48, 64, 128, 256, 512].map((n) => ['icon.svg', `icons/${n}x${n}.png`, n]),
];

const executablePath = existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;
const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage();
for (const [source, target, size] of jobs) {
  const svg = readFileSync(new URL(source, dir), 'utf8');
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(
    `<html><body style="margin:0;background:transparent"><img style="display:block;width:${size}px;height:${size}px" src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}"></body></html>`,
  );
  await page.screenshot({ path: new URL(target, dir).pathname, omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
  console.log(`${target} (${size}px)`);
}
await browser.close();
writePackedIcons();
