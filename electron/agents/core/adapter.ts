// The one hook runner every agent goes through. An agent is an adapter: it
// parses its payload, says what the payload means as one AgentEvent (a new
// prompt, a tool call about to run or just finished, calls that never ran),
// and wraps the core's answers (the question before an irreversible effect,
// a recovery hint, a reminder) in its own protocol. Everything else — the
// budget and failing open, classifying the command before the store is
// touched, the prompt as the lane's label, the checkpoint, the ledger, the
// hand-off to a running service — happens here and in run.ts, once.
//
// The runner never throws: past the budget, or on any failure of ours, the
// answer is what was decided before (an ask is worked out from the command
// alone, before the checkpoint) or nothing, and the agent goes on.
import { classifyInWorkspace } from '../../effects/enrich.js';
import { kindsThatSentNothing } from '../../effects/sent-nothing.js';
import type { ClassifiedEffect } from '../../../shared/model.js';
import { defaultStoreHome } from '../../engine/layout/paths.js';
import type { CallDetails, ToolCall } from './call.js';
import { DEFAULT_BUDGET_MS, withinBudget } from './budget.js';
import { cliPrefix } from './node-command.js';
import { runCore, storeHasLedgers, type RunOptions } from './run.js';
import { askText, recoveryHint, reminderText } from './texts.js';
import { PERSON_ONLY_REASON, personOnly } from './person-only.js';

/** What one hook payload means to the core. */
export type AgentEvent =
  /** A new turn: the prompt labels the session's next checkpoints; `present` (when given) asks for effect memory. */
  | {
      kind: 'prompt';
      cwd: string;
      session?: string;
      prompt?: string;
      /** The tool-call ids still in the conversation; read only when the store holds a ledger at all. null: unknown. */
      present?: () => Promise<string[] | null>;
    }
  /** A call about to run. */
  | { kind: 'before'; call: ToolCall }
  /**
   * A call that ran; `output` (what it printed) tells a push that sent nothing, and its end is kept
   * when the call failed; `exitCode` where the payload gives one; `intent` reads the assistant's
   * words just before the call from the agent's transcript (bounded), where it keeps one.
   */
  | { kind: 'after'; call: ToolCall; outcome: 'ok' | 'failed'; output?: string; exitCode?: number | null; intent?: () => Promise<string | null>; transcript?: string }
  /** Calls that never ran (refused). */
  | { kind: 'denied'; cwd: string; toolCallIds: string[] }
  /**
   * The agent's turn ended (Claude Code's and Codex's Stop, Gemini's AfterAgent, Copilot's agentStop,
   * OpenCode's session.idle): its last call's change, if it took none, is checkpointed as that call's.
   */
  | { kind: 'turn_end'; cwd: string; session?: string };

/** How an agent hears the core's answers. Each gives the agent's own output, or null for none. */
export interface AgentAnswers<Payload, Output> {
  /**
   * Before a command with irreversible effects: the agent's ask (or approval step, or a deny that
   * tells the model to ask the person); null lets it run (an agent whose person already agreed).
   */
  ask(text: string, effects: readonly ClassifiedEffect[], payload: Payload): Output | null | Promise<Output | null>;
  /** Refuses the call outright with `text` as the reason (a call only a person may make: core/person-only.ts). */
  refuse(text: string, payload: Payload): Output;
  /** Whether an answer refuses the call outright (it will get no after-event): its effects are recorded denied at once. */
  denies?(output: Output): boolean;
  /** After a failed call: the checkpoint just before it and how to see and undo. */
  hint?(text: string, payload: Payload): Output | null;
  /** Effects the conversation no longer shows, for the model's next request. */
  reminder?(text: string, payload: Payload): Output | null;
}

