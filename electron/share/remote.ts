// Which remote a pull reads: the one named, else the current branch's
// upstream remote, else the only remote; never a hard-coded 'origin'. The URL
// is git's own (`remote get-url` applies url.*.insteadOf), and the person's
// credential helpers and SSH command travel with it, since the store's git
// runs without their config.
import { UsageError } from '../../shared/errors.js';
import { absoluteRemoteUrl, repoTop, workspaceConfig, workspaceGit } from './workspace-git.js';

export interface ShareRemote {
  name: string;
  url: string;
  /** `-c key=value` pairs from the person's config that a network git in the store needs. */
  config: string[];
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._\/-]{0,99}$/;

async function remoteNames(root: string): Promise<string[]> {
  const out = await workspaceGit(root, ['remote']);
  if (out === null) throw new UsageError(`${root} is not a git repository: sharing reads the team's git remote`);
  return out.split('\n').map((l) => l.trim()).filter(Boolean);
}

/** The remote to pull from (see the header); a one-line usage error when it cannot be told. */
export async function chooseRemote(root: string, named?: string): Promise<ShareRemote> {
  const names = await remoteNames(root);
  let name = named;
  if (name !== undefined) {
    if (!NAME.test(name) || !names.includes(name)) throw new UsageError(`no git remote named ${JSON.stringify(name)} in this workspace (it has: ${names.join(', ') || 'none'})`);
  } else {
    const branch = (await workspaceGit(root, ['symbolic-ref', '-q', '--short', 'HEAD']))?.trim();
    const upstream = branch ? await workspaceConfig(root, `branch.${branch}.remote`) : undefined;
    if (upstream && names.includes(upstream)) name = upstream;
    else if (names.length === 1) name = names[0];
    else if (names.length === 0) throw new UsageError('this workspace has no git remote: add one (git remote add NAME URL) to share with your team');
    else throw new UsageError(`this workspace has ${names.length} git remotes (${names.join(', ')}) and the branch has no upstream: name one with --remote NAME`);
  }
  const url = (await workspaceGit(root, ['remote', 'get-url', name!]))?.trim();
  if (!url) throw new UsageError(`git remote ${JSON.stringify(name)} has no URL`);
  // Fetches run in the store's git dir: a remote given as a relative path is made absolute first.
  return { name: name!, url: absoluteRemoteUrl(await repoTop(root), url), config: await carriedConfig(root) };
}

/** The person's settings a fetch needs to reach and authenticate (their helpers, their SSH command). */
async function carriedConfig(root: string): Promise<string[]> {
  const out = await workspaceGit(root, ['config', '--get-regexp', '^(credential\\..*|core\\.sshcommand|http\\.(proxy|sslcainfo|sslverify|extraheader))$']);
  if (!out) return [];
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const at = line.indexOf(' ');
      return at < 0 ? `${line}=` : `${line.slice(0, at)}=${line.slice(at + 1)}`;
    });
}
