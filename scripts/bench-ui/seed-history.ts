// A long, realistic history for the UI benchmark and the timeline e2e tests:
// thousands of checkpoints spread over days (bursts seconds apart, pauses of
// minutes, nights and weekends), made by several authors (Claude Code and
// Hermes sessions, the watcher, a person, restores), each changing one or two
// files. Taking 10,000 real snapshots would take many minutes and could not
// place them in the past, so the checkpoints are written in the store's own
// format — parentless commits whose message carries the metadata, one ref
// each under the workspace's prefix — by one `git fast-import`, into a store
// opened (and the workspace registered) by the real engine. Everything after
// that (listing, diffs, path history, restore) is the product's own code.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openStore } from '../../electron/engine/index.js';
import { encodeMessage, type CheckpointMeta } from '../../electron/engine/layout/message.js';
import { spawnGit } from '../../electron/engine/git/git-runner.js';
import type { Trigger } from '../../shared/model.js';
import { promptPlan, writePromptLedger, type SeededPrompt } from './seed-prompts.js';

export interface SeedOptions {
  /** CHRONOSCOPE_HOME of the store. */
  home: string;
  /** The workspace folder (created; left holding the newest checkpoint's files). */
  dir: string;
  count: number;
  files?: number;
  /** Time of the newest checkpoint; default: a minute ago. */
  endMs?: number;
  /** Stretch (or shrink) the history to span this long, keeping its shape; default: its natural span. */
  spanMs?: number;
  /** Claude Code's checkpoints made under prompts (prompt_id, the prompt ledger): a new prompt every few of its checkpoints. */
  prompts?: boolean;
}

export interface SeededCheckpoint {
  time_ms: number;
  /** The seeded prompt it was made under (with `prompts`). */
  prompt_id?: string;
  reason: string;
  /** Files this checkpoint changed. */
  changed: string[];
}

interface Author {
  trigger: Trigger;
  agent?: string;
  session?: string;
  tool?: string;
}

/** A small deterministic generator: the same history every run. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Gaps (ms) between consecutive checkpoints, oldest first: bursts, pauses, nights. */
function gaps(count: number, random: () => number): number[] {
  const out: number[] = [];
  for (let i = 1; i < count; i++) {
    const r = random();
    if (i % 400 === 0) out.push(14 * 3_600_000 + r * 3_600_000); // a night
    else if (i % 97 === 0) out.push(2 * 3_600_000 + r * 3_600_000); // a long break
    else if (r < 0.06) out.push(3 * 60_000 + r * 10 * 60_000); // a pause of minutes
    else out.push(3_000 + r * 40_000); // a burst
  }
  return out;
}

const AUTHORS: Author[] = [
  { trigger: 'hook', agent: 'claude-code', session: 'a1b2c3d4-claude-session-one', tool: 'Edit' },
  { trigger: 'auto' },
  { trigger: 'hook', agent: 'hermes', session: 'hermes-20261201-0001', tool: 'write_file' },
  { trigger: 'manual' },
  { trigger: 'hook', agent: 'claude-code', session: 'e5f6a7b8-claude-session-two', tool: 'Write' },
];

export function fileName(i: number): string {
  return `src/module-${i + 1}.ts`;
}

function body(file: number, version: number): string {
  const lines = [`// module ${file + 1}`, `export const version = ${version};`];
  for (let l = 0; l < 30; l++) lines.push(`export function f${l}() { return ${l} + ${l === version % 30 ? version : 0}; }`);
  return `${lines.join('\n')}\n`;
}

