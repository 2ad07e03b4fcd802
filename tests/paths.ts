// Where tests find the built entry points (compiled by tests/global-setup.ts).
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The package's bin: what `chronoscope` runs, and what installed hooks name. */
export const CLI_PATH = fileURLToPath(new URL('../dist/electron/cli/bin.cjs', import.meta.url));
/** The ES module CLI behind it (older hook installs name it directly). */
export const CLI_MAIN_PATH = fileURLToPath(new URL('../dist/electron/cli/main.js', import.meta.url));
