// Only a person answers a restore request (request_restore files it; the
// app, its tray notification or the person's own terminal answers it). An
// agent that runs `chronoscope approve <id>` through its shell tool would
// approve its own restore, so every agent's hook refuses such a call:
// - the CLI's `approve` / `deny` in any shell form the classifier sees
//   through (`npx chronoscope approve`, `node …/cli/bin.cjs deny`, inside
//   `bash -c`, after `&&`, behind `sudo`/`env`/`VAR=…`); `approve --list`
//   (reading) still runs;
// - a command that names the store's approval files (`<store>/approvals/…`,
//   `approvals.lock`) or the browser host's `approvals:answer` channel;
// - a file tool writing into the store.
// It guards the plain ways, not every way a program running as the same user
// could take: a guard on the agent's own tools, not a sandbox.
import path from 'node:path';
import { basename, simpleCommands } from '../../effects/shell-split.js';
import type { ToolCall } from './call.js';

export const PERSON_ONLY_REASON =
  'Chronoscope: only a person answers a restore request; an agent may not approve or deny one, nor touch the approval files. ' +
  'Do not try another way: tell the person the request is waiting, so they answer it in the Chronoscope app, its notification, or a terminal of their own.';

/** Package runners whose next word (after their own options and a sub-command such as `exec`) is the program they run. */
const RUNNERS = new Set(['npx', 'npm', 'pnpm', 'pnpx', 'yarn', 'bunx', 'bun', 'node', 'nodejs', 'deno', 'tsx', 'ts-node']);
const RUNNER_VERBS = new Set(['exec', 'x', 'dlx', 'run']);
/** Runner options that take a value as the next word. */
const RUNNER_ARGS = new Set(['-p', '--package', '-r', '--require', '--import', '--loader', '--experimental-loader', '-c', '--call', '-C', '--dir', '--cwd', '--prefix', '-w', '--workspace']);
/** The CLI's entry as built (`dist/electron/cli/bin.cjs`), wherever the package lies. */
const CLI_ENTRY = /(?:^|[/\\])cli[/\\](?:bin\.cjs|main\.js)$/;
/** The store's approval files: `<store>/approvals/<id>.json` and `<store>/approvals.lock`; the store's folder is named Chronoscope. */
const APPROVAL_FILES = /chronoscope[/\\]approvals(?:$|[/\\.'"\s])|\$\{?CHRONOSCOPE_HOME\}?[/\\]approvals/i;
const ANSWER_CHANNEL = 'approvals:answer';

function namesChronoscope(word: string): boolean {
  const name = basename(word).toLowerCase();
  return name === 'chronoscope' || /^chronoscope(?:@[^/]*|\.cmd|\.exe|\.c?js|\.mjs)$/.test(name) || /(?:^|[/@])chronoscope(?:@[^/]*)?$/i.test(word) || CLI_ENTRY.test(word);
}

/** The index of the program a runner (`npx`, `node`, `pnpm exec`…) runs, or of argv[0] itself. */
function programIndex(argv: readonly string[]): number {
  if (!RUNNERS.has(basename(argv[0] ?? ''))) return 0;
  let k = 1;
  while (k < argv.length) {
    const w = argv[k] ?? '';
    if (w === '--') return k + 1;
    if (w.startsWith('-')) {
      k += RUNNER_ARGS.has(w) ? 2 : 1;
      continue;
    }
    if (RUNNER_VERBS.has(w)) {
      k++;
      continue;
    }
    return k;
  }
  return k;
}

/** Whether one simple command answers a request: `chronoscope approve <id>` or `… deny <id>` (not `approve --list`). */
function answersRequest(argv: readonly string[], mentionsChronoscope: boolean): boolean {
  const p = programIndex(argv);
  const program = argv[p] ?? '';
  // `$(which chronoscope) approve …`: the program is a substitution or a variable, unexpanded; the line names us.
  const unexpanded = mentionsChronoscope && /^[$`]/.test(program);
  if (!unexpanded && !namesChronoscope(program)) return false;
  const rest = argv.slice(p + 1);
  const verb = rest.find((w) => !w.startsWith('-'));
  if (verb === 'deny') return true;
  if (verb !== 'approve') return false;
  // `approve --list [--all] [--json]` only reads; anything else after it is an answer.
  const after = rest.slice(rest.indexOf('approve') + 1);
  return !(after.includes('--list') && after.every((w) => ['--list', '--all', '--json'].includes(w)));
}

/** Whether a shell command line answers a restore request or reaches the approval files; `storeHome`: the store in use. */
export function commandAnswersRequest(command: string, storeHome: string): boolean {
  if (command.includes(ANSWER_CHANNEL) || APPROVAL_FILES.test(command)) return true;
  if (command.includes(path.join(storeHome, 'approvals'))) return true;
  const mentions = /chronoscope/i.test(command);
  return simpleCommands(command).some((c) => answersRequest(c.argv, mentions));
}

/** Whether a tool call must be refused because only a person may do what it does. */
export function personOnly(call: ToolCall, storeHome: string): boolean {
  if (call.command !== null && commandAnswersRequest(call.command, storeHome)) return true;
  const store = path.resolve(storeHome);
  return call.files.some((f) => {
    const rel = path.relative(store, path.resolve(call.cwd, f));
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  });
}
