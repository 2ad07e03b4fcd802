// `chronoscope hook claude-code`: what runs when Claude Code is about to use,
// or has used, a tool that changes things.
//
// PreToolUse (Write, Edit, MultiEdit, NotebookEdit, Bash): a checkpoint first,
// so the moment before the change can be restored. It is a FULL scan of the
// workspace, not one limited to the file about to be edited: a checkpoint
// named "before Edit x" must hold everything as it was just before the edit,
// and other files may have changed since the last checkpoint (by hand, by a
// Bash command, while no watcher ran, or inside the watcher's quiet period).
// A snapshot limited to x would record those other files at their state in the
// previous checkpoint, so restoring "before the edit" would silently undo
// them. The engine's private index keeps git's stat cache, so a full scan only
// hashes what changed and costs little more than the limited one.
//
// For a Bash command the classifier finds irreversible effects in, the answer
// is `permissionDecision: "ask"` naming each effect and its compensation, and
// the effects are recorded as intended. PostToolUse records what became of them.
//
// It fails open: any failure of ours (bad JSON, an unwritable store, the time
// budget running out) means exit 0 and no output — no decision at all, even an
// `ask` already worked out — so the agent goes on exactly as if we were absent.
import { realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { homedir } from 'node:os';
import type { ClassifiedEffect, EffectRecord } from '../../shared/model.js';
import type { Store, Workspace } from '../engine/api.js';
import { classifyInWorkspace } from '../effects/enrich.js';
import { findRepoRoot } from '../effects/git-files.js';
import { EffectLedger } from '../effects/ledger.js';
import { pushStatePath, scanPushes } from '../effects/push-monitor.js';
import { redactCommand } from '../effects/redact.js';
import {
  ClaudeCodePayloadSchema,
  FILE_TOOLS,
  bashCommand,
  toolFilePaths,
  toolSucceeded,
  type ClaudeCodePayload,
  type PreToolUseOutput,
} from './payload.js';

export const AGENT = 'claude-code';
const DEFAULT_BUDGET_MS = 5000;

export interface HookEnvironment {
  /** Opens the store (the engine's openStore). */
  openStore: () => Promise<Store>;
  /** CHRONOSCOPE_HOOK_BUDGET_MS, when set, wins over settings.hook_budget_ms (tests use it). */
  budgetOverrideMs?: number;
  /** One line for stderr (a hint for the person reading Claude Code's debug log). */
  warn: (line: string) => void;
}

export interface HookAnswer {
  /** The JSON to print, or null for no decision. */
  output: PreToolUseOutput | null;
}

/**
 * Runs the hook on the raw stdin text (or its pending read) within the time budget. Never throws and never
 * rejects: every failure becomes `{ output: null }` (fail open).
 */
export async function runClaudeCodeHook(stdin: string | Promise<string>, env: HookEnvironment): Promise<HookAnswer> {
  const started = Date.now();
  let decided: PreToolUseOutput | null = null;
  let budgetMs = env.budgetOverrideMs ?? DEFAULT_BUDGET_MS;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  const timeout = new Promise<'timeout'>((resolveTimeout) => {
    const arm = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => resolveTimeout('timeout'), Math.max(0, budgetMs - (Date.now() - started)));
      timer.unref();
    };
    wake = arm;
    arm();
  });
  const work = (async (): Promise<'done'> => {
    // Reading stdin counts against the budget too: a payload that never ends must not hold the agent.
    const payload = parsePayload(await stdin);
    await handle(payload, env, {
      decide: (output) => {
        decided = output;
      },
      setBudget: (ms) => {
        if (env.budgetOverrideMs !== undefined) return;
        budgetMs = ms;
        wake?.();
      },
    });
    return 'done';
  })();
  let completed = false;
  try {
    const outcome = await Promise.race([work, timeout]);
    if (outcome === 'timeout') env.warn(`chronoscope: hook gave up after ${budgetMs} ms (the agent goes on)`);
    else completed = true;
  } catch (err) {
    env.warn(`chronoscope: hook failed open: ${oneLine(err)}`);
  } finally {
    clearTimeout(timer);
  }
  // Abandoned work may still reject later: that must not crash the process.
  work.catch(() => undefined);
  return { output: completed ? decided : null };
}