export interface AgentAdapter<Payload, Output> {
  /** The id in the `agent` field of checkpoints and effects, and of `chronoscope hook <id>`. */
  readonly id: string;
  /** Parses stdin; throws one line saying what is wrong. */
  parse(text: string): Payload;
  /** What the payload means; null: nothing for us (a tool we do not hook, an event we ignore). */
  event(payload: Payload): AgentEvent | null | Promise<AgentEvent | null>;
  readonly answers: AgentAnswers<Payload, Output>;
  /** What to print when there is no answer (Hermes' plugin always reads one object); default nothing. */
  readonly none?: Output;
}

export interface HookEnvironment extends RunOptions {
  /** CHRONOSCOPE_HOOK_BUDGET_MS, when set, wins over settings.hook_budget_ms (tests use it). */
  budgetOverrideMs?: number;
  /** One line for stderr (a hint for the person reading the agent's debug log). */
  warn: (line: string) => void;
}

/** Runs one hook call of `adapter` on stdin (or its pending read). Never throws: the answer to print, or null. */
export async function runAdapterHook<P, O>(adapter: AgentAdapter<P, O>, stdin: string | Promise<string>, env: HookEnvironment): Promise<O | null> {
  let early: O | null = null;
  let answer: O | null = null;
  const outcome = await withinBudget(
    async (budget) => {
      // Reading stdin counts against the budget too: a payload that never ends must not hold the agent.
      const payload = adapter.parse(await stdin);
      const event = await adapter.event(payload);
      if (event === null) return;
      answer = await handle(adapter, payload, event, env, (r) => runCore(r, budget, env), (o) => {
        early = o;
      });
    },
    env.budgetOverrideMs ?? DEFAULT_BUDGET_MS,
    env.budgetOverrideMs !== undefined,
  );
  if (!outcome.done) env.warn(`chronoscope: hook ${outcome.why}`);
  return (outcome.done ? (answer ?? early) : early) ?? adapter.none ?? null;
}

async function handle<P, O>(
  adapter: AgentAdapter<P, O>,
  payload: P,
  event: AgentEvent,
  env: HookEnvironment,
  run: (r: Parameters<typeof runCore>[0]) => ReturnType<typeof runCore>,
  decide: (early: O) => void,
): Promise<O | null> {
  const home = env.home ?? defaultStoreHome();
  switch (event.kind) {
    case 'prompt': {
      // The prompt labels this session's next checkpoints on the timeline (one small file write), and
      // is an entry of the workspace's prompt ledger with the latest checkpoint then (its `before`).
      // Loaded here only: the tool-call hooks, the hot path, never load it.
      if (event.session !== undefined && event.prompt !== undefined && event.prompt.trim() !== '') {
        const [{ promptOf, rememberPrompt }, { newPromptId }] = await Promise.all([import('./session-prompt.js'), import('../../prompts/ledger.js')]);
        const id = newPromptId();
        const previous = await promptOf(home, event.session);
        await rememberPrompt(home, event.session, event.prompt, id).catch(() => undefined);
        await run({ op: 'prompt', agent: adapter.id, cwd: event.cwd, session: event.session, text: event.prompt, id, ...(previous === null ? {} : { previous }) }).catch((err: unknown) => env.warn(`chronoscope: prompt not recorded: ${String(err instanceof Error ? err.message : err)}`));
      }
      if (event.session === undefined || event.present === undefined || adapter.answers.reminder === undefined) return null;
      // Nothing recorded anywhere: not even the transcript needs reading (this runs on every prompt).
      if (!storeHasLedgers(home)) return null;
      const present = await event.present();
      if (present === null) return null;
      const result = await run({ op: 'memory', agent: adapter.id, cwd: event.cwd, session: event.session, present });
      return result.op === 'memory' && result.effects.length > 0 ? adapter.answers.reminder(reminderText(result.effects), payload) : null;
    }
    case 'denied':
      if (event.toolCallIds.length > 0) await run({ op: 'denied', agent: adapter.id, cwd: event.cwd, toolCallIds: event.toolCallIds });
      return null;
    case 'turn_end':
      await run({ op: 'turn_end', agent: adapter.id, cwd: event.cwd, ...(event.session === undefined ? {} : { session: event.session }) });
      return null;
    case 'before': {
      // An agent never answers a restore request: refused before anything else, whatever the budget.
      if (personOnly(event.call, home)) {
        const refusal = adapter.answers.refuse(PERSON_ONLY_REASON, payload);
        decide(refusal);
        return refusal;
      }
      // Pure and fast: classify before touching the store, so the ask never waits for it.
      const effects = effectsOf(event.call);
      const ask = effects.length === 0 ? null : await adapter.answers.ask(askText(effects), effects, payload);
      if (ask !== null) decide(ask);
      await run({ op: 'before', call: event.call, effects });
      if (ask !== null && adapter.answers.denies?.(ask) === true && event.call.toolCallId !== undefined) {
        await run({ op: 'denied', agent: adapter.id, cwd: event.call.cwd, toolCallIds: [event.call.toolCallId] });
      }
      return ask;
    }
    case 'after': {
      const { call, outcome } = event;
      const effects = effectsOf(call);
      // A push that said "Everything up-to-date" ran but sent nothing (effects/sent-nothing.ts).
      const sentNothing = outcome === 'ok' && effects.length > 0 && event.output !== undefined ? kindsThatSentNothing(effects, event.output) : [];
      const details = await callDetails(event);
      const result = await run({ op: 'after', call, outcome, effects, ...(sentNothing.length > 0 ? { sentNothing } : {}), details });
      if (outcome === 'failed' && result.op === 'after' && result.before !== null && adapter.answers.hint !== undefined) {
        return adapter.answers.hint(recoveryHint(call.tool, result.workspace, result.before, cliPrefix()), payload);
      }
      return null;
    }
  }
}

