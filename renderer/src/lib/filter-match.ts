// Which checkpoints a filter keeps: pure, so the slider (dims the rest) and
// the list (leaves the rest out) agree, and tests need no browser.
import type { Checkpoint, Trigger } from '../../../shared/model.js';
import { laneOf } from './lanes.js';

export interface CheckpointFilter {
  /** A file or folder path, or a glob (`src/**\/*.ts`): only checkpoints that changed it. */
  path: string;
  /**
   * The search box: words that must all appear in the reason (case-insensitive),
   * or, read as a path, a file the checkpoint changed (search-paths.ts).
   */
  text: string;
  trigger: Trigger | '';
  /** A lane key (lanes.ts): one agent session, the watcher, a person, restores. */
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
export function matcher(f: CheckpointFilter, touching: ReadonlySet<string> | null, textPaths: ReadonlySet<string> | null = null): (c: Checkpoint) => boolean {
  const words = f.text.toLowerCase().split(/\s+/).filter(Boolean);
  return (c) => {
    if (f.pinned && !c.pinned) return false;
    if (f.trigger && c.trigger !== f.trigger) return false;
    if (f.lane && laneOf(c).key !== f.lane) return false;
    if (touching && !touching.has(c.id)) return false;
    if (words.length > 0 && !textPaths?.has(c.id)) {
      const hay = `${c.reason} ${c.tool ?? ''} ${c.agent ?? ''}`.toLowerCase();
      if (!words.every((w) => hay.includes(w))) return false;
    }
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
    lane: (params.get('lane') ?? '').slice(0, 300),
    pinned: params.get('pinned') === '1',
  };
}
