// tsc drops the executable bit; the CLI must run as `./dist/electron/cli/bin.cjs` (the package's
// bin) and as `./dist/electron/cli/main.js` (what older hook installs and docs name) too.
import { chmodSync, existsSync } from 'node:fs';
for (const entry of ['bin.cjs', 'main.js']) {
  const cli = new URL(`../dist/electron/cli/${entry}`, import.meta.url);
  if (existsSync(cli)) chmodSync(cli, 0o755);
}
