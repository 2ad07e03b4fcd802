// Who is sharing, from where: the namespace a clone's history takes on the
// remote, refs/chronoscope/<person>/<machine>/<clone>/ (the layout both sides
// agreed on: /work/notes/share-contract.md, docs/design.md "Shared history").
import { createHash } from 'node:crypto';
import os from 'node:os';
import { configValue } from './workspace-git.js';

export interface ShareIdentity {
  /** Sanitised user.email (the namespace's first part). */
  person: string;
  /** user.name as typed, for display. */
  name: string;
  email: string;
  /** Sanitised host name. */
  machine: string;
  hostname: string;
  /** 'w' + 10 hex of sha256 of the workspace's real path: two clones on one machine are two namespaces. */
  clone: string;
}

/** Lower case, every character outside [a-z0-9._-] a '-': always a valid ref component. */
export function refComponent(text: string): string {
  const out = text.toLowerCase().replace(/[^a-z0-9._-]/g, '-').replace(/^[.-]+/, '').replace(/\.+$/, '').replace(/\.\.+/g, '.').replace(/\.lock$/, '-lock');
  return out === '' ? 'unknown' : out;
}

export function cloneId(realRoot: string): string {
  return `w${createHash('sha256').update(realRoot).digest('hex').slice(0, 10)}`;
}

export async function shareIdentity(realRoot: string): Promise<ShareIdentity> {
  const email = (await configValue(realRoot, 'user.email')) ?? '';
  const name = (await configValue(realRoot, 'user.name')) ?? '';
  const user = safeUserName();
  const hostname = os.hostname();
  return { person: refComponent(email || user), name: name || user, email, machine: refComponent(hostname), hostname, clone: cloneId(realRoot) };
}

function safeUserName(): string {
  try {
    return os.userInfo().username;
  } catch {
    return 'unknown';
  }
}

/** refs/chronoscope/<person>/<machine>/<clone> on the remote. */
export function remoteNamespace(id: Pick<ShareIdentity, 'person' | 'machine' | 'clone'>): string {
  return `refs/chronoscope/${id.person}/${id.machine}/${id.clone}`;
}

/**
 * This workspace's own share refs in the store: what was last pushed. Outside
 * refs/chronoscope/ (the store's checkpoint refs) so listing, retention and
 * check never take them for checkpoints; the pull side keeps teammates' refs
 * under refs/chronoscope-shared/.
 */
export function localShareRef(workspaceId: string, kind: 'log' | 'notes'): string {
  return `refs/chronoscope-push/${workspaceId}/${kind}`;
}

/** The store-wide notes ref (git's convention): every link this store knows, its own and pulled. */
export const NOTES_REF = 'refs/notes/chronoscope';
