// `chronoscope hook claude-code`: Claude Code's hook protocol translated to
// the agent core and back. Thin on purpose: the core (../core) classifies,
// checkpoints, records and words the answers; this file only maps events.
//
// PreToolUse (Write, Edit, MultiEdit, NotebookEdit, Bash): a checkpoint first
//   (a full scan when alone, see core/local.ts); for a Bash command with
//   irreversible effects, `permissionDecision: "ask"` naming each effect and
//   its compensation. The ask is worked out from the command before the store
//   is touched, and given even when the checkpoint fails or runs past the budget.
// PostToolUse (Bash only: for file tools there is nothing to record, so it is
//   not registered and costs nothing): the intended effects happened — or,
//   for a push whose output says "Everything up-to-date", sent nothing.
// PostToolUseFailure: they failed; and a recovery hint for the model — the
//   checkpoint just before the call and the commands to see and undo.
// PostToolBatch: calls that got neither PostToolUse nor PostToolUseFailure
//   (refused by the person at our ask, or by a rule) never ran: denied.
// UserPromptSubmit, SessionStart: effect memory — effects of this work whose
//   tool call the conversation no longer shows (rewound, cleared, compacted)
//   are named once, with their compensation.
//
// It fails open: any failure of ours means exit 0 and, past the ask, no output.
import { classifyCommand } from '../../effects/classify.js';
import { classifyInWorkspace } from '../../effects/enrich.js';
import { kindsThatSentNothing } from '../../effects/sent-nothing.js';
import type { CallKind, CoreRequest, ToolCall } from '../core/call.js';
import { DEFAULT_BUDGET_MS, withinBudget, type Budget } from '../core/budget.js';
import { cliPrefix } from '../core/node-command.js';
import { runCore, storeHasLedgers, type RunOptions } from '../core/run.js';
import { defaultStoreHome } from '../../engine/layout/paths.js';
import { askText, recoveryHint, reminderText } from '../core/texts.js';
import { FILE_TOOLS, HOOKED_TOOLS, bashCommand, batchCalls, parsePayload, toolFilePaths, toolOutputText, toolSucceeded, type ClaudeCodePayload, type HookOutput } from './payload.js';
import { conversationToolUseIds } from './transcript.js';

export const AGENT = 'claude-code';

export interface HookEnvironment extends RunOptions {
  /** CHRONOSCOPE_HOOK_BUDGET_MS, when set, wins over settings.hook_budget_ms (tests use it). */
  budgetOverrideMs?: number;
  /** One line for stderr (a hint for the person reading Claude Code's debug log). */
  warn: (line: string) => void;
}

/** Runs the hook on stdin (or its pending read). Never throws: the answer is the JSON to print, or null. */
export async function runClaudeCodeHook(stdin: string | Promise<string>, env: HookEnvironment): Promise<HookOutput | null> {
  let ask: HookOutput | null = null;
  let answer: HookOutput | null = null;
  const outcome = await withinBudget(
    async (budget) => {
      // Reading stdin counts against the budget too: a payload that never ends must not hold the agent.
      const payload = parsePayload(await stdin);
      answer = await handle(payload, env, budget, (output) => {
        ask = output;
      });
    },
    env.budgetOverrideMs ?? DEFAULT_BUDGET_MS,
    env.budgetOverrideMs !== undefined,
  );
  if (!outcome.done) env.warn(`chronoscope: hook ${outcome.why}`);
  return outcome.done ? (answer ?? ask) : ask;
}

function toolCall(payload: ClaudeCodePayload, tool: string): ToolCall | null {
  const isFile = (FILE_TOOLS as readonly string[]).includes(tool);
  const command = tool === 'Bash' ? bashCommand(payload.tool_input) : null;
  if (!isFile && command === null) return null;
  const kind: CallKind = isFile ? 'file' : 'shell';
  return {
    agent: AGENT,
    tool,
    kind,
    cwd: payload.cwd,
    files: isFile ? toolFilePaths(payload.tool_input) : [],
    command,
    ...(payload.session_id === undefined ? {} : { session: payload.session_id }),
    ...(payload.tool_use_id === undefined ? {} : { toolCallId: payload.tool_use_id }),
  };
}

