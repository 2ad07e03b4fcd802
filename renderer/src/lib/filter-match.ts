// Which checkpoints a filter keeps: pure, so the slider (dims the rest) and
// the list (leaves the rest out) agree, and tests need no browser.
import type { Checkpoint, Trigger } from '../../../shared/model.js';
import { checkpointWords } from '../../../shared/checkpoint-words.js';
import { laneOf } from './lanes.js';
import { promptKeyOf } from './prompt-groups.js';
import { ownTexts, searchWords, textMatches, type SearchTexts } from './search-texts.js';

/** The author filter's value for one prompt (its key: lib/prompt-groups.ts); other values are lane keys. */
export const PROMPT_FILTER_PREFIX = 'prompt:';

export interface CheckpointFilter {
  /** A file or folder path, or a glob (`src/**\/*.ts`): only checkpoints that changed it. */
  path: string;
  /**
   * The search box: words that must all appear in what the checkpoint shows or was made under (its
   * title, its prompt, its files, its author: lib/search-texts.ts), case-insensitive,
   * or, read as a path, a file the checkpoint changed (search-paths.ts).
   */
  text: string;
  trigger: Trigger | '';
  /** A lane key (lanes.ts): one agent session, the watcher, a person, restores; or `prompt:<key>`: one prompt. */
  lane: string;
  pinned: boolean;
}

export const NO_FILTER: CheckpointFilter = { path: '', text: '', trigger: '', lane: '', pinned: false };

export function isFiltering(f: CheckpointFilter): boolean {
  return f.path !== '' || f.text.trim() !== '' || f.trigger !== '' || f.lane !== '' || f.pinned;
}

/**
 * `touching`: the ids a path filter allows (from checkpoints:pathHistory); null = not known yet / no path filter.
 * `textPaths`: the ids that changed a path the search text names (also from pathHistory); they match the
 * text whatever their reason says; null = not known (yet): the reason alone decides meanwhile.
 */
export function matcher(
  f: CheckpointFilter,
  touching: ReadonlySet<string> | null,
  textPaths: ReadonlySet<string> | null = null,
  texts: (c: Checkpoint) => SearchTexts = (c) => ownTexts(c, checkpointWords(c).title, undefined),
): (c: Checkpoint) => boolean {
  const words = searchWords(f.text);
  const prompt = f.lane.startsWith(PROMPT_FILTER_PREFIX) ? f.lane.slice(PROMPT_FILTER_PREFIX.length) : null;
  return (c) => {
    if (f.pinned && !c.pinned) return false;
    if (f.trigger && c.trigger !== f.trigger) return false;
    if (prompt !== null ? promptKeyOf(c) !== prompt : f.lane && laneOf(c).key !== f.lane) return false;
    if (touching && !touching.has(c.id)) return false;
    if (words.length > 0 && !textPaths?.has(c.id) && !textMatches(texts(c), words)) return false;
    return true;
  };
}

const KEYS = ['path', 'text', 'trigger', 'lane'] as const;

/** The filter as URL hash parameters (`#path=…&text=…`), so a reload keeps it. */
export function filterToHash(f: CheckpointFilter): string {
  const params = new URLSearchParams();
  for (const k of KEYS) if (f[k]) params.set(k, f[k]);
  if (f.pinned) params.set('pinned', '1');
  const text = params.toString();
  return text ? `#${text}` : '';
}

export function filterFromHash(hash: string, triggers: readonly string[]): CheckpointFilter {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const trigger = params.get('trigger') ?? '';
  return {
    path: (params.get('path') ?? '').slice(0, 4096),
    text: (params.get('text') ?? '').slice(0, 500),
    trigger: (triggers.includes(trigger) ? trigger : '') as Trigger | '',
    lane: (params.get('lane') ?? '').slice(0, 1200),
    pinned: params.get('pinned') === '1',
  };
}
