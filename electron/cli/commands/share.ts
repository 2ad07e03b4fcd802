// chronoscope share enable|status|disable|push: sharing this workspace's
// checkpoints over the team's own git remote (electron/share/). `share pull`
// lives in its own module (share-pull.ts) when it exists.
import { realpathSync } from 'node:fs';
import type { Command } from 'commander';
import { openShareContext } from '../../share/context.js';
import { disableSharing, enableSharing, enabledSettings, shareState, type ShareState } from '../../share/enable.js';
import { readShareSettings } from '../../share/share-file.js';
import { manualRequest, pushShare, type PushResult } from '../../share/push.js';
import { chooseRemote } from '../../share/remote.js';
import { absoluteRemoteUrl, parsePrePushLines, repoTop } from '../../share/workspace-git.js';
import { checkedWorkspaceDir, openCliStore, withCommonOptions, type CommonOptions } from '../context.js';
import { printJson, printLine } from '../output.js';
import { shareCommand } from './share-pull.js';

interface RemoteOptions extends CommonOptions {
  remote?: string;
}

interface HookOptions extends RemoteOptions {
  fromHook?: boolean;
  repo?: string;
  toRemote?: string;
  toUrl?: string;
}

/** The workspace, checked to be in a git repository (and the remote named to exist) before the store opens: a refusal changes nothing. */
async function openChecked(options: RemoteOptions, needsRemote = options.remote !== undefined) {
  const { dir } = await checkedWorkspaceDir(options);
  await repoTop(dir);
  if (needsRemote) await chooseRemote(dir, options.remote);
  return openShareContext(await openCliStore(), dir);
}

function printState(state: ShareState): void {
  printLine(`sharing: ${state.enabled ? 'on' : 'off'} for ${state.workspace}`);
  if (state.remote !== null) printLine(`remote: ${state.remote} ${state.url ?? '(no URL)'}`);
  printLine(`as: ${state.namespace} (${state.person}${state.email ? ` <${state.email}>` : ''} on ${state.machine})`);
  printLine(`would leave: ${state.pending.checkpoints} checkpoint(s), ${state.pending.prompts} prompt(s), ${state.pending.calls} call(s) not yet shared`);
  printLine(`note: ${state.scope}`);
}

function printPush(result: PushResult): void {
  const where = `${result.remote ?? result.url} (${result.namespace})`;
  if (result.checkpoints === 0 && result.notes === 0) printLine(`nothing new to share to ${where}`);
  else printLine(`shared ${result.checkpoints} checkpoint(s), ${result.prompts} prompt(s), ${result.notes} commit note(s) to ${where}`);
}

export function registerShare(program: Command): void {
  const share = shareCommand(program);

  withCommonOptions(share.command('enable').description('share with every git push (installs a pre-push hook that chains any existing one)').option('--remote <name>', "the remote (default: the branch's upstream remote, else the only one)")).action(
    async (options: RemoteOptions) => {
      const ctx = await openChecked(options, true);
      const state = await enableSharing(ctx, options.remote);
      if (options.json) printJson(state);
      else printState(state);
    },
  );

  withCommonOptions(share.command('status').description('is sharing on, where to, and what would leave')).action(async (options: CommonOptions) => {
    const state = await shareState(await openChecked(options));
    if (options.json) printJson(state);
    else printState(state);
  });

  withCommonOptions(share.command('disable').description('remove the pre-push hook (and put back the one that was there)')).action(async (options: CommonOptions) => {
    const ctx = await openChecked(options);
    const result = await disableSharing(ctx);
    if (options.json) printJson(result);
    else if (!result.disabled) printLine('sharing was not enabled: nothing to remove');
    else printLine(result.kept ? `sharing off; ${result.kept} was replaced since enable and is left as it is` : 'sharing off: the pre-push hook is removed');
  });

  const push = withCommonOptions(share.command('push').description("push this workspace's checkpoints not yet shared").option('--remote <name>', 'the remote (default: the one sharing was enabled with)'));
  // What the pre-push hook passes: the push's own remote and refs.
  push.option('--from-hook').option('--repo <dir>').option('--to-remote <name>').option('--to-url <url>');
  for (const name of ['from-hook', 'repo', 'to-remote', 'to-url']) push.options.find((o) => o.long === `--${name}`)?.hideHelp();
  push.action(async (options: HookOptions) => {
    if (options.fromHook) return pushFromHook(options);
    const ctx = await openChecked(options);
    const settings = await enabledSettings(ctx);
    const result = await pushShare(ctx, await manualRequest(ctx, options.remote ?? settings.remote));
    if (options.json) printJson(result);
    else printPush(result);
  });
}

/**
 * The hook's upload, detached from the push: quiet (its output goes to the
 * store's share.log) and a no-op for a repository that shares a hooks folder
 * with this one but never enabled sharing.
 */
async function pushFromHook(options: HookOptions): Promise<void> {
  const { dir } = await checkedWorkspaceDir(options);
  const top = await repoTop(dir);
  if (options.repo !== undefined && realpathSync(options.repo) !== realpathSync(top)) return;
  const ctx = await openShareContext(await openCliStore(), dir);
  if ((await readShareSettings(ctx.wsDir))?.enabled !== true) return;
  const url = absoluteRemoteUrl(ctx.repo, options.toUrl ?? '');
  if ((options.toUrl ?? '') === '') return;
  // $1 is a remote's name, or the URL itself when the push named one: only a named remote's settings carry over.
  const named = options.toRemote !== undefined && options.toRemote !== options.toUrl ? await chooseRemote(ctx.repo, options.toRemote).catch(() => null) : null;
  const pushedRefs = parsePrePushLines(process.env['CHRONOSCOPE_PUSH_REFS'] ?? '');
  const result = await pushShare(ctx, { remote: named?.name ?? null, url, config: named?.config ?? [], pushedRefs });
  printLine(`${new Date().toISOString()} ${result.checkpoints} checkpoint(s), ${result.notes} note(s) -> ${result.url} ${result.namespace}`);
}
