// The pre-push hook sharing installs: the one thing it writes into the
// workspace's repository. It chains the hook that was there (kept beside it
// under another name, run with the same arguments and stdin, its failure still
// stopping the push), then starts `chronoscope share push` detached, with its
// output in the store's share.log, and returns: the push is never blocked.
//
// The hook names the store it was installed from (CHRONOSCOPE_HOME written
// into it), so a shell with another CHRONOSCOPE_HOME, or none, still shares
// into the store sharing was enabled with. It passes the remote the push goes
// to ($1 name, $2 URL) and pre-push's stdin (the refs it updates): the upload
// follows the push, never a hard-coded origin.
import fs from 'node:fs/promises';
import path from 'node:path';
import { cliPrefix, hookEnvAssignments, shellQuote, type NodeCli } from '../agents/core/node-command.js';
import { ChronoscopeError } from '../../shared/errors.js';

export const HOOK_MARKER = '# chronoscope-share-hook v1';
export const CHAINED_NAME = 'pre-push.chronoscope-chained';
export const SHARE_LOG = 'share.log';

export function hookText(cli: NodeCli & { store: string }, root: string): string {
  const log = shellQuote(path.join(cli.store, SHARE_LOG));
  return `#!/bin/sh
${HOOK_MARKER}
# Shares this workspace's checkpoints to the remote this push goes to, in the
# background (chronoscope share enable). 'chronoscope share disable' removes
# this file and puts back the hook that was here (${CHAINED_NAME}).
refs=$(cat)
chained="$(dirname "$0")/${CHAINED_NAME}"
if [ -x "$chained" ]; then
  if [ -n "$refs" ]; then printf '%s\\n' "$refs" | "$chained" "$@" || exit $?
  else "$chained" "$@" </dev/null || exit $?
  fi
fi
# The upload starts once this push's git has exited (its parent, $PPID): it never competes with
# the push for the machine, and it is detached from the terminal (nohup, output to the store's log).
git_pid=$PPID
(
  while kill -0 "$git_pid" 2>/dev/null; do sleep 0.2 2>/dev/null || sleep 1; done
  CHRONOSCOPE_PUSH_REFS=$refs ${hookEnvAssignments(cli)}exec nohup ${cliPrefix(cli)} share push --from-hook --workspace ${shellQuote(root)} --repo "$PWD" --to-remote "$1" --to-url "$2"
) </dev/null >>${log} 2>&1 &
exit 0
`;
}

export interface InstalledHook {
  hookFile: string;
  chainedFile: string | null;
  createdDir: string | null;
}

async function exists(file: string): Promise<boolean> {
  return fs.lstat(file).then(
    () => true,
    () => false,
  );
}

export async function isOurHook(file: string): Promise<boolean> {
  const text = await fs.readFile(file, 'utf8').catch(() => '');
  return text.split('\n', 3).includes(HOOK_MARKER);
}

/** Writes our hook into `dir`, moving a hook of the person's own aside to be chained. */
export async function installHook(dir: string, text: string): Promise<InstalledHook> {
  let createdDir: string | null = null;
  if (!(await exists(dir))) {
    await fs.mkdir(dir, { recursive: true });
    createdDir = dir;
  }
  const hookFile = path.join(dir, 'pre-push');
  const chained = path.join(dir, CHAINED_NAME);
  if (await exists(hookFile)) {
    if (!(await isOurHook(hookFile))) {
      if (await exists(chained)) throw new ChronoscopeError('conflict', `${chained} is in the way (left by an earlier sharing?): move it and enable again`);
      // A rename keeps the person's hook exactly: bytes, mode, a symlink as a symlink.
      await fs.rename(hookFile, chained);
    }
  }
  const tmp = path.join(dir, `.pre-push.chronoscope.${process.pid}.tmp`);
  await fs.writeFile(tmp, text, { mode: 0o755 });
  await fs.chmod(tmp, 0o755);
  await fs.rename(tmp, hookFile);
  return { hookFile, chainedFile: (await exists(chained)) ? chained : null, createdDir };
}

/**
 * Removes our hook and puts the person's back. A hook someone wrote over ours
 * since is theirs now: it stays, and so does the chained one (said in `kept`).
 */
export async function uninstallHook(hook: InstalledHook): Promise<{ kept: string | null }> {
  if ((await exists(hook.hookFile)) && !(await isOurHook(hook.hookFile))) return { kept: hook.hookFile };
  await fs.rm(hook.hookFile, { force: true });
  if (hook.chainedFile !== null && (await exists(hook.chainedFile))) await fs.rename(hook.chainedFile, hook.hookFile);
  if (hook.createdDir !== null) await fs.rmdir(hook.createdDir).catch(() => undefined);
  return { kept: null };
}