/** Longest output end sent on (the ledger keeps CALL_OUTPUT_TAIL_MAX of it, cut at a line start). */
const OUTPUT_SENT_MAX = 8000;

/** What the post-call event told beyond the outcome; the intent is read only here, never on the before-path. */
async function callDetails(event: Extract<AgentEvent, { kind: 'after' }>): Promise<CallDetails> {
  const intent = event.intent === undefined ? null : await event.intent().catch(() => null);
  const output = event.outcome === 'failed' && event.output !== undefined ? event.output.slice(-OUTPUT_SENT_MAX) : '';
  return {
    ...(typeof event.exitCode === 'number' ? { exit_code: event.exitCode } : {}),
    ...(output.trim() === '' ? {} : { output_tail: output }),
    ...(intent === null || intent.trim() === '' ? {} : { intent: intent.slice(-OUTPUT_SENT_MAX) }),
    ...(event.transcript === undefined || event.transcript === '' ? {} : { transcript: event.transcript }),
  };
}

function effectsOf(call: ToolCall): ClassifiedEffect[] {
  return call.command === null ? [] : classifyInWorkspace(call.command, call.cwd);
}

/** A ToolCall's optional fields, only when known. */
export function callIds(session: string | undefined, toolCallId: string | undefined): Pick<ToolCall, 'session' | 'toolCallId'> {
  return { ...(session === undefined ? {} : { session }), ...(toolCallId === undefined ? {} : { toolCallId }) };
}

/** The turn-end event of a session (its id, where the agent gives one). */
export function turnEnded(cwd: string, session: string | undefined): AgentEvent {
  return { kind: 'turn_end', cwd, ...(session === undefined ? {} : { session }) };
}

/** An adapter with its types erased: what `chronoscope hook <id>` runs. */
export interface HookRunner {
  readonly id: string;
  run(stdin: string | Promise<string>, env: HookEnvironment): Promise<unknown>;
}

export function hookRunner<P, O>(adapter: AgentAdapter<P, O>): HookRunner {
  return { id: adapter.id, run: (stdin, env) => runAdapterHook(adapter, stdin, env) };
}