function parsePayload(text: string): ClaudeCodePayload {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new Error('stdin is not a JSON object');
  }
  const parsed = ClaudeCodePayloadSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`unexpected hook payload: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}

interface Callbacks {
  decide: (output: PreToolUseOutput) => void;
  setBudget: (ms: number) => void;
}

async function handle(payload: ClaudeCodePayload, env: HookEnvironment, cb: Callbacks): Promise<void> {
  const tool = payload.tool_name ?? '';
  const event = payload.hook_event_name;
  const isFileTool = (FILE_TOOLS as readonly string[]).includes(tool);
  const command = tool === 'Bash' ? bashCommand(payload.tool_input) : null;
  if (!isFileTool && command === null) return;
  if (event !== 'PreToolUse' && event !== 'PostToolUse' && event !== 'PostToolUseFailure') return;
  const cwd = resolve(payload.cwd);

  // Pure and fast: classify before touching the store.
  const effects = command === null ? [] : classifyInWorkspace(command, cwd);
  if (event === 'PreToolUse' && effects.length > 0) cb.decide(askOutput(effects));
  if (event !== 'PreToolUse' && effects.length === 0) return; // PostToolUse of a file tool: nothing to record

  const store = await env.openStore();
  cb.setBudget(store.settings.hook_budget_ms);
  const workspace = await store.workspace(await workspaceDir(store, cwd));
  const ledger = new EffectLedger(store.home, workspace.meta.id);
  const common = {
    agent: AGENT,
    ...(payload.session_id === undefined ? {} : { session: payload.session_id }),
    ...(payload.tool_use_id === undefined ? {} : { tool_use_id: payload.tool_use_id }),
  };

  if (event === 'PreToolUse') {
    const files = await Promise.all(toolFilePaths(payload.tool_input).map((p) => realFilePath(resolve(cwd, p))));
    const inside = files.map((f) => relative(workspace.root, f)).filter((r) => r !== '' && !r.startsWith('..') && !isAbsolute(r));
    // A file tool writing outside the workspace changes nothing a checkpoint of it could restore.
    if (isFileTool && inside.length === 0) return;
    const reason = isFileTool ? `${tool} ${inside.join(', ')}` : `Bash: ${shortCommand(command ?? '')}`;
    // First seen by a hook: this call's checkpoint is the workspace's baseline.
    const baseline = await workspace.ensureBaseline({ reason, tool, ...common });
    const result = baseline.id !== null ? baseline : await workspace.snapshot({ trigger: 'hook', reason, tool, ...common });
    if (effects.length === 0) return;
    const checkpoint = result.id ?? (await latestCheckpoint(workspace));
    for (const e of effects) {
      await ledger.append({ ...e, workspace: workspace.root, source: 'hook', status: 'intended', checkpoint, ...common });
    }
    return;
  }

  // PostToolUse / PostToolUseFailure of a Bash command with effects.
  const status = toolSucceeded(payload) ? 'happened' : 'failed';
  const earlier: EffectRecord[] =
    payload.tool_use_id === undefined ? [] : (await ledger.list()).filter((r) => r.tool_use_id === payload.tool_use_id && r.source === 'hook');
  if (earlier.length > 0) {
    for (const r of earlier) await ledger.setStatus(r.id, status);
  } else {
    const checkpoint = await latestCheckpoint(workspace);
    for (const e of effects) {
      await ledger.append({ ...e, workspace: workspace.root, source: 'hook', status, checkpoint, ...common });
    }
  }
  // A push also shows in the reflog: record it now, even when no app is running to watch.
  if (effects.some((e) => e.kind === 'git_push')) {
    await scanPushes(workspace.root, ledger, pushStatePath(ledger), {
      sinceMs: Date.parse(workspace.meta.created),
      checkpoint: await latestCheckpoint(workspace),
    });
  }
}

function askOutput(effects: ClassifiedEffect[]): PreToolUseOutput {
  const lines = effects.map((e) => {
    const undo = e.compensation === null ? 'no command can undo it' : `undo with: ${e.compensation}`;
    return `${e.summary} [${e.target}]; ${undo}`;
  });
  const head = effects.length === 1 ? 'Chronoscope: this command has an effect no file restore can undo' : `Chronoscope: this command has ${effects.length} effects no file restore can undo`;
  return {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'ask',
      permissionDecisionReason: `${head}: ${lines.join(' | ')}`,
    },
  };
}

/**
 * Which workspace a payload's cwd belongs to: the innermost registered workspace containing it;
 * else the git repository's top folder (unless that is the home folder or above, which the
 * engine refuses); else the cwd itself.
 */
async function workspaceDir(store: Store, cwd: string): Promise<string> {
  const real = await realpath(cwd);
  const registered = (await store.listWorkspaces())
    .map((m) => m.path)
    .filter((p) => real === p || real.startsWith(p.endsWith(sep) ? p : p + sep))
    .sort((a, b) => b.length - a.length);
  if (registered[0] !== undefined) return registered[0];
  const top = findRepoRoot(real);
  const home = resolve(homedir());
  if (top !== null && !(home === top || home.startsWith(top.endsWith(sep) ? top : top + sep))) return top;
  return real;
}

/** The real path of a file that may not exist yet (Write creates it): resolve its folder. */
async function realFilePath(path: string): Promise<string> {
  try {
    return join(await realpath(dirname(path)), basename(path));
  } catch {
    return path;
  }
}

async function latestCheckpoint(workspace: Workspace): Promise<string | null> {
  const [latest] = await workspace.list({ limit: 1 });
  return latest?.id ?? null;
}

/** A short, secret-free form of a command for a checkpoint reason. */
export function shortCommand(command: string): string {
  const first = redactCommand(command).trim().split('\n')[0] ?? '';
  const more = command.trim().includes('\n') ? ' …' : '';
  return first.length > 80 ? `${first.slice(0, 79)}…` : `${first}${more}`;
}

function oneLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n')[0] ?? 'unknown error';
}