function context(event: string, text: string): HookOutput {
  return { hookSpecificOutput: { hookEventName: event, additionalContext: text } };
}

async function handle(payload: ClaudeCodePayload, env: HookEnvironment, budget: Budget, decide: (ask: HookOutput) => void): Promise<HookOutput | null> {
  const event = payload.hook_event_name;
  const run = (request: CoreRequest) => runCore(request, budget, env);

  if (event === 'UserPromptSubmit' || event === 'SessionStart') {
    // The prompt labels this session's next checkpoints on the timeline (one small file write).
    // Loaded here only: the tool-call hooks, the hot path, never load it.
    if (event === 'UserPromptSubmit' && payload.session_id !== undefined && payload.prompt !== undefined) {
      const { rememberPrompt } = await import('../core/session-prompt.js');
      await rememberPrompt(env.home ?? defaultStoreHome(), payload.session_id, payload.prompt).catch(() => undefined);
    }
    if (payload.session_id === undefined || payload.transcript_path === undefined) return null;
    // Nothing recorded anywhere: not even the transcript needs reading (this runs on every prompt).
    if (!storeHasLedgers(env.home ?? defaultStoreHome())) return null;
    const present = await conversationToolUseIds(payload.transcript_path);
    if (present === null) return null;
    const result = await run({ op: 'memory', agent: AGENT, cwd: payload.cwd, session: payload.session_id, present });
    return result.op === 'memory' && result.effects.length > 0 ? context(event, reminderText(result.effects)) : null;
  }
  if (event === 'PostToolBatch') {
    // A call of the batch that got neither PostToolUse nor PostToolUseFailure never ran: refused at
    // our ask or by a rule. Claude Code (2.1.197) then gives only the refusal's text, in wording we
    // cannot count on, so what decides is that its effects are still intended: the core marks only
    // those denied, and a PostToolUse that comes after the batch still makes them happened. Only
    // calls that can have recorded effects are sent, so most batches never open the store.
    const ids = batchCalls(payload.tool_calls)
      .filter((c) => c.refused || (c.command !== null && classifyCommand(c.command).length > 0))
      .map((c) => c.id);
    if (ids.length > 0) await run({ op: 'denied', agent: AGENT, cwd: payload.cwd, toolCallIds: ids });
    return null;
  }

  const tool = payload.tool_name ?? '';
  if (!(HOOKED_TOOLS as readonly string[]).includes(tool)) return null;
  const call = toolCall(payload, tool);
  if (call === null) return null;
  // Pure and fast: classify before touching the store.
  const effects = call.command === null ? [] : classifyInWorkspace(call.command, call.cwd);

  if (event === 'PreToolUse') {
    const ask: HookOutput | null =
      effects.length === 0 ? null : { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: askText(effects) } };
    if (ask !== null) decide(ask);
    await run({ op: 'before', call, effects });
    return ask;
  }
  if (event === 'PostToolUse' || event === 'PostToolUseFailure') {
    const outcome = toolSucceeded(payload) ? 'ok' : 'failed';
    // A push that said "Everything up-to-date" ran but sent nothing (effects/sent-nothing.ts).
    const sentNothing = outcome === 'ok' && effects.length > 0 ? kindsThatSentNothing(effects, toolOutputText(payload.tool_response)) : [];
    const request: CoreRequest = { op: 'after', call, outcome, effects, ...(sentNothing.length > 0 ? { sentNothing } : {}) };
    const result = await run(request);
    if (outcome === 'failed' && result.op === 'after' && result.before !== null) {
      return context(event, recoveryHint(tool, result.workspace, result.before, cliPrefix()));
    }
  }
  return null;
}
