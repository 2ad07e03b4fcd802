// Search by what people remember (issue 41): the search box matches a row's
// visible title, its prompt (whole), its files and its author — never the
// call a hook checkpoint was only taken before — and says where it matched
// when the title does not show it. The author filter picks one prompt.
import { describe, expect, it } from 'vitest';
import type { Checkpoint, PromptRecord } from '../../shared/model.js';
import { matcher, NO_FILTER, PROMPT_FILTER_PREFIX } from '../../renderer/src/lib/filter-match.js';
import { searchWords, textsIn, whereMatched } from '../../renderer/src/lib/search-texts.js';
import { wordsIn } from '../../renderer/src/lib/checkpoint-title.js';
import { promptKeyOf } from '../../renderer/src/lib/prompt-groups.js';
import { sessionKey } from '../../shared/lane-key.js';

let t = 1_000_000;
const cp = (id: string, over: Partial<Checkpoint>): Checkpoint => ({
  id,
  time: '',
  time_ms: (t += 1000),
  reason: '',
  trigger: 'hook',
  agent: 'claude-code',
  session: 's1',
  stats: { files: 1, insertions: 1, deletions: 0 },
  skipped: [],
  pinned: false,
  ...over,
});

const prompt: PromptRecord = {
  id: 'pmabc12300000001',
  text: 'Refactor the storage to use JWT sessions\nand drop the legacy adapter',
  agent: 'claude-code',
  session: 's1',
  time: '',
  time_ms: 0,
  before: null,
  first: 'b',
  last: 'c',
  checkpoints: 2,
  files: 2,
  failed_calls: [],
};

// Hook checkpoints taken *before* each call (oldest first): each holds the previous call's change.
const a = cp('a', { trigger: 'baseline', tool: 'Bash', reason: 'Bash: rm src/storage/legacy-adapter.ts' });
const b = cp('b', { tool: 'Bash', reason: 'Bash: git mv src/lib/time.ts src/lib/clock.ts', prompt: 'Refactor the storage to use JWT sessions', prompt_id: prompt.id, paths: ['src/storage/legacy-adapter.ts'] });
const c = cp('c', { tool: 'Edit', reason: 'Edit src/models/note.ts', prompt: 'Refactor the storage to use JWT sessions', prompt_id: prompt.id, paths: ['src/lib/clock.ts', 'src/lib/time.ts'] });
const all = [c, b, a];
const prompts = new Map([[prompt.id, prompt]]);
const search = (text: string): string[] => all.filter(matcher({ ...NO_FILTER, text }, null, null, (x) => textsIn(all, prompts, x))).map((x) => x.id);

