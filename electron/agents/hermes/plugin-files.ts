// The Hermes Agent plugin `hooks install hermes` writes into
// $HERMES_HOME/plugins/chronoscope/: a manifest and a Python module with
// register(ctx). Python standard library only. Every hook calls the
// Chronoscope CLI (absolute Node and CLI paths, written in at install time)
// with a hard subprocess timeout — Hermes puts none on hooks, so a hanging
// hook would block the agent — and fails open: any failure of ours returns
// None. Callbacks take **kwargs only: Hermes adds fields, and a callback that
// rejects one is silently dropped.
import { hookEnv, type NodeCli } from '../core/node-command.js';

export const PLUGIN_NAME = 'chronoscope';
/** The assistant's words kept per call for its intent (the ledger redacts them, then keeps INTENT_MAX of their end). */
const INTENT_KEEP = 1000;

export function pluginManifest(version: string): string {
  return [
    `name: ${PLUGIN_NAME}`,
    `version: ${JSON.stringify(version)}`,
    'description: "Chronoscope: a checkpoint before every file-changing tool call, approval before irreversible commands, recovery hints and effect memory"',
    '',
  ].join('\n');
}

/** JSON string literals are valid Python string literals (paths with quotes, spaces, non-ASCII included). */
export function pluginModule(paths: NodeCli): string {
  // Function replacements: a `$&` in a path must stay as written.
  return PLUGIN_TEMPLATE.replace('__NODE__', () => JSON.stringify(paths.node))
    .replace('__CLI__', () => JSON.stringify(paths.cli))
    .replace('__HOOK_ENV__', () => JSON.stringify(hookEnv(paths)))
    .replace('__INTENT_KEEP__', () => String(INTENT_KEEP));
}

