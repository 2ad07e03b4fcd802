// tsc drops the executable bit; the CLI must run as `./dist/electron/cli/main.js` too.
import { chmodSync, existsSync } from 'node:fs';
const cli = new URL('../dist/electron/cli/main.js', import.meta.url);
if (existsSync(cli)) chmodSync(cli, 0o755);
