// Chronoscope as a Model Context Protocol server: an agent can take, list,
// show and compare checkpoints, read the effect ledger, fork, verify and
// bisect — and ask for a restore, which only a person can grant
// (request_restore and restore_before_prompt file a request and wait for the answer). Built on the
// official TypeScript SDK; argument schemas are zod, like the rest of the
// project.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import path from 'node:path';
import { ChronoscopeError, toSerializedError } from '../../shared/errors.js';
import { WORKSPACE, type ApprovalRequest, type FileDiff } from '../../shared/model.js';
import { CHECKPOINT_REF_PATTERN } from '../../shared/refs.js';
import { waitForAnswer } from '../approvals/answer.js';
import { fileRequest } from '../approvals/requests.js';
import { unifiedHunks } from '../engine/unified-diff.js';
import { snapshotInRunningApp } from '../app/running-app-client.js';
import { EffectLedger } from '../effects/ledger.js';
import type { Workspace } from '../engine/api.js';
import { bisect } from '../verify/bisect.js';
import { verifyCheckpoint } from '../verify/verify.js';
import type { ServedWorkspaces } from './workspaces.js';
import { PROMPT_REF_PATTERN, beforeCheckpoint, findPrompt, listPrompts, whyOf } from '../prompts/listing.js';
import { promptLabel } from '../agents/core/session-prompt.js';
import { describeList, describeOne } from '../engine/words.js';

const VERSION = '0.1.0';
const DEFAULT_RESTORE_WAIT_S = 300;

const Ref = z.string().regex(CHECKPOINT_REF_PATTERN, 'a checkpoint: full id, hex prefix of 4+, index from the newest (1 = latest) or "latest"');
const RelPath = z
  .string()
  .min(1)
  .max(4096)
  .refine((p) => !p.startsWith('/') && !p.startsWith('-') && !p.split('/').includes('..') && !p.includes('\0'), 'a path relative to the workspace');
const Paths = z.array(RelPath).max(1000);
const PromptId = z.string().regex(PROMPT_REF_PATTERN, 'a prompt id from list_prompts (p + base-36 time + 8 hex digits), or its first characters');

function ok(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] };
}

function failed(err: unknown): CallToolResult {
  const { code, message } = toSerializedError(err);
  return { content: [{ type: 'text', text: `${code}: ${message}` }], isError: true };
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Every tool answers with JSON text, or one error line with isError set. */
function guarded<A>(fn: (args: A, signal: AbortSignal, extra: Extra) => Promise<unknown>): (args: A, extra: Extra) => Promise<CallToolResult> {
  return async (args, extra) => {
    try {
      return ok(await fn(args, extra.signal, extra));
    } catch (err) {
      return failed(err);
    }
  };
}

/**
 * Progress notifications for a long call, when the client asked for them (a
 * progress token): clients that reset their request timeout on progress then
 * wait for a long bisect instead of giving up.
 */
function progressSender(extra: Extra): { send: (progress: number, total: number, message: string) => void; flush: () => Promise<void> } {
  const token = extra._meta?.progressToken;
  const sent: Promise<void>[] = [];
  return {
    send: (progress, total, message) => {
      if (token === undefined) return;
      sent.push(extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress, total, message } }).catch(() => undefined));
    },
    // Before the answer: a notification arriving after it names a token the client has already dropped.
    flush: async () => {
      await Promise.all(sent);
    },
  };
}

function fileDiffText(diff: FileDiff): string {
  const text = (side: FileDiff['old']): string | null => (side.kind === 'text' || side.kind === 'missing' ? (side.text ?? '') : null);
  const oldText = text(diff.old);
  const newText = text(diff.new);
  if (oldText === null || newText === null) return `${diff.path}: ${diff.old.kind} → ${diff.new.kind}`;
  return [`--- a/${diff.path}`, `+++ b/${diff.path}`, ...unifiedHunks(oldText, newText)].join('\n');
}

/**
 * An agent names only a new folder beside the workspace: a fork it asks for
 * must not become a way to write files anywhere else on the machine.
 */
function siblingFolder(root: string, name: string): string {
  if (name.includes('/') || name.includes('\\') || name === '.' || name === '..' || name.includes('\0')) {
    throw new ChronoscopeError('bad_input', `fork folder ${JSON.stringify(name)} must be a plain folder name; it is created beside the workspace`);
  }
  return path.join(path.dirname(root), name);
}

async function previousId(workspace: Workspace, id: string): Promise<string | null> {
  const all = await workspace.list();
  const index = all.findIndex((c) => c.id === id);
  return all[index + 1]?.id ?? null;
}

