// Human renderings of prompts and of `why`'s answers (electron/prompts/),
// shared by list --prompts, show, restore --before-prompt and why.
import type { CallRecord, PromptRecord } from '../../shared/model.js';
import type { WhyFile, WhyLine } from '../prompts/why.js';
import { plural, relativeTime, safeText, shortId, style, table } from './output.js';
import { LINE_BREAKERS, controlChars } from '../../shared/control-chars.js';

/** A prompt's first line, cut to `max` characters (the table's last column; the full text is in --json). */
export function promptLine(text: string, max = 72): string {
  // Controls and direction overrides become spaces, as in the prompt's label: the line reads as it is.
  const first = text.split('\n').map((l) => l.replace(controlChars(LINE_BREAKERS), ' ').trim()).find((l) => l !== '') ?? '';
  return first.length > max ? `${first.slice(0, max - 1)}…` : first;
}

function span(p: PromptRecord): string {
  if (p.first === null || p.last === null) return style.dim('no change');
  return p.first === p.last ? style.id(shortId(p.first)) : `${style.id(shortId(p.first))}..${style.id(shortId(p.last))}`;
}

/** One row a prompt, newest first: id (to pass to restore --before-prompt), when, who, its checkpoints and files, its words. */
export function promptTable(prompts: readonly PromptRecord[], now = Date.now()): string[] {
  const rows = prompts.map((p) => [
    p.id,
    relativeTime(p.time_ms, now),
    safeText(p.agent),
    safeText(p.session.length > 12 ? `${p.session.slice(0, 11)}…` : p.session),
    span(p),
    String(p.checkpoints),
    String(p.files),
    [`"${promptLine(p.text)}"`, p.failed_calls.length > 0 ? style.warn(`(${plural(p.failed_calls.length, 'failed call')})`) : ''].filter((s) => s !== '').join(' '),
  ]);
  return table(
    [
      { header: 'PROMPT' },
      { header: 'WHEN' },
      { header: 'AGENT' },
      { header: 'SESSION' },
      { header: 'CHECKPOINTS' },
      { header: 'N', align: 'right' },
      { header: 'FILES', align: 'right' },
      { header: 'ASKED' },
    ],
    rows,
  );
}

export function callText(call: CallRecord): string {
  const status = call.status === 'ok' ? 'ok' : style.warn(`failed${call.exit_code === undefined ? '' : ` (exit ${call.exit_code})`}`);
  return `${safeText(call.reason)} — ${status}`;
}

/** The prompt and call lines `show` adds under a checkpoint's details. */
export function whyDetailLines(prompt: PromptRecord | null, call: CallRecord | null): string[] {
  const lines: string[] = [];
  if (prompt) lines.push(`prompt   ${prompt.id}  "${promptLine(prompt.text, 200)}"${style.dim(` (${safeText(prompt.agent)}, ${relativeTime(prompt.time_ms)})`)}`);
  if (call) {
    lines.push(`call     ${callText(call)}`);
    if (call.intent) lines.push(`intent   "${promptLine(call.intent, 200)}"`);
    if (call.status === 'failed' && call.output_tail) lines.push(...call.output_tail.split('\n').slice(-5).map((l) => style.dim(`         ${safeText(l)}`)));
  }
  return lines;
}

export function whyLineText(w: WhyLine, now = Date.now()): string[] {
  const lines = [
    `${style.bold(`${safeText(w.path)}:${w.line}`)}  ${safeText(w.text.trim())}`,
    `changed in  ${style.id(shortId(w.checkpoint.id))}  ${relativeTime(w.checkpoint.time_ms, now)}  ${safeText(w.title)}`,
    `agent       ${w.agent === null ? style.dim('none recorded (a person, or a program no hook saw)') : safeText(w.agent)}`,
  ];
  if (w.call) lines.push(`call        ${callText(w.call)}`);
  if (w.call?.intent) lines.push(`intent      "${promptLine(w.call.intent, 200)}"`);
  lines.push(w.prompt ? `prompt      ${w.prompt.id}  "${promptLine(w.prompt.text, 200)}"${style.dim(` (${relativeTime(w.prompt.time_ms, now)})`)}` : `prompt      ${style.dim('none recorded')}`);
  if (w.deleted_in) lines.push(style.warn(`the file was deleted in ${shortId(w.deleted_in)}; these are the lines of its last version (${shortId(w.as_of)})`));
  return lines;
}

export function whyFileText(w: WhyFile, now = Date.now()): string[] {
  const under = w.prompts.filter((e) => e.prompt).length;
  const lines = [`${style.bold(safeText(w.path))}: ${plural(w.lines, 'line')}, ${under === 0 ? 'changed under no recorded prompt' : `changed under ${plural(under, 'prompt')} (newest first)`}`];
  for (const e of w.prompts) {
    const newest = e.checkpoints[0];
    const when = newest ? relativeTime(newest.time_ms, now) : '';
    const head = e.prompt ? `${e.prompt.id}  "${promptLine(e.prompt.text)}"${style.dim(` (${safeText(e.prompt.agent)}, ${when})`)}` : style.dim(`not under a recorded prompt (newest ${when})`);
    lines.push(head);
    lines.push(`  ${plural(e.checkpoints.length, 'checkpoint')}: ${e.checkpoints.slice(0, 6).map((c) => style.id(shortId(c.id))).join(' ')}${e.checkpoints.length > 6 ? ' …' : ''}; ${plural(e.lines_now, 'line')} of today's file`);
  }
  if (w.deleted_in) lines.push(style.warn(`the file was deleted in ${shortId(w.deleted_in)}; its last version is ${shortId(w.as_of)}`));
  return lines;
}
