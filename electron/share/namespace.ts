// Where a clone's checkpoints live on the team's remote (share-contract.md):
// refs/chronoscope/<person>/<machine>/<clone>/{log,notes}, and where a pull
// keeps a teammate's in the store: refs/chronoscope-shared/<ws-id>/<same>/.
import { createHash } from 'node:crypto';
import os from 'node:os';
import { workspaceConfig } from './workspace-git.js';

export const REMOTE_PREFIX = 'refs/chronoscope/';
export const SHARED_PREFIX = 'refs/chronoscope-shared/';

export interface Namespace {
  person: string;
  machine: string;
  clone: string;
}

/** Lower case, every character outside [a-z0-9._-] a '-' (a ref name component git accepts). */
export function sanitizeSegment(text: string): string {
  const out = text.toLowerCase().replace(/[^a-z0-9._-]/g, '-').replace(/^\.+/, '-');
  return out.length > 0 ? out : '-';
}

/** `w` + the first 10 hex digits of sha256 of the workspace's real path. */
export function cloneSegment(realRoot: string): string {
  return `w${createHash('sha256').update(realRoot).digest('hex').slice(0, 10)}`;
}

/** This clone's own namespace: what a pull leaves out (it is ours). */
export async function ownNamespace(realRoot: string): Promise<Namespace> {
  const email = await workspaceConfig(realRoot, 'user.email');
  return {
    person: sanitizeSegment(email ?? os.userInfo().username),
    machine: sanitizeSegment(os.hostname()),
    clone: cloneSegment(realRoot),
  };
}

const REMOTE_REF = /^refs\/chronoscope\/([a-z0-9._-]+)\/([a-z0-9._-]+)\/([a-z0-9._-]+)\/(log|notes)$/;

/** A remote ref of the layout, parsed; null for anything else (the remote's own refs, a malformed name). */
export function parseRemoteRef(refname: string): (Namespace & { kind: 'log' | 'notes' }) | null {
  const m = REMOTE_REF.exec(refname);
  if (!m || [m[1], m[2], m[3]].some((s) => s === '.' || s === '..' || s!.endsWith('.lock'))) return null;
  return { person: m[1]!, machine: m[2]!, clone: m[3]!, kind: m[4] as 'log' | 'notes' };
}

export function sameNamespace(a: Namespace, b: Namespace): boolean {
  return a.person === b.person && a.machine === b.machine && a.clone === b.clone;
}

/** The store's prefix for one workspace's teammates' refs. */
export function sharedPrefixOf(wsId: string): string {
  return `${SHARED_PREFIX}${wsId}/`;
}

/** Where a remote ref of the layout is kept in the store. */
export function localRefOf(wsId: string, ns: Namespace, kind: 'log' | 'notes'): string {
  return `${sharedPrefixOf(wsId)}${ns.person}/${ns.machine}/${ns.clone}/${kind}`;
}