const PLUGIN_TEMPLATE = String.raw`"""Chronoscope for Hermes Agent (written by 'chronoscope hooks install hermes'; removed by uninstall).

Before write_file, patch, terminal and execute_code: a checkpoint of the workspace.
Before an irreversible terminal command (git push, npm publish, ...): Hermes' own approval
prompt naming the effect and the command that would undo it. After a failed call: a hint
with the checkpoint just before it and how to see and undo. Before a model call: a reminder
of effects the conversation no longer shows, and the turn's prompt noted as the label of the
checkpoints that follow. After each model call: the assistant's words before its tool calls,
sent with each call as its intent. /chronoscope list | diff | restore.
"""
import json
import os
import re
import shlex
import subprocess
import threading
import time

NODE = __NODE__
CLI = __CLI__
# Set for the hook process (a certificate file Node would read at every start, unused by the hook;
# the store CHRONOSCOPE_HOME named at install time, so Hermes without the variable uses the same).
HOOK_ENV = __HOOK_ENV__
TOOLS = ("write_file", "patch", "terminal", "execute_code")
# Hermes waits for hooks without a limit; ours never holds the agent longer than this.
HOOK_TIMEOUT_S = float(os.environ.get("CHRONOSCOPE_HERMES_TIMEOUT_S", "10"))
COMMAND_TIMEOUT_S = 120.0
COMMANDS = ("list", "show", "diff", "restore", "status", "effects")

_lock = threading.Lock()
_hints = {}  # tool_call_id -> (time, hint): from post_tool_call to transform_tool_result
# The intent of a call: the assistant's last words in the turn before it. No hook before a tool
# call gives the conversation; post_api_request gives each model call's assistant message (its
# content and its tool_calls' ids) before the tools run. Only its end is kept, never more.
INTENT_KEEP = __INTENT_KEEP__
_said = {}  # session id -> the assistant's last words in the current turn (reset by pre_llm_call)
_intents = {}  # tool_call_id -> (time, words said before it): from post_api_request to post_tool_call
# Reasoning some models write inline is not what they said (an unclosed block runs to the end).
_THINKING = re.compile(r"<(think|thinking|reasoning|REASONING_SCRATCHPAD)>.*?(?:</\1>|$)", re.S)


def _cwd(args=None):
    workdir = args.get("workdir") if isinstance(args, dict) else None
    if isinstance(workdir, str) and workdir:
        return workdir
    return os.environ.get("TERMINAL_CWD") or os.getcwd()


def _hook(request):
    """Runs 'chronoscope hook hermes' with one JSON request; its JSON answer, or {} on any failure."""
    try:
        done = subprocess.run(
            [NODE, CLI, "hook", "hermes"],
            input=json.dumps(request),
            capture_output=True,
            text=True,
            timeout=HOOK_TIMEOUT_S,
            env={**os.environ, **HOOK_ENV},
        )
        answer = json.loads(done.stdout or "{}")
        return answer if isinstance(answer, dict) else {}
    except Exception:
        return {}


def _ids(request, kwargs):
    for key in ("session_id", "tool_call_id"):
        value = kwargs.get(key)
        if isinstance(value, str) and value:
            request[key] = value
    return request


def _pre_tool_call(**kwargs):
    tool = kwargs.get("tool_name")
    if tool not in TOOLS:
        return None
    args = kwargs.get("args") if isinstance(kwargs.get("args"), dict) else {}
    request = _ids({"event": "pre_tool_call", "cwd": _cwd(args), "tool_name": tool, "args": args}, kwargs)
    directive = _hook(request).get("directive")
    return directive if isinstance(directive, dict) else None


def _post_tool_call(**kwargs):
    with _lock:
        item = _intents.pop(kwargs.get("tool_call_id"), None) if isinstance(kwargs.get("tool_call_id"), str) else None
    intent = None if item is None else item[1]
    tool = kwargs.get("tool_name")
    if tool not in TOOLS:
        return None
    args = kwargs.get("args") if isinstance(kwargs.get("args"), dict) else {}
    status = kwargs.get("status") if isinstance(kwargs.get("status"), str) else "ok"
    request = _ids({"event": "post_tool_call", "cwd": _cwd(args), "tool_name": tool, "args": args, "status": status}, kwargs)
    # How it ended, for the prompt ledger: the result's end (its exit code and output) and the error's words.
    for key in ("result", "error_message"):
        value = kwargs.get(key)
        if isinstance(value, str) and value:
            request[key] = value[-8000:]
    if intent:
        request["intent"] = intent
    hint = _hook(request).get("hint")
    call_id = kwargs.get("tool_call_id")
    if isinstance(hint, str) and hint and isinstance(call_id, str) and call_id:
        with _lock:
            now = time.monotonic()
            for old in [k for k, (t, _) in _hints.items() if now - t > 600]:
                del _hints[old]
            _hints[call_id] = (now, hint)
    return None


def _transform_tool_result(**kwargs):
    call_id = kwargs.get("tool_call_id")
    result = kwargs.get("result")
    if not isinstance(call_id, str) or not isinstance(result, str):
        return None
    with _lock:
        item = _hints.pop(call_id, None)
    return None if item is None else result + "\n\n" + item[1]


def _tool_call_ids(history):
    """Tool-call ids still in the conversation Hermes is about to send."""
    ids = []
    for message in history if isinstance(history, list) else []:
        if not isinstance(message, dict):
            continue
        call_id = message.get("tool_call_id")
        if isinstance(call_id, str):
            ids.append(call_id)
        for call in message.get("tool_calls") or []:
            value = call.get("id") if isinstance(call, dict) else getattr(call, "id", None)
            if isinstance(value, str):
                ids.append(value)
    return ids


def _prompt_text(message):
    """The text of the turn's user message: a string, or a list of content parts (multimodal)."""
    if isinstance(message, str):
        return message
    if isinstance(message, list):
        return "\n".join(p["text"] for p in message if isinstance(p, dict) and isinstance(p.get("text"), str))
    return ""


def _field(value, key):
    """A message's or tool call's field: Hermes passes SDK objects or SimpleNamespaces, or (sanitized) dicts."""
    return value.get(key) if isinstance(value, dict) else getattr(value, key, None)


def _post_api_request(**kwargs):
    """After a model call, before its tool calls run: the words they follow, kept for each call id."""
    message = kwargs.get("assistant_message")
    if message is None and isinstance(kwargs.get("response"), dict):
        message = kwargs["response"].get("assistant_message")  # the sanitized copy, when the raw one is absent
    if message is None:
        return None
    session = kwargs.get("session_id") if isinstance(kwargs.get("session_id"), str) else ""
    words = _THINKING.sub("", _prompt_text(_field(message, "content"))).strip()
    calls = _field(message, "tool_calls")
    ids = [i for i in (_field(c, "id") for c in (calls if isinstance(calls, (list, tuple)) else [])) if isinstance(i, str) and i]
    with _lock:
        if words:
            _said.pop(session, None)
            _said[session] = words[-INTENT_KEEP:]
            while len(_said) > 64:
                del _said[next(iter(_said))]
        said = _said.get(session)
        now = time.monotonic()
        for old in [k for k, (t, _) in _intents.items() if now - t > 600]:
            del _intents[old]
        for call_id in ids if said else []:
            _intents[call_id] = (now, said)
    return None


def _pre_llm_call(**kwargs):
    session = kwargs.get("session_id")
    if not isinstance(session, str) or not session:
        return None
    with _lock:
        _said.pop(session, None)  # a new turn: words said before it are not its calls' intent
    request = {"event": "pre_llm_call", "cwd": _cwd(), "session_id": session, "present": _tool_call_ids(kwargs.get("conversation_history"))}
    # The turn's prompt labels the checkpoints its tool calls take (only its first line is kept).
    prompt = _prompt_text(kwargs.get("user_message")).strip()
    if prompt:
        request["prompt"] = prompt[:4000]
    context = _hook(request).get("context")
    return {"context": context} if isinstance(context, str) and context else None


def _post_llm_call(**kwargs):
    # The turn's end: alone, what its last terminal call changed is checkpointed as that call's.
    request = _ids({"event": "post_llm_call", "cwd": _cwd()}, kwargs)
    _hook(request)
    return None


def _command(raw_args="", *rest, **kwargs):
    """/chronoscope list | show N | diff N [workspace] [--file F] | restore N [--path F] [--yes] | status | effects"""
    if not isinstance(raw_args, str):
        raw_args = " ".join(str(a) for a in (raw_args, *rest))
    try:
        words = shlex.split(raw_args)
    except ValueError as err:
        return "chronoscope: " + str(err)
    if not words or words[0] not in COMMANDS:
        return "usage: /chronoscope list | show N | diff N [workspace] [--file F] | restore N [--path F] [--yes] (a preview unless --yes) | status | effects"
    if "-w" not in words and "--workspace" not in words:
        words += ["--workspace", _cwd()]
    try:
        done = subprocess.run([NODE, CLI, *words], capture_output=True, text=True, timeout=COMMAND_TIMEOUT_S, env={**os.environ, **HOOK_ENV, "NO_COLOR": "1"})
        return (done.stdout + done.stderr).strip() or "(nothing)"
    except Exception as err:
        return "chronoscope: " + str(err)


def register(ctx):
    ctx.register_hook("pre_tool_call", _pre_tool_call)
    ctx.register_hook("post_tool_call", _post_tool_call)
    ctx.register_hook("transform_tool_result", _transform_tool_result)
    ctx.register_hook("pre_llm_call", _pre_llm_call)
    try:
        ctx.register_hook("post_api_request", _post_api_request)
    except Exception:
        pass  # a Hermes without the hook: the calls are recorded without their intent
    try:
        ctx.register_hook("post_llm_call", _post_llm_call)
    except Exception:
        pass  # a Hermes without the hook: a turn's last terminal change joins the next checkpoint
    ctx.register_command("chronoscope", _command, description="Chronoscope checkpoints: list, diff, restore (a preview unless --yes)")
`;

/** The Node and CLI paths a written plugin module names (for `hooks status`); null if it is not ours. */
export function pluginPaths(moduleText: string): NodeCli | null {
  const node = /^NODE = (".*")$/m.exec(moduleText)?.[1];
  const cli = /^CLI = (".*")$/m.exec(moduleText)?.[1];
  if (node === undefined || cli === undefined) return null;
  try {
    const env = JSON.parse(/^HOOK_ENV = (\{.*\})$/m.exec(moduleText)?.[1] ?? '{}') as Record<string, unknown>;
    const store = env['CHRONOSCOPE_HOME'];
    return { node: JSON.parse(node) as string, cli: JSON.parse(cli) as string, ...(typeof store === 'string' ? { store } : {}) };
  } catch {
    return null;
  }
}