describe('the search box', () => {
  it('matches the title a row shows, not the call its checkpoint was taken before', () => {
    expect(wordsIn(all, b).title).toBe("rm src/storage/legacy-adapter.ts — by Claude Code's Bash");
    expect(wordsIn(all, c).title).toBe("git mv src/lib/time.ts src/lib/clock.ts — by Claude Code's Bash");
    // "git mv src/lib/time.ts" is c's title; b was only taken before that call.
    expect(search('git mv src/lib/time.ts')).toEqual(['c']);
    expect(search('rm src/storage/legacy-adapter.ts')).toEqual(['b']);
    // The call c was taken before ("Edit src/models/note.ts") is the next checkpoint's, not c's.
    expect(search('note.ts')).toEqual([]);
  });

  it("finds a prompt's words, any line of it, and says where it matched", () => {
    expect(search('JWT')).toEqual(['c', 'b']);
    expect(search('legacy adapter')).toEqual(['c', 'b']);
    expect(whereMatched(textsIn(all, prompts, c), searchWords('jwt'))).toBe('in the prompt');
    expect(whereMatched(textsIn(all, prompts, c), searchWords('git mv'))).toBeNull();
    expect(whereMatched(textsIn(all, prompts, c), searchWords('clock.ts jwt'))).toBe('in the prompt');
  });

  it("finds a failed call's command at the state it ran on, though it changed nothing and has no row of its own", () => {
    const failing: PromptRecord = {
      ...prompt,
      failed_calls: [{ agent: 'claude-code', tool: 'Bash', reason: 'Bash: npm test', status: 'failed', exit_code: 1, prompt_id: prompt.id, time: '', time_ms: b.time_ms + 1 }],
    };
    const withFailed = new Map([[prompt.id, failing]]);
    const found = all.filter(matcher({ ...NO_FILTER, text: 'npm test' }, null, null, (x) => textsIn(all, withFailed, x))).map((x) => x.id);
    // It ran after b was taken and before c: on b's state.
    expect(found).toEqual(['b']);
    expect(whereMatched(textsIn(all, withFailed, b), searchWords('npm test'))).toBe('in a failed command');
    // Where one place holds every word, that place alone ("storage" is in the prompt too).
    const failingStorage = new Map([[prompt.id, { ...failing, failed_calls: [{ ...failing.failed_calls[0]!, reason: 'Bash: npm run storage' }] }]]);
    expect(whereMatched(textsIn(all, failingStorage, b), searchWords('npm storage'))).toBe('in a failed command');
    expect(whereMatched(textsIn(all, failingStorage, b), searchWords('npm jwt'))).toBe('in a failed command and the prompt');
  });

  it('finds a file the checkpoint changed and says so when its title does not name it', () => {
    const d = cp('d', { trigger: 'auto', reason: 'auto: 2 files changed', paths: ['docs/guide.md', 'docs/faq.md'], stats: { files: 2, insertions: 2, deletions: 0 } });
    const list = [d];
    expect(list.filter(matcher({ ...NO_FILTER, text: 'faq.md' }, null, null, (x) => textsIn(list, prompts, x))).map((x) => x.id)).toEqual(['d']);
    expect(whereMatched(textsIn(list, prompts, d), searchWords('faq.md'))).toBe('in a file path');
  });
});

describe('the author filter', () => {
  it('picks one prompt among a session’s', () => {
    const other = cp('e', { tool: 'Edit', reason: 'Edit x.ts', prompt: 'Add a changelog entry' });
    const list = [other, c, b, a];
    const keep = matcher({ ...NO_FILTER, lane: `${PROMPT_FILTER_PREFIX}${promptKeyOf(c)!}` }, null);
    expect(list.filter(keep).map((x) => x.id)).toEqual(['c', 'b']);
    const older = matcher({ ...NO_FILTER, lane: `${PROMPT_FILTER_PREFIX}${promptKeyOf(other)!}` }, null);
    expect(list.filter(older).map((x) => x.id)).toEqual(['e']);
  });
});

describe('promptKeyOf: what was taken as a prompt was given belongs to no prompt', () => {
  const base = { agent: 'claude-code', session: 's1' } as const;
  it("a person's edit and a baseline taken at a prompt, labelled with its words by the first prompt-ledger versions, get no key; the prompt's own checkpoints keep theirs", () => {
    expect(promptKeyOf({ ...base, trigger: 'hook', change_by: 'other', prompt: 'Now tidy b.ts' })).toBeNull();
    expect(promptKeyOf({ ...base, trigger: 'baseline', prompt: 'Now tidy b.ts' })).toBeNull();
    expect(promptKeyOf({ ...base, trigger: 'hook', tool: 'Edit', prompt: 'Now tidy b.ts', prompt_id: 'pmxc3gdm908e853ea' })).toBe('pmxc3gdm908e853ea');
    // An older store's (no ids): a call's checkpoint by its session and words; a person's change before a call too.
    expect(promptKeyOf({ ...base, trigger: 'hook', tool: 'Edit', prompt: 'Now tidy b.ts' })).toBe(`${sessionKey('claude-code', 's1')}\0Now tidy b.ts`);
    expect(promptKeyOf({ ...base, trigger: 'hook', tool: 'Edit', change_by: 'other', prompt: 'Now tidy b.ts' })).not.toBeNull();
  });
});