export async function seedHistory(options: SeedOptions): Promise<SeededCheckpoint[]> {
  const { home, dir, count } = options;
  const files = options.files ?? 40;
  mkdirSync(dir, { recursive: true });
  const store = await openStore({ home });
  const ws = await store.workspace(dir);
  const prefix = `refs/chronoscope/${ws.meta.id}/cp/`;
  const random = rng(count * 31 + files);
  let between = gaps(count, random);
  const natural = between.reduce((a, b) => a + b, 0);
  if (options.spanMs !== undefined && natural > 0) between = between.map((g) => (g * options.spanMs!) / natural);
  const span = between.reduce((a, b) => a + b, 0);
  let time = (options.endMs ?? Date.now() - 60_000) - span;

  const versions = new Array<number>(files).fill(0);
  const marks = new Array<number>(files).fill(0);
  let nextMark = 1;
  const chunks: string[] = [];
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const blob = (f: number): void => {
    marks[f] = nextMark++;
    chunks.push(`blob\nmark :${marks[f]}\n${data(body(f, versions[f]!))}`);
  };
  for (let f = 0; f < files; f++) blob(f);

  const seeded: SeededCheckpoint[] = [];
  const prompts: SeededPrompt[] = [];
  const plan = options.prompts === true ? promptPlan() : null;
  let author = AUTHORS[0]!;
  for (let i = 0; i < count; i++) {
    if (i > 0) time += Math.round(between[i - 1]!);
    // A new author after each long pause, and now and then within a burst.
    if (i === 0 || (between[i - 1] ?? 0) > 3 * 60_000 || random() < 0.01) author = AUTHORS[Math.floor(random() * AUTHORS.length)]!;
    const changed: number[] = i === 0 ? [] : [Math.floor(random() * files)];
    if (i > 0 && random() < 0.25) changed.push(Math.floor(random() * files));
    const unique = [...new Set(changed)];
    for (const f of unique) {
      versions[f]! += 1;
      blob(f);
    }
    const names = i === 0 ? Array.from({ length: files }, (_, f) => fileName(f)) : unique.map(fileName);
    const reason = i === 0 ? 'Initial import' : `${author.tool ?? (author.trigger === 'auto' ? 'Files changed' : 'Checkpoint')}: ${names.join(', ')}`;
    const meta: CheckpointMeta = {
      v: 1,
      trigger: author.trigger,
      time_ms: time,
      stats: i === 0 ? { files, insertions: files * 32, deletions: 0 } : { files: unique.length, insertions: unique.length * 2, deletions: unique.length * 2 },
      skipped: [],
    };
    if (author.agent) meta.agent = author.agent;
    if (author.session) meta.session = author.session;
    if (author.tool) meta.tool = author.tool;
    const prompt = plan !== null && author.agent === 'claude-code' && i > 0 ? plan.next(author.session ?? '', time, prompts) : null;
    if (prompt !== null) {
      meta.prompt = prompt.first_line;
      meta.prompt_id = prompt.id;
    }
    const message = encodeMessage(reason, meta);
    const ref = `${prefix}${String(time).padStart(13, '0')}-0000`;
    const seconds = Math.floor(time / 1000);
    let commit = `commit ${ref}\ncommitter Chronoscope <chronoscope@localhost> ${seconds} +0000\n${data(message)}`;
    for (let f = 0; f < files; f++) commit += `M 100644 :${marks[f]} ${fileName(f)}\n`;
    chunks.push(commit);
    seeded.push({ time_ms: time, reason, changed: names, ...(prompt ? { prompt_id: prompt.id } : {}) });
  }

  const child = spawnGit({ gitDir: path.join(home, 'git'), cwd: path.join(home, 'git') }, ['fast-import', '--quiet', '--force'], ['pipe', 'pipe', 'pipe']);
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`git fast-import failed (${code}): ${stderr.trim()}`))));
  });
  child.stdin?.end(chunks.join(''));
  await done;

  if (prompts.length > 0) await writePromptLedger(home, ws, prompts);

  // The workspace holds the newest checkpoint's files, as after a real session.
  for (let f = 0; f < files; f++) {
    const full = path.join(dir, fileName(f));
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, body(f, versions[f]!));
  }
  return seeded;
}
