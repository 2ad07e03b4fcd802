// What `chronoscope why` answers, for the CLI and MCP alike: for one line,
// the checkpoint that last changed it and the call, prompt and agent behind
// that checkpoint; for a whole file, the prompts that changed it, newest
// first, each with its checkpoints and how many of today's lines are its.
import type { CallRecord, Checkpoint, PromptRecord } from '../../shared/model.js';
import type { Workspace } from '../engine/api.js';
import { blame, lineOrigin, type Blame } from './blame.js';
import { whyOfMany } from './listing.js';

export interface WhyLine {
  path: string;
  line: number;
  text: string;
  /** The checkpoint whose version of the file first held this line as it is now. */
  checkpoint: Checkpoint;
  /** Its title, as the list says it (the change it holds, never the call it was taken before). */
  title: string;
  call: CallRecord | null;
  prompt: PromptRecord | null;
  /** Who made the change: the call's agent, else the checkpoint's where its title names a call, else null (a person, the watcher). */
  agent: string | null;
  /** The checkpoint whose version was blamed (the newest holding the file). */
  as_of: string;
  /** Set when the newest checkpoint no longer has the file. */
  deleted_in?: string;
}

export interface WhyFileEntry {
  /** Null: changes made under no recorded prompt (a person, the watcher, an agent without prompt hooks). */
  prompt: PromptRecord | null;
  /** Its checkpoints that changed the file, newest first. */
  checkpoints: Checkpoint[];
  /** How many lines of the file's newest version came from those checkpoints. */
  lines_now: number;
}

export interface WhyFile {
  path: string;
  lines: number;
  as_of: string;
  deleted_in?: string;
  /** Newest first (by the newest checkpoint of each). */
  prompts: WhyFileEntry[];
}

function where(b: Blame): { as_of: string; deleted_in?: string } {
  return { as_of: b.current.checkpoint.id, ...(b.deleted ? { deleted_in: b.deleted.id } : {}) };
}

export async function whyLine(storeHome: string, ws: Workspace, rel: string, line: number): Promise<WhyLine> {
  const b = await blame(ws, rel);
  const { text, checkpoint } = lineOrigin(b, line);
  const why = (await whyOfMany(storeHome, ws, [checkpoint])).get(checkpoint.id) ?? { prompt: null, call: null, title: checkpoint.reason, by: null };
  const agent = why.call?.agent ?? (why.by !== null ? (checkpoint.agent ?? null) : null);
  return { path: rel, line, text, checkpoint, title: why.title, call: why.call, prompt: why.prompt, agent, ...where(b) };
}

export async function whyFile(storeHome: string, ws: Workspace, rel: string): Promise<WhyFile> {
  const b = await blame(ws, rel);
  const changed = b.versions.map((v) => v.checkpoint);
  const whys = await whyOfMany(storeHome, ws, changed);
  const linesOf = new Map<string, number>();
  for (const origin of b.origins) {
    const id = b.versions[origin]?.checkpoint.id;
    if (id !== undefined) linesOf.set(id, (linesOf.get(id) ?? 0) + 1);
  }
  const groups = new Map<string, WhyFileEntry>();
  // Newest first, so each group's first checkpoint is its newest and groups come in that order.
  for (const c of [...changed].reverse()) {
    const prompt = whys.get(c.id)?.prompt ?? null;
    const key = prompt?.id ?? '';
    const group = groups.get(key) ?? { prompt, checkpoints: [], lines_now: 0 };
    group.checkpoints.push(c);
    group.lines_now += linesOf.get(c.id) ?? 0;
    groups.set(key, group);
  }
  return { path: rel, lines: b.lines.length, ...where(b), prompts: [...groups.values()] };
}
