// Who is sharing, from where: the namespace (namespace.ts, shared with the
// pull side so both compute it the same way) plus what people read: the
// name, e-mail and host name as typed.
import os from 'node:os';
import { ownNamespace, type Namespace } from './namespace.js';
import { workspaceConfig } from './workspace-git.js';

export interface ShareIdentity extends Namespace {
  /** user.name as typed (the OS user's name when unset), for display. */
  name: string;
  email: string;
  hostname: string;
}

export async function shareIdentity(realRoot: string): Promise<ShareIdentity> {
  const email = (await workspaceConfig(realRoot, 'user.email')) ?? '';
  const name = (await workspaceConfig(realRoot, 'user.name')) ?? safeUserName();
  return { ...(await ownNamespace(realRoot)), name, email, hostname: os.hostname() };
}

function safeUserName(): string {
  try {
    return os.userInfo().username;
  } catch {
    return 'unknown';
  }
}

/** refs/chronoscope/<person>/<machine>/<clone> on the remote. */
export function remoteNamespace(ns: Namespace): string {
  return `refs/chronoscope/${ns.person}/${ns.machine}/${ns.clone}`;
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
