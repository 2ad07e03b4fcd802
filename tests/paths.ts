// Where tests find the built entry points (compiled by tests/global-setup.ts).
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const CLI_PATH = fileURLToPath(new URL('../dist/electron/cli/main.js', import.meta.url));
