// share enable / disable / status: opting a workspace in and out, and what
// would leave. Enable writes the pre-push hook (hook-file.ts) and the
// settings in the store (share-file.ts); disable puts the hooks folder back
// as it found it, byte for byte.
import fs from 'node:fs/promises';
import path from 'node:path';
import { ChronoscopeError } from '../../shared/errors.js';
import { currentNodeCli, type NodeCli } from '../agents/core/node-command.js';
import type { ShareContext } from './context.js';
import { SHARE_LOG, hookText, installHook, uninstallHook } from './hook-file.js';
import { remoteNamespace } from './identity.js';
import { maskUrl, pendingBatch } from './push.js';
import { readShareSettings, writeShareSettings, type ShareSettings } from './share-file.js';
import { chooseRemote } from './remote.js';
import { hooksDir, remotePushUrl } from './workspace-git.js';

export interface ShareState {
  enabled: boolean;
  workspace: string;
  remote: string | null;
  /** Credentials masked. */
  url: string | null;
  person: string;
  email: string;
  machine: string;
  clone: string;
  /** refs/chronoscope/<person>/<machine>/<clone> on the remote. */
  namespace: string;
  hook: string | null;
  /** What the next push would send. */
  pending: { checkpoints: number; prompts: number; calls: number };
  /** Said in every status: the one thing people need to know before they enable it. */
  scope: string;
}

export const SCOPE_NOTE = "only this workspace's checkpoints leave, with the prompts and commands they were made under (redacted); other workspaces of the store never do";

/** `cli`: the Node and CLI the hook runs (the desktop app passes a `node` of PATH, not Electron). */
export async function enableSharing(ctx: ShareContext, remoteName: string | undefined, cli: NodeCli = currentNodeCli()): Promise<ShareState> {
  const remote = (await chooseRemote(ctx.repo, remoteName)).name;
  await remotePushUrl(ctx.repo, remote); // a remote without a push URL is refused before anything is written
  const before = await readShareSettings(ctx.wsDir);
  const dir = await hooksDir(ctx.repo);
  const text = hookText({ ...cli, store: ctx.store.home }, ctx.workspace.root);
  const installed = await installHook(dir, text);
  const settings: ShareSettings = {
    v: 1,
    enabled: true,
    remote,
    root: ctx.workspace.root,
    home: ctx.store.home,
    hookFile: installed.hookFile,
    // Re-enabling keeps what the first enable moved aside and created.
    chainedFile: installed.chainedFile ?? (before?.enabled ? before.chainedFile : null),
    createdDir: installed.createdDir ?? (before?.enabled ? before.createdDir : null),
    hookText: text,
    enabledAt: new Date().toISOString(),
  };
  await writeShareSettings(ctx.wsDir, settings);
  // The hook appends to it with the shell's umask; created here, it is owner-only like the rest of the store.
  await fs.appendFile(path.join(ctx.store.home, SHARE_LOG), '', { mode: 0o600 });
  return shareState(ctx);
}

export async function disableSharing(ctx: ShareContext): Promise<{ disabled: boolean; kept: string | null }> {
  const settings = await readShareSettings(ctx.wsDir);
  if (settings === null || !settings.enabled) return { disabled: false, kept: null };
  const { kept } = await uninstallHook({ hookFile: settings.hookFile, chainedFile: settings.chainedFile, createdDir: settings.createdDir });
  await writeShareSettings(ctx.wsDir, { ...settings, enabled: false });
  return { disabled: true, kept };
}

export async function shareState(ctx: ShareContext): Promise<ShareState> {
  const settings = await readShareSettings(ctx.wsDir);
  const enabled = settings?.enabled === true;
  // Before enable: the remote enable would choose (none when it would have to ask).
  const remote = settings?.remote ?? (await chooseRemote(ctx.repo).catch(() => null))?.name ?? null;
  const url = remote === null ? null : await remotePushUrl(ctx.repo, remote).then(maskUrl, () => null);
  const batch = await pendingBatch(ctx);
  return {
    enabled,
    workspace: ctx.workspace.root,
    remote,
    url,
    person: ctx.identity.name,
    email: ctx.identity.email,
    machine: ctx.identity.hostname,
    clone: ctx.identity.clone,
    namespace: remoteNamespace(ctx.identity),
    hook: enabled ? settings.hookFile : null,
    pending: { checkpoints: batch.checkpoints.length, prompts: batch.prompts.length, calls: batch.calls.length },
    scope: SCOPE_NOTE,
  };
}

/** The settings of an enabled workspace, or a clear error. */
export async function enabledSettings(ctx: ShareContext): Promise<ShareSettings> {
  const settings = await readShareSettings(ctx.wsDir);
  if (settings === null || !settings.enabled) throw new ChronoscopeError('bad_input', `sharing is not enabled for ${ctx.workspace.root} (run: chronoscope share enable)`);
  return settings;
}
