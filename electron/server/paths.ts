// Where the built pieces sit relative to this compiled module
// (dist/electron/server/paths.js): the renderer at dist/renderer, package.json
// at the root. Both hosts use these, so a packaged app (asar) resolves the same way.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function rendererDir(): string {
  return fileURLToPath(new URL('../../renderer/', import.meta.url));
}

export function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}
