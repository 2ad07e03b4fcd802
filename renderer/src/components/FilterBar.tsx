// Search and filter above the checkpoint list: a path (file, folder or glob:
// only checkpoints that changed it — one file's story), the search box (words
// of the reason, or a file the checkpoint changed: a name, part of a path, a
// glob), trigger, who made it (lane) and pinned. Text fields apply as you type
// (paths after a short pause: each asks the host).
import { memo, useEffect, useMemo, useState } from 'react';
import { TRIGGERS } from '../../../shared/model.js';
import { useFilter } from '../state/filter.js';
import { useTimeline } from '../state/timeline.js';
import { isFiltering, PROMPT_FILTER_PREFIX } from '../lib/filter-match.js';
import { laneOf, type Lane } from '../lib/lanes.js';
import { firstLine, promptKeyOf } from '../lib/prompt-groups.js';
import { usePrompts } from '../state/prompts.js';
import { Icon } from './Icon.js';

const PATH_DEBOUNCE_MS = 350;

// Memoised: it takes no props, and the list around it renders at every step of a drag.
export const FilterBar = memo(function FilterBar() {
  const filter = useFilter((s) => s.filter);
  const history = useFilter((s) => s.history);
  const searchingPaths = useFilter((s) => s.searchingPaths);
  const set = useFilter((s) => s.set);
  const clear = useFilter((s) => s.clear);
  const checkpoints = useTimeline((s) => s.checkpoints);
  const [path, setPath] = useState(filter.path);
  const [open, setOpen] = useState(filter.trigger !== '' || filter.lane !== '' || filter.pinned);

  // The path can change from elsewhere (a file's "History" button): show it.
  useEffect(() => setPath(filter.path), [filter.path]);
  useEffect(() => {
    if (path.trim() === filter.path) return;
    const timer = setTimeout(() => set({ path: path.trim() }), PATH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [path, filter.path, set]);

  const prompts = usePrompts((s) => s.byId);
  // Who made it: each author, and under each agent session every prompt it was given (newest first).
  const lanes = useMemo(() => {
    const seen = new Map<string, { lane: Lane; prompts: Map<string, string> }>();
    for (const c of checkpoints) {
      const lane = laneOf(c);
      let entry = seen.get(lane.key);
      if (!entry) seen.set(lane.key, (entry = { lane, prompts: new Map() }));
      const key = promptKeyOf(c);
      if (key !== null && !entry.prompts.has(key)) entry.prompts.set(key, firstLine((c.prompt_id ? prompts.get(c.prompt_id)?.text : undefined) ?? c.prompt ?? ''));
    }
    return [...seen.values()];
  }, [checkpoints, prompts]);

  const active = isFiltering(filter);
  return (
    <div className="filter-bar" data-testid="filter-bar">
      <div className="filter-row">
        <label className="filter-field">
          <Icon name="search" size={12} />
          <input
            className="input input-small"
            data-testid="filter-text"
            placeholder="Search reasons and files"
            aria-label="Search checkpoint reasons and the paths of the files they changed"
            title="Words of the reason, or a file the checkpoint changed: a name (target.txt), part of a path (src/lib) or a glob (src/*.ts)"
            value={filter.text}
            onChange={(e) => set({ text: e.target.value })}
          />
        </label>
        <button
          type="button"
          className={open || active ? 'icon-button active' : 'icon-button'}
          aria-expanded={open}
          aria-label="More filters"
          title="More filters: path, trigger, who, pinned"
          data-testid="filter-more"
          onClick={() => setOpen(!open)}
        >
          <Icon name="filter" size={13} />
        </button>
        {active && (
          <button type="button" className="link-button" data-testid="filter-clear" onClick={() => clear()}>
            Clear
          </button>
        )}
      </div>
      {(open || filter.path) && (
        <label className="filter-field">
          <Icon name="file" size={12} />
          <input
            className="input input-small mono"
            data-testid="filter-path"
            placeholder="Path or glob: src/app.ts, docs/, **/*.css"
            aria-label="Only checkpoints that changed this path (file, folder or glob)"
            spellCheck={false}
            value={path}
            onChange={(e) => setPath(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') set({ path: path.trim() });
            }}
          />
        </label>
      )}
      {filter.path && history?.status === 'error' && (
        <div className="field-error" role="alert" data-testid="filter-path-error">
          {history.error}
        </div>
      )}
      {((filter.path && history?.status === 'loading') || searchingPaths) && <div className="muted small-text">Looking through the history…</div>}
      {open && (
        <div className="filter-row">
          <select className="input input-small" aria-label="Trigger" data-testid="filter-trigger" value={filter.trigger} onChange={(e) => set({ trigger: e.target.value as (typeof TRIGGERS)[number] | '' })}>
            <option value="">Any trigger</option>
            {TRIGGERS.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
          <select className="input input-small" aria-label="Who made it" data-testid="filter-lane" value={filter.lane} onChange={(e) => set({ lane: e.target.value })}>
            <option value="">Anyone</option>
            {lanes.map(({ lane, prompts: asked }) =>
              asked.size === 0 ? (
                <option key={lane.key} value={lane.key}>
                  {lane.author}
                </option>
              ) : (
                <optgroup key={lane.key} label={lane.author}>
                  <option value={lane.key}>All of {lane.author}</option>
                  {[...asked].map(([key, text]) => (
                    <option key={key} value={`${PROMPT_FILTER_PREFIX}${key}`}>
                      “{text.length > 60 ? `${text.slice(0, 59)}…` : text}”
                    </option>
                  ))}
                </optgroup>
              ),
            )}
          </select>
          <label className="filter-check">
            <input type="checkbox" data-testid="filter-pinned" checked={filter.pinned} onChange={(e) => set({ pinned: e.target.checked })} /> Pinned
          </label>
        </div>
      )}
    </div>
  );
});
