// One handler per invoke channel, typed from the contract in shared/ipc.ts:
// a missing channel or a handler returning the wrong shape is a compile error.
import type { z } from 'zod';
import { INVOKE, type InvokeChannel, type InvokeResponse } from '../../shared/ipc.js';
import type { SettingsPatch } from '../../shared/settings.js';
import type { Checkpoint } from '../../shared/model.js';
import type { AppService } from '../app/api.js';
import { verifyJobs } from '../app/verify-jobs.js';
import { checkWorkspace, workspaceHealth } from '../engine/check.js';
import { lastCompression, upkeepIfDue } from '../engine/upkeep.js';
import { lastPrune } from '../engine/retention.js';
import type { StoreInfo } from '../../shared/model.js';
import { ChronoscopeError, UnknownWorkspaceError } from '../../shared/errors.js';
import { installAgentHooks } from './connect-agent.js';
import { shareSwitch } from './share-switch.js';
import { conversationAround } from '../prompts/conversation.js';
import { beforeCheckpoint, findPrompt, listPrompts, whyOf } from '../prompts/listing.js';
import { promptLabel } from '../agents/core/session-prompt.js';
import type { Workspace } from '../engine/api.js';

export interface RouterOptions {
  /** Host-specific native folder dialog; absent in the browser host. */
  pickFolder?: () => Promise<string | null>;
}

export interface HandlerContext {
  app: AppService;
  options: RouterOptions;
  /** The payload as sent, already validated (settings:set merges it, not the default-filled output). */
  raw: unknown;
}

type Request<C extends InvokeChannel> = z.output<(typeof INVOKE)[C]['request']>;

export type HandlerMap = {
  [C in InvokeChannel]: (req: Request<C>, ctx: HandlerContext) => Promise<InvokeResponse<C>>;
};

const READ_ONLY = { register: false } as const;

async function storeInfo(app: AppService): Promise<StoreInfo> {
  const home = app.store.home;
  const [bytes, compressed, pruned] = await Promise.all([app.store.sizeBytes(), lastCompression(home), lastPrune(home)]);
  return { home, bytes, last_upkeep: compressed === null ? null : { time_ms: compressed }, last_prune: pruned };
}

async function announce(app: AppService, workspace: string, checkpoint: Checkpoint): Promise<void> {
  app.emit('checkpoint:added', { workspace, checkpoint });
}

