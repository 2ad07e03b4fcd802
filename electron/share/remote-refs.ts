// What the team's remote holds of ours, and whether it can filter: one
// `git ls-remote` of refs/chronoscope/ with git's packet trace on, whose
// capability lines say whether upload-pack allows `filter`
// (uploadpack.allowFilter: GitHub and GitLab do). Protocol v2 says it in
// `fetch=… filter`, v0 among the first ref line's capabilities.
import { parseRemoteRef, REMOTE_PREFIX, type Namespace } from './namespace.js';
import { remoteGit } from './remote-git.js';
import type { ShareRemote } from './remote.js';

export interface RemoteShareRef extends Namespace {
  refname: string;
  id: string;
  kind: 'log' | 'notes';
}

export interface RemoteListing {
  refs: RemoteShareRef[];
  /** upload-pack advertised `filter`: a blob-less fetch is possible. */
  canFilter: boolean;
}

const CAPABILITY = /(?:^|[ =\0])filter(?:[ \0]|$)/;

/** The capability lines of git's packet trace say `filter`. */
export function advertisesFilter(trace: string): boolean {
  return trace.split('\n').some((line) => {
    const at = line.indexOf('ls-remote< ');
    return at >= 0 && CAPABILITY.test(line.slice(at + 'ls-remote< '.length).trimEnd());
  });
}

export async function listRemote(gitDir: string, remote: ShareRemote, timeoutMs?: number): Promise<RemoteListing> {
  const run = await remoteGit(gitDir, remote, ['ls-remote', remote.url, `${REMOTE_PREFIX}*`], { env: { GIT_TRACE_PACKET: '2' }, ...(timeoutMs !== undefined ? { timeoutMs } : {}) });
  const refs: RemoteShareRef[] = [];
  for (const line of run.stdout.split('\n')) {
    const [id, refname] = line.split('\t');
    if (!id || !refname || !/^[0-9a-f]{40}$/.test(id)) continue;
    const ns = parseRemoteRef(refname);
    if (ns) refs.push({ ...ns, refname, id });
  }
  return { refs, canFilter: advertisesFilter(run.stderr) };
}