export function createMcpServer(served: ServedWorkspaces): McpServer {
  const server = new McpServer({ name: 'chronoscope', version: VERSION });
  const workspaceArg = served.many
    ? { workspace: z.string().min(1).max(4096).describe(`which workspace: one of ${served.roots.join(', ')}`) }
    : { workspace: z.string().min(1).max(4096).optional().describe(`the workspace (only ${served.roots[0] ?? ''} is served; may be left out)`) };
  const agentName = (): string => server.server.getClientVersion()?.name ?? 'mcp';

  server.registerTool(
    'checkpoint',
    {
      description: 'Take a checkpoint of the workspace now (before a risky change). Answers with the new checkpoint, or why none was needed.',
      inputSchema: { ...workspaceArg, reason: z.string().max(500).optional(), paths: Paths.optional() },
    },
    guarded(async (args: { workspace?: string; reason?: string; paths?: string[] }) => {
      const root = await served.root(args.workspace);
      const asked = { trigger: 'hook' as const, agent: agentName(), tool: 'mcp', ...(args.reason ? { reason: args.reason } : {}), ...(args.paths?.length ? { paths: args.paths } : {}) };
      // A running app takes it when it can (warm engine; its watcher knows what changed); only then is the store opened here.
      return (await snapshotInRunningApp(served.storeHome, root, asked)) ?? (await served.open(root)).workspace.snapshot(asked);
    }),
  );

  server.registerTool(
    'list_checkpoints',
    {
      description: 'List checkpoints, newest first (id, time, trigger, title: what changed and by whom, note: the call it was taken before, agent, stats).',
      inputSchema: { ...workspaceArg, limit: z.number().int().min(1).max(1000).optional() },
    },
    guarded(async (args: { workspace?: string; limit?: number }) => {
      const { workspace } = await served.open(args.workspace);
      const limit = args.limit ?? 50;
      const found = await workspace.list({ limit: limit + 1 });
      return describeList(workspace, found.slice(0, limit), found, found.length <= limit);
    }),
  );

  server.registerTool(
    'show_checkpoint',
    { description: 'One checkpoint and the files it changed against the one before it, with the prompt it was made under and the call that made it (its intent), where recorded.', inputSchema: { ...workspaceArg, id: Ref } },
    guarded(async (args: { workspace?: string; id: string }) => {
      const { store, workspace } = await served.open(args.workspace);
      const shown = await workspace.show(args.id);
      const why = await whyOf(store.home, workspace, shown.checkpoint.id);
      // As `chronoscope show --json`: the prompt it was made under and the intent of the call that made it.
      return { ...shown, checkpoint: { ...shown.checkpoint, ...(await describeOne(workspace, shown.checkpoint)) }, prompt: why.prompt, call: why.call, intent: why.call?.intent ?? null };
    }),
  );

  server.registerTool(
    'diff',
    {
      description: "What changed: from checkpoint `id` to `to` (another checkpoint or 'workspace' for the files on disk; default: what `id` itself changed). With `paths`, a unified diff of each of those files too.",
      inputSchema: { ...workspaceArg, id: Ref, to: z.union([z.literal(WORKSPACE), Ref]).optional(), paths: Paths.max(20).optional() },
    },
    guarded(async (args: { workspace?: string; id: string; to?: string; paths?: string[] }) => {
      const { workspace } = await served.open(args.workspace);
      const target = await workspace.resolve(args.id);
      let from: string | null;
      let to: string;
      if (args.to === undefined) {
        from = await previousId(workspace, target.id);
        to = target.id;
      } else {
        from = target.id;
        to = args.to;
      }
      const result = from === null ? { from: null, to, files: (await workspace.show(to)).files } : await workspace.diff(from, to);
      if (!args.paths?.length) return result;
      const diffs = await Promise.all(args.paths.map(async (p) => ({ path: p, diff: fileDiffText(await workspace.fileDiff(from ?? to, to, p)) })));
      return { ...result, file_diffs: diffs };
    }),
  );

  server.registerTool(
    'list_effects',
    { description: 'Irreversible effects recorded for the workspace (git push, npm publish, …), oldest first, each with the command that would undo it.', inputSchema: { ...workspaceArg } },
    guarded(async (args: { workspace?: string }) => {
      const { store, workspace } = await served.open(args.workspace);
      return new EffectLedger(store.home, workspace.meta.id).list();
    }),
  );

  server.registerTool(
    'fork',
    {
      description: "Write a checkpoint's files into a new folder beside the workspace (default <workspace>-fork-<short id>, or the folder name `to`); refused if anything exists there. The workspace is not changed.",
      inputSchema: { ...workspaceArg, id: Ref, to: z.string().min(1).max(255).optional().describe("the new folder's name, beside the workspace") },
    },
    guarded(async (args: { workspace?: string; id: string; to?: string }) => {
      const { workspace } = await served.open(args.workspace);
      return workspace.fork(args.id, args.to !== undefined ? { to: siblingFolder(workspace.root, args.to) } : {});
    }),
  );

  server.registerTool(
    'verify',
    {
      description: "Run the workspace's verifier (set by the person; agents cannot choose it) against a checkpoint in a scratch copy outside the workspace. Answers passed, exit code, duration and the last lines of output.",
      inputSchema: { ...workspaceArg, id: Ref },
    },
    guarded(async (args: { workspace?: string; id: string }, signal) => {
      const { store, workspace } = await served.open(args.workspace);
      return verifyCheckpoint(store, workspace, args.id, { signal });
    }),
  );

  server.registerTool(
    'bisect',
    {
      description: "Find the first checkpoint where the workspace's verifier fails, between a passing `good` and a later failing `bad` (both trusted, not re-run).",
      inputSchema: { ...workspaceArg, good: Ref, bad: Ref },
    },
    guarded(async (args: { workspace?: string; good: string; bad: string }, signal, extra) => {
      const { store, workspace } = await served.open(args.workspace);
      const progress = progressSender(extra);
      try {
        return await bisect(workspace, args.good, args.bad, (id, s) => verifyCheckpoint(store, workspace, id, s ? { signal: s } : {}), {
          signal,
          // Only as a run starts: the SDK's client handles notifications a tick later than
          // responses, so one sent just before the answer would reach it after its token was dropped.
          onProgress: (p) => {
            if (p.passed === undefined) progress.send(p.done, p.done + p.remaining_at_most + 1, `verifying ${p.id.slice(0, 8)}`);
          },
        });
      } finally {
        await progress.flush();
      }
    }),
  );

  server.registerTool(
    'request_restore',
    {
      description:
        'Ask the person to restore a checkpoint (the whole tree, or `paths`). Never restores by itself: the person sees the request with a preview in the Chronoscope app (or answers with `chronoscope approve`/`deny`). Waits up to `timeout_s` and answers with the outcome: approved (with what was restored and how to undo it), denied or expired.',
      inputSchema: { ...workspaceArg, id: Ref, paths: Paths.optional(), timeout_s: z.number().int().min(1).max(3600).optional() },
    },
    guarded(async (args: { workspace?: string; id: string; paths?: string[]; timeout_s?: number }, signal) => {
      const { store, workspace } = await served.open(args.workspace);
      const checkpoint = await workspace.resolve(args.id);
      return askPerson(store.home, workspace, checkpoint.id, args, signal);
    }),
  );

  /** Files a restore request for the person and waits for the answer: the one way an agent's restore happens. */
  const askPerson = async (
    home: string,
    workspace: Workspace,
    checkpoint: string,
    args: { paths?: string[]; timeout_s?: number },
    signal: AbortSignal,
    beforePrompt?: ApprovalRequest['before_prompt'],
  ): Promise<ApprovalRequest> => {
    const timeoutMs = (args.timeout_s ?? DEFAULT_RESTORE_WAIT_S) * 1000;
    const request = await fileRequest(home, { workspace: workspace.root, checkpoint, paths: args.paths ?? [], agent: agentName(), waitMs: timeoutMs, ...(beforePrompt ? { before_prompt: beforePrompt } : {}) });
    return waitForAnswer(home, request.id, { timeoutMs, signal });
  };

  server.registerTool(
    'list_prompts',
    {
      description:
        "The prompts the person gave agents in the workspace, newest first: id, text, agent, session, time, `before` (the checkpoint latest when it was given), first and last checkpoint its calls took, files changed, failed calls.",
      inputSchema: { ...workspaceArg, limit: z.number().int().min(1).max(1000).optional() },
    },
    guarded(async (args: { workspace?: string; limit?: number }) => {
      const { store, workspace } = await served.open(args.workspace);
      return (await listPrompts(store.home, workspace)).slice(0, args.limit ?? 50);
    }),
  );

  server.registerTool(
    'restore_before_prompt',
    {
      description:
        'Ask the person to put the workspace (or `paths`) back as it was before a prompt (an id from list_prompts): every change made under it and since, shell commands\' included. Never restores by itself: like request_restore, the person sees the request with a preview and approves or denies it. Waits up to `timeout_s` and answers with the outcome.',
      inputSchema: { ...workspaceArg, prompt: PromptId, paths: Paths.optional(), timeout_s: z.number().int().min(1).max(3600).optional() },
    },
    guarded(async (args: { workspace?: string; prompt: string; paths?: string[]; timeout_s?: number }, signal) => {
      const { store, workspace } = await served.open(args.workspace);
      const prompt = await findPrompt(store.home, workspace, args.prompt);
      // The person is shown which prompt it goes back before (its label, as lanes show it), not only a checkpoint id.
      const answer = await askPerson(store.home, workspace, beforeCheckpoint(prompt), args, signal, { id: prompt.id, first_line: promptLabel(prompt.text) });
      return { ...answer, prompt: { id: prompt.id, text: prompt.text } };
    }),
  );

  return server;
}
