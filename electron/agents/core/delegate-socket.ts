// Where the running app listens for hooks: a Unix socket inside the store
// (owner-only, like the store), or a named pipe on Windows whose name comes
// from the store's path. Both sides compute it from the store home alone.
import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

export const DELEGATE_PROTOCOL = 1;

export function agentSocketPath(home: string, platform: NodeJS.Platform = process.platform): string {
  if (platform !== 'win32') return join(home, 'agent.sock');
  let real = resolve(home);
  try {
    real = realpathSync.native(real);
  } catch {
    // not there yet: the resolved path names it
  }
  // node:crypto only here: on the other platforms a hook process does not load it at all.
  const { createHash } = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  return `\\\\.\\pipe\\chronoscope-agent-${createHash('sha256').update(real.toLowerCase()).digest('hex').slice(0, 16)}`;
}
