// Where the running app listens for hooks: a Unix socket inside the store
// (owner-only, like the store), or a named pipe on Windows whose name comes
// from the store's path. Both sides compute it from the store home alone.
import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
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

/** Whether a process listens on the socket (a stale file nobody listens on is not an app). */
export function someoneListens(path: string): Promise<boolean> {
  return new Promise((resolveProbe) => {
    const probe = connect(path);
    probe.once('connect', () => {
      probe.destroy();
      resolveProbe(true);
    });
    probe.once('error', () => resolveProbe(false));
  });
}
