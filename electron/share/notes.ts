// Links from the person's pushed commits to the prompts and checkpoints that
// led to them, as git notes (a tree of blobs named by the commit id), never
// as trailers in the person's own commits.
//
// Which checkpoints led to a commit: those of this workspace taken after the
// commit's first parent was committed and no later than the commit itself
// (committer times), and the prompts those checkpoints were made under. The
// window is the work between two commits: a checkpoint is linked to the first
// commit made after it. A root commit takes everything before it.
//
// The notes live in two places in the store: this workspace's own chain
// (localShareRef(id, 'notes'), pushed as <namespace>/notes, so no other
// workspace's links travel) and the store-wide refs/notes/chronoscope (what
// `chronoscope why` reads, and where the pull side merges teammates' notes).
import type { CallRecord, Checkpoint } from '../../shared/model.js';
import { redactSecrets } from '../../shared/redact.js';
import type { GitContext } from '../engine/git/git-env.js';
import { gitStdin } from '../engine/git/git-runner.js';
import type { PromptEntry } from '../prompts/ledger.js';
import type { ShareIdentity } from './identity.js';
import { resolveRef, writeObject } from './share-log.js';
import type { PushedCommit } from './workspace-git.js';

export const WHY_KEY = 'Chronoscope-Why';

export interface CommitLink {
  v: 1;
  commit: string;
  person: string;
  email: string;
  machine: string;
  clone: string;
  /** Shared checkpoint ids (what a teammate finds after a pull), oldest first. */
  checkpoints: { id: string; time: string; reason: string; prompt_id?: string }[];
  prompts: { id: string; time: string; agent: string; text: string }[];
}

export function linksFor(
  commits: readonly PushedCommit[],
  checkpoints: readonly Checkpoint[],
  ledger: { prompts: readonly PromptEntry[]; calls: readonly CallRecord[] },
  sharedId: (local: string) => string,
  who: ShareIdentity,
): CommitLink[] {
  const byId = new Map(ledger.prompts.map((p) => [p.id, p]));
  // A commit with no checkpoint before it (made with no Chronoscope history) gets no note: "nothing" is not a link.
  return commits.flatMap((commit): CommitLink[] => {
    const inWindow = checkpoints.filter((c) => c.time_ms > commit.parentTimeMs && c.time_ms <= commit.timeMs + 999).sort((a, b) => a.time_ms - b.time_ms);
    const ids = new Set(inWindow.map((c) => c.id));
    // A checkpoint names its prompt (prompt_id), or a call of the ledger names its checkpoint and prompt.
    const named = [...inWindow.flatMap((c) => (c.prompt_id ? [c.prompt_id] : [])), ...ledger.calls.flatMap((call) => (call.checkpoint && ids.has(call.checkpoint) && call.prompt_id ? [call.prompt_id] : []))];
    const promptIds = [...new Set(named)];
    if (inWindow.length === 0) return [];
    const link: CommitLink = {
      v: 1,
      commit: commit.sha,
      person: who.name,
      email: who.email,
      machine: who.hostname,
      clone: who.clone,
      checkpoints: inWindow.map((c) => ({ id: sharedId(c.id), time: c.time, reason: redactSecrets(c.reason), ...(c.prompt_id ? { prompt_id: c.prompt_id } : {}) })),
      prompts: promptIds.flatMap((id) => {
        const p = byId.get(id);
        return p ? [{ id: p.id, time: p.time, agent: p.agent, text: redactSecrets(p.text) }] : [];
      }),
    };
    return [link];
  });
}

/** A note a person can read with `git notes show`, and a last line a program can parse. */
export function noteText(link: CommitLink): string {
  const lines = [`Chronoscope: ${link.checkpoints.length} checkpoint(s) and ${link.prompts.length} prompt(s) led to this commit`, `by ${link.person} <${link.email}> on ${link.machine}`, ''];
  for (const p of link.prompts) lines.push(`prompt ${p.time} ${p.agent}: ${p.text.split('\n')[0]!.slice(0, 200)}`);
  for (const c of link.checkpoints) lines.push(`checkpoint ${c.id.slice(0, 12)} ${c.time} ${c.reason}`);
  return `${lines.join('\n')}\n\n${WHY_KEY}: ${JSON.stringify(link)}\n`;
}

export function parseNote(text: string): CommitLink | null {
  const line = text.split('\n').find((l) => l.startsWith(`${WHY_KEY}: `));
  if (!line) return null;
  try {
    return JSON.parse(line.slice(WHY_KEY.length + 2)) as CommitLink;
  } catch {
    return null;
  }
}

/** Adds notes to the notes chain at `ref` (a new commit on top), returning its new tip; the ref is moved only if it did not move meanwhile. */
export async function addNotes(gitCtx: GitContext, ref: string, links: readonly CommitLink[]): Promise<string | null> {
  if (links.length === 0) return resolveRef(gitCtx, ref);
  for (let attempt = 0; ; attempt++) {
    const previous = await resolveRef(gitCtx, ref);
    const entries = new Map<string, string>();
    if (previous !== null) {
      const listing = (await gitStdin(gitCtx, ['ls-tree', '-r', '--full-tree', previous])).stdout.toString('utf8');
      for (const line of listing.split('\n')) {
        const m = /^100644 blob ([0-9a-f]{40})\t(.+)$/.exec(line);
        if (m) entries.set(m[2]!.replace(/\//g, ''), m[1]!);
      }
    }
    for (const link of links) entries.set(link.commit, await writeObject(gitCtx, 'blob', noteText(link)));
    const treeInput = [...entries].map(([path, blob]) => `100644 blob ${blob}\t${path}\n`).join('');
    const tree = (await gitStdin(gitCtx, ['mktree'], { input: treeInput })).stdout.toString('utf8').trim();
    const args = ['commit-tree', tree, ...(previous ? ['-p', previous] : []), '-m', `Notes added by chronoscope share (${links.length})`];
    const commit = (await gitStdin(gitCtx, args)).stdout.toString('utf8').trim();
    const moved = await gitStdin(gitCtx, ['update-ref', ref, commit, previous ?? '0'.repeat(40)], { okCodes: [0, 1, 128] });
    if (moved.code === 0) return commit;
    if (attempt >= 5) throw new Error(`could not update ${ref}: ${moved.stderr.trim()}`);
  }
}

/** The note on `commit` at `ref`, if any. */
export async function readNote(gitCtx: GitContext, ref: string, commit: string): Promise<string | null> {
  const tip = await resolveRef(gitCtx, ref);
  if (tip === null) return null;
  const listing = (await gitStdin(gitCtx, ['ls-tree', '-r', '--full-tree', tip])).stdout.toString('utf8');
  for (const line of listing.split('\n')) {
    const m = /^100644 blob ([0-9a-f]{40})\t(.+)$/.exec(line);
    if (m && m[2]!.replace(/\//g, '') === commit) return (await gitStdin(gitCtx, ['cat-file', 'blob', m[1]!])).stdout.toString('utf8');
  }
  return null;
}