export const HANDLERS: HandlerMap = {
  'app:info': async (_req, { app }) => app.info(),

  'workspaces:list': async (_req, { app }) => app.listWorkspaces(),
  'workspaces:add': async (req, { app }) => app.addWorkspace(req.workspace),
  'workspaces:remove': async (req, { app }) => ({ removed: await app.removeWorkspace(req.workspace) }),
  'workspaces:pick': async (_req, { options }) => {
    if (!options.pickFolder) return { path: null, supported: false };
    return { path: await options.pickFolder(), supported: true };
  },
  'workspaces:setPaused': async (req, { app }) => app.setPaused(req.workspace, req.paused),

  // Readers never register a folder: one the store does not know has no checkpoints.
  'checkpoints:list': async (req, { app }) => {
    const ws = await app.workspace(req.workspace, READ_ONLY).catch((err: unknown) => {
      if (err instanceof UnknownWorkspaceError) return null;
      throw err;
    });
    if (!ws) return [];
    // A Hermes store that cannot be read leaves its lane out; the person hears why once per list.
    const onWarning = (message: string): void => app.emit('error', { workspace: ws.meta.path, error: { code: 'internal', message } });
    return ws.list(req.limit === undefined ? { lanes: true, onWarning } : { limit: req.limit, lanes: true, onWarning });
  },
  'checkpoints:show': async (req, { app }) => {
    const ws = await app.workspace(req.workspace, READ_ONLY);
    const found = await ws.show(req.id);
    return { ...found, why: await whyOf(app.store.home, ws, found.checkpoint.id) };
  },
  'checkpoints:diff': async (req, { app }) => (await app.workspace(req.workspace, READ_ONLY)).diff(req.from, req.to),
  'checkpoints:fileDiff': async (req, { app }) =>
    (await app.workspace(req.workspace, READ_ONLY)).fileDiff(req.from, req.to, req.path, req.old_path, { large: req.large === true }),
  'checkpoints:pathHistory': async (req, { app }) => (await app.workspace(req.workspace, READ_ONLY)).pathHistory(req.path),
  'checkpoints:snapshot': async (req, { app }) => {
    const ws = await app.workspace(req.workspace);
    // Through the app: where its watcher runs, only what the watcher saw change is looked at.
    const result = await app.snapshot(ws, { trigger: 'manual', ...(req.reason ? { reason: req.reason } : {}) });
    if (result.id !== null) await announce(app, ws.meta.path, result.checkpoint);
    return result;
  },
  'checkpoints:pin': async (req, { app }) => (await app.workspace(req.workspace)).pin(req.id, req.pinned),

  // As checkpoints:list: a folder the store does not know has no prompts.
  'prompts:list': async (req, { app }) => {
    const ws = await app.workspace(req.workspace, READ_ONLY).catch((err: unknown) => {
      if (err instanceof UnknownWorkspaceError) return null;
      throw err;
    });
    return ws ? listPrompts(app.store.home, ws) : [];
  },
  'prompts:conversation': async (req, { app }) => {
    const ws = await app.workspace(req.workspace, READ_ONLY);
    const found = await ws.show(req.id);
    return conversationAround((await whyOf(app.store.home, ws, found.checkpoint.id)).call, { cwd: ws.root });
  },

  'restore:preview': async (req, { app }) => {
    const ws = await app.workspace(req.workspace, READ_ONLY);
    const preview = await ws.previewRestore(req.id, restoreOptions(req));
    const effects_since = await app.effects(ws.meta.path, preview.target);
    return { ...preview, effects_since };
  },
  'restore:run': async (req, { app }) => {
    const ws = await app.workspace(req.workspace);
    const result = await ws.restore(req.id, { ...restoreOptions(req), ...(await beforePrompt(app, ws, req.before_prompt, req.id)) });
    // The safety checkpoint first, then the restored state: the timeline shows them in that order.
    for (const id of [result.safety, result.checkpoint]) {
      if (id) await announce(app, ws.meta.path, await ws.resolve(id));
    }
    app.emit('restore:done', { workspace: ws.meta.path, result });
    return result;
  },

  'effects:list': async (req, { app }) => app.effects(req.workspace, req.since),

  'settings:get': async (_req, { app }) => app.settings(),
  'settings:set': async (_req, { app, raw }) => app.updateSettings(raw as SettingsPatch),

  'verify:list': async (req, { app }) => verifyJobs(app).list(req.workspace),
  'verify:run': async (req, { app }) => verifyJobs(app).verify(req.workspace, req.id),
  'fork:run': async (req, { app }) => verifyJobs(app).fork(req.workspace, req.id),
  'bisect:start': async (req, { app }) => verifyJobs(app).startBisect(req.workspace, req.good, req.bad),
  'bisect:cancel': async (req, { app }) => verifyJobs(app).cancelBisect(req.job),
  'approvals:list': async (_req, { app }) => verifyJobs(app).pendingApprovals(),
  'health:get': async (req, { app }) => {
    const ws = await app.workspace(req.workspace, READ_ONLY);
    return workspaceHealth(app.store.home, ws.meta.id);
  },
  'health:check': async (req, { app }) => {
    const ws = await app.workspace(req.workspace, READ_ONLY);
    await checkWorkspace(app.store, ws);
    return workspaceHealth(app.store.home, ws.meta.id);
  },
  'timeline:viewing': async (req, { app }) => {
    app.viewing(req.workspace, req.ids);
    return { ok: true };
  },
  'store:info': async (_req, { app }) => storeInfo(app),
  'store:compact': async (_req, { app }) => {
    await upkeepIfDue(app.store.home, { force: true });
    return storeInfo(app);
  },
  // A project-level install goes into a workspace the store knows (resolved to its real path).
  'agents:install': async (req, { app }) =>
    installAgentHooks(req.agent, req.workspace === undefined ? null : (await app.workspace(req.workspace, READ_ONLY)).meta.path),
  'retention:trash': async (req, { app }) => (await app.workspace(req.workspace, READ_ONLY)).trash(),
  'share:get': async (req, { app }) => shareSwitch(app.store, req.workspace),
  'share:set': async (req, { app }) => shareSwitch(app.store, req.workspace, req.enabled),
  'retention:undo': async (req, { app }) => {
    const ws = await app.workspace(req.workspace, READ_ONLY);
    const result = await ws.undoPrune(req.entry);
    app.emit('checkpoints:restored', { workspace: ws.meta.path, restored: result.restored });
    return result;
  },
  'approvals:answer': async (req, { app }) => verifyJobs(app).answer(req.id, req.approve),
};

/**
 * "Restore to before this prompt": the prompt's words, read from the ledger (never taken from the page),
 * name the restore — only when the checkpoint is the one before that prompt, so a title never lies.
 */
async function beforePrompt(app: AppService, ws: Workspace, id: string | undefined, ref: string): Promise<{ before_prompt?: string }> {
  if (id === undefined) return {};
  const prompt = await findPrompt(app.store.home, ws, id);
  if ((await ws.resolve(ref)).id !== beforeCheckpoint(prompt)) throw new ChronoscopeError('bad_input', `checkpoint ${ref.slice(0, 12)} is not the one before prompt ${id}`);
  return { before_prompt: promptLabel(prompt.text) };
}

function restoreOptions(req: Request<'restore:run'>): { paths?: string[]; keep_untracked?: boolean } {
  return {
    ...(req.paths ? { paths: req.paths } : {}),
    ...(req.keep_untracked !== undefined ? { keep_untracked: req.keep_untracked } : {}),
  };
}
