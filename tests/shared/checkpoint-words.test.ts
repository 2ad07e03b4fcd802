// The one wording of checkpoints: a hook checkpoint is titled by the change it
// holds (made by the call before it), restores by what they restored.
import { describe, expect, it } from 'vitest';
import { checkpointWords, listContext, type WordedCheckpoint } from '../../shared/checkpoint-words.js';

let seq = 0;
function cp(fields: Partial<WordedCheckpoint> & Pick<WordedCheckpoint, 'trigger'>): WordedCheckpoint {
  seq += 1;
  return { id: `${String(seq).padStart(4, '0')}${'a'.repeat(36)}`, time_ms: Date.UTC(2026, 10, 5, 8, seq), reason: '', stats: { files: 1, insertions: 1, deletions: 0 }, ...fields };
}
const hook = (tool: string, reason: string, extra: Partial<WordedCheckpoint> = {}): WordedCheckpoint => cp({ trigger: 'hook', agent: 'claude-code', session: 's1', tool, reason, ...extra });

describe('checkpointWords', () => {
  it('titles a hook checkpoint by the call before it, and notes the call it precedes', () => {
    const edit = hook('Edit', 'Edit CHANGELOG.md');
    const bash = hook('Bash', 'Bash: git mv src/lib/time.ts src/lib/clock.ts');
    const next = hook('Edit', 'Edit src/models/note.ts');
    const ctx = listContext([next, bash, edit]);
    expect(checkpointWords(bash, ctx)).toEqual({ title: 'Edit CHANGELOG.md — by Claude Code\'s Edit', by: "Claude Code's Edit", note: 'before: Bash git mv src/lib/time.ts src/lib/clock.ts' });
    expect(checkpointWords(next, ctx).title).toBe("git mv src/lib/time.ts src/lib/clock.ts — by Claude Code's Bash");
    expect(checkpointWords(next, ctx).note).toBe('before: Edit src/models/note.ts');
  });

  it('names the files changed, not a call, when no call of this agent came before', () => {
    const manual = cp({ trigger: 'manual', reason: 'before the refactor' });
    const other = hook('Edit', 'Edit a.ts', { session: 's2' });
    const first = hook('Edit', 'Edit b.ts', { stats: { files: 3, insertions: 2, deletions: 1 } });
    expect(checkpointWords(first, listContext([first, manual])).title).toBe('3 files changed, not by a recorded call');
    expect(checkpointWords(first, listContext([first, other])).title).toBe('3 files changed, not by a recorded call');
    // The previous one not known (the end of a page): the count alone, no guess.
    expect(checkpointWords(first, listContext([first])).title).toBe('3 files changed');
    expect(checkpointWords(first, listContext([first])).by).toBeNull();
  });

  it('tells exactly what the hooks saw: a checkpoint taken as a call ended is that call\'s change, and one after it is nobody\'s call', () => {
    const before = hook('Edit', 'Edit CHANGELOG.md');
    const ended = hook('Edit', 'Edit CHANGELOG.md', { change_by: 'call' });
    // A person changed 2 files after the Edit ended; then the agent runs a Bash call.
    const person = hook('Bash', 'Bash: npm test', { change_by: 'other', stats: { files: 2, insertions: 2, deletions: 0 } });
    const ranTests = hook('Bash', 'Bash: npm test', { change_by: 'call' });
    const ctx = listContext([ranTests, person, ended, before]);
    expect(checkpointWords(ended, ctx)).toEqual({ title: "Edit CHANGELOG.md — by Claude Code's Edit", by: "Claude Code's Edit", note: null });
    expect(checkpointWords(person, ctx)).toEqual({ title: '2 files changed, not by a recorded call', by: null, note: 'before: Bash npm test' });
    expect(checkpointWords(ranTests, ctx).title).toBe("npm test — by Claude Code's Bash");
    // Exact even with no previous at hand (the end of a page).
    expect(checkpointWords(person, listContext([person])).title).toBe('2 files changed, not by a recorded call');
    // A checkpoint before a call right after a call's end (no mark: an older version wrote it) is not that call's either.
    const unmarked = hook('Write', 'Write b.ts');
    expect(checkpointWords(unmarked, listContext([unmarked, ended])).title).toBe('1 file changed, not by a recorded call');
  });

  it('names the call a checkpoint says made its change (a call that took none of its own), even on a page\'s last row', () => {
    const push = hook('Bash', 'Bash: git push origin main');
    const madeBy = { agent: 'claude-code', tool: 'Edit', reason: 'Edit src/core/mod0.ts' };
    const next = hook('Bash', 'Bash: npm test', { made_by: madeBy });
    expect(checkpointWords(next, listContext([next, push]))).toEqual({ title: "Edit src/core/mod0.ts — by Claude Code's Edit", by: "Claude Code's Edit", note: 'before: Bash npm test' });
    expect(checkpointWords(next, listContext([next])).title).toBe("Edit src/core/mod0.ts — by Claude Code's Edit");
    // What the service saw exactly comes first.
    expect(checkpointWords(hook('Bash', 'Bash: npm test', { made_by: madeBy, change_by: 'other' })).title).toBe('1 file changed, not by a recorded call');
  });

  it('names the few files changed, rather than counting them, when the author is not known', () => {
    const one = hook('Edit', 'Edit b.ts', { change_by: 'other', paths: ['src/c.ts'] });
    expect(checkpointWords(one).title).toBe('src/c.ts changed, not by a recorded call');
    const two = hook('Edit', 'Edit b.ts', { stats: { files: 2, insertions: 2, deletions: 0 }, paths: ['a.ts', 'b.ts'] });
    expect(checkpointWords(two, listContext([two])).title).toBe('a.ts, b.ts changed');
    // Paths that do not account for every file (an older or partial record): the count.
    expect(checkpointWords(hook('Edit', 'Edit b.ts', { change_by: 'other', stats: { files: 4, insertions: 1, deletions: 0 }, paths: ['a.ts'] })).title).toBe('4 files changed, not by a recorded call');
    expect(checkpointWords(cp({ trigger: 'auto', reason: '', paths: ['notes.md'] })).title).toBe('notes.md changed');
  });

  it('words a baseline a hook took as the workspace first seen', () => {
    const base = cp({ trigger: 'baseline', agent: 'claude-code', tool: 'Write', reason: 'Write notes.md' });
    expect(checkpointWords(base, listContext([base]))).toEqual({ title: 'The workspace as first seen', by: null, note: 'before: Write notes.md' });
  });

  it('drops the auto: prefix the badge already says, and keeps a person\'s reason', () => {
    expect(checkpointWords(cp({ trigger: 'auto', reason: 'auto: 2 files changed (a.ts, b.ts)' })).title).toBe('2 files changed (a.ts, b.ts)');
    expect(checkpointWords(cp({ trigger: 'manual', reason: 'ready for review' })).title).toBe('ready for review');
    expect(checkpointWords(cp({ trigger: 'manual', reason: '' })).title).toBe('Manual checkpoint');
  });

  it('tells a restore and its undo in words, whatever hash the old reason held', () => {
    const time = (ms: number): string => new Date(ms).toISOString().slice(11, 16);
    const target = cp({ trigger: 'manual', reason: 'working login' });
    const safety = cp({ trigger: 'safety', reason: 'before restoring ad753e550a3d', restore_target: target.id });
    const restore = cp({ trigger: 'restore', reason: 'restored ad753e550a3d', restore_target: target.id });
    const undoSafety = cp({ trigger: 'safety', reason: 'before restoring f10139a99f41', restore_target: safety.id, stats: { files: 0, insertions: 0, deletions: 0 } });
    const undo = cp({ trigger: 'restore', reason: 'restored f10139a99f41', restore_target: safety.id });
    const ctx = listContext([undo, undoSafety, restore, safety, target], time);
    const when = time(target.time_ms);
    expect(checkpointWords(restore, ctx).title).toBe(`Restored the workspace to ‘working login’ (${when})`);
    expect(checkpointWords(safety, ctx).title).toBe(`Before restoring to ‘working login’ (${when})`);
    expect(checkpointWords(undo, ctx).title).toBe('Undid the restore of ‘working login’');
    expect(checkpointWords(undoSafety, ctx).title).toBe('Before undoing the restore of ‘working login’');
    expect(checkpointWords(undoSafety, ctx).note).toMatch(/nothing had changed/);
    // Its target out of reach: a short id, said as one.
    expect(checkpointWords(restore).title).toBe(`Restored the workspace to the checkpoint ${target.id.slice(0, 8)}`);
    // Recorded when taken (restore_of): no look-up, the same words with or without the list; one file named.
    const recorded = cp({ trigger: 'restore', reason: 'restored ad753e550a3d', restore_target: target.id, restore_paths: ['package.json'], restore_of: { title: 'working login', time_ms: target.time_ms } });
    expect(checkpointWords(recorded).title).toBe(`Restored package.json to ‘working login’ (${new Date(target.time_ms).toISOString().slice(0, 16).replace('T', ' ')} UTC)`);
    expect(checkpointWords(recorded, ctx).title).toBe(`Restored package.json to ‘working login’ (${when})`);
    // A restore of a restore is named by what that one restored, never nested.
    const again = cp({ trigger: 'restore', reason: 'restored 1234', restore_target: restore.id });
    expect(checkpointWords(again, listContext([again, restore, safety, target], time)).title).toBe(`Restored the workspace to ‘working login’ (${time(restore.time_ms)})`);
  });

  it('names a restore to before a prompt, its undo and their safety checkpoints by the prompt', () => {
    const target = cp({ trigger: 'manual', reason: 'Edit src/a.ts' });
    const of = { title: 'Refactor the storage', time_ms: target.time_ms, before_prompt: true as const };
    const safety = cp({ trigger: 'safety', reason: 'before restoring 1', restore_target: target.id, restore_of: of });
    const restore = cp({ trigger: 'restore', reason: 'restored 1', restore_target: target.id, restore_of: of });
    const undo = cp({ trigger: 'restore', reason: 'restored 2', restore_target: safety.id, restore_of: { ...of, undo: true } });
    const undoSafety = cp({ trigger: 'safety', reason: 'before restoring 2', restore_target: safety.id, restore_of: { ...of, undo: true } });
    expect(checkpointWords(restore).title).toBe('Restored the workspace to before the prompt ‘Refactor the storage’');
    expect(checkpointWords(safety).title).toBe('Before restoring the workspace to before the prompt ‘Refactor the storage’');
    expect(checkpointWords(safety).note).toMatch(/undoes the restore/);
    expect(checkpointWords(undo).title).toBe('Undid the restore of the workspace to before the prompt ‘Refactor the storage’');
    expect(checkpointWords(undoSafety).title).toBe('Before undoing the restore of the workspace to before the prompt ‘Refactor the storage’');
    const oneFile = cp({ trigger: 'restore', reason: 'restored 1', restore_target: target.id, restore_paths: ['src/a.ts'], restore_of: of });
    expect(checkpointWords(oneFile).title).toBe('Restored src/a.ts to before the prompt ‘Refactor the storage’');
  });

  it('leaves checkpoints an MCP client asked for with their own reason', () => {
    const asked = hook('mcp', 'before the migration');
    const after = hook('Edit', 'Edit x.ts');
    expect(checkpointWords(asked, listContext([after, asked])).title).toBe('before the migration');
    expect(checkpointWords(after, listContext([after, asked])).title).toBe('1 file changed, not by a recorded call');
  });
});
