// The checkpoints newest first, in sync with the slider, grouped under a
// header whenever the author changes (an agent session, the watcher, a
// person, restores) and, within an agent's session, under a header for each
// prompt (PromptHeader.tsx). With a filter on, only matching checkpoints are
// listed, each saying where it matched when that is not in its title.
// Windowed: only the rows in view (plus a margin) exist in the DOM, so
// 10,000 checkpoints scroll and scrub smoothly.
import { memo, useCallback, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { Checkpoint, PromptRecord } from '../../../shared/model.js';
import { useTimeline } from '../state/timeline.js';
import { useClock } from '../state/clock.js';
import { useBanners } from '../state/banners.js';
import { absoluteTime, dayKey, dayLabel, relativeTime, shortId, timeOfDay } from '../lib/time.js';
import { LineStats, Skeleton, TriggerBadge } from './bits.js';
import { Icon } from './Icon.js';
import { OriginBadge } from './HermesLane.js';
import { useFilter } from '../state/filter.js';
import { selectEdge, stepBy } from '../state/navigate.js';
import { laneOf, type Lane } from '../lib/lanes.js';
import { wordsIn } from '../lib/checkpoint-title.js';
import { leftOutText } from '../../../shared/checkpoint-words.js';
import { FilterBar } from './FilterBar.js';
import { foldRestoreRows } from '../lib/restore-rows.js';
import { useScrub, useScrubThrottled } from '../state/scrub.js';
import { usePrompts } from '../state/prompts.js';
import { promptKeyOf } from '../lib/prompt-groups.js';
import { PromptHeader, promptHeaderHeight } from './PromptHeader.js';
import { MatchWhere } from './MatchWhere.js';

const ROW_HEIGHT = 58;
const HEADER_HEIGHT = 26;
const OVERSCAN = 6;
const LIST_EVERY_MS = 120;

/** `ordinal`: the item's place among items of its kind (the virtual list's slot keys come from it). */
type Item =
  | { kind: 'day'; label: string; ordinal: number }
  | { kind: 'header'; lane: Lane; count: number; ordinal: number }
  | { kind: 'prompt'; key: string; record: PromptRecord | undefined; first: Checkpoint; colour: number; count: number; ordinal: number }
  | { kind: 'row'; checkpoint: Checkpoint; ordinal: number };

function itemHeight(item: Item, expanded: ReadonlySet<string>): number {
  if (item.kind === 'row') return ROW_HEIGHT;
  if (item.kind === 'prompt') return promptHeaderHeight(expanded.has(item.key));
  return HEADER_HEIGHT;
}

/**
 * Rows under a header for each day, a header before each run of one author (lane) within it, within an
 * agent's run a header for each prompt, and each item's top offset.
 */
function layout(
  list: Checkpoint[],
  nowMs: number,
  prompts: ReadonlyMap<string, PromptRecord>,
  expanded: ReadonlySet<string>,
): { items: Item[]; tops: Float64Array; rowIndex: Map<string, number>; height: number } {
  const items: Item[] = [];
  let header: Extract<Item, { kind: 'header' }> | null = null;
  let prompt: Extract<Item, { kind: 'prompt' }> | null = null;
  let headers = 0;
  let promptHeaders = 0;
  let rows = 0;
  let days = 0;
  let day = '';
  for (const c of list) {
    const lane = laneOf(c);
    const thisDay = dayKey(c.time_ms);
    if (thisDay !== day) {
      day = thisDay;
      items.push({ kind: 'day', label: dayLabel(c.time_ms, nowMs), ordinal: days++ });
      header = null;
    }
    if (!header || header.lane.key !== lane.key) {
      header = { kind: 'header', lane, count: 0, ordinal: headers++ };
      items.push(header);
      prompt = null;
    }
    header.count++;
    const key = promptKeyOf(c);
    if (key === null) prompt = null;
    else if (!prompt || prompt.key !== key) {
      prompt = { kind: 'prompt', key, record: c.prompt_id ? prompts.get(c.prompt_id) : undefined, first: c, colour: lane.colour, count: 0, ordinal: promptHeaders++ };
      items.push(prompt);
    }
    if (prompt) prompt.count++;
    items.push({ kind: 'row', checkpoint: c, ordinal: rows++ });
  }
  const tops = new Float64Array(items.length + 1);
  const rowIndex = new Map<string, number>();
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (item.kind === 'row') rowIndex.set(item.checkpoint.id, i);
    tops[i + 1] = tops[i]! + itemHeight(item, expanded);
  }
  return { items, tops, rowIndex, height: tops[items.length]! };
}

/** The first item whose bottom is below y. */
function itemAt(tops: Float64Array, count: number, y: number): number {
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (tops[mid + 1]! <= y) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function CheckpointList() {
  const all = useTimeline((s) => s.checkpoints);
  const matches = useFilter((s) => s.matches);
  // A file's history on its way: its count is not known yet (never "0 of 10000").
  const historyLoading = useFilter((s) => s.history?.status === 'loading');
  // One row per restore: its safety checkpoint folds into it (lib/restore-rows.ts).
  const folded = useMemo(() => foldRestoreRows(matches ?? all), [matches, all]);
  const checkpoints = folded.rows;
  // While the handle is dragged the list follows at ~8 steps a second: a list
  // jumping hundreds of rows redoes the layout and paint of every row, the
  // largest cost of a step at 10,000 checkpoints.
  const selectedId = useScrubThrottled(useTimeline((s) => s.selectedId), LIST_EVERY_MS);
  const scrubbing = useScrub((s) => s.active);
  const status = useTimeline((s) => s.status);
  // The newest page is in and the rest is on its way: the count says it is not all.
  const more = useTimeline((s) => (s.partial ? '+' : ''));
  const error = useTimeline((s) => s.error);
  const select = useTimeline((s) => s.select);
  const refresh = useTimeline((s) => s.refresh);
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setHeight(el.clientHeight));
    observer.observe(el);
    setHeight(el.clientHeight);
    return () => observer.disconnect();
  }, [status]);

  // The day labels say "Today" and "Yesterday": laid out again when the day turns.
  const today = useClock((s) => dayKey(s.now));
  const prompts = usePrompts((s) => s.byId);
  const selectedPromptId = usePrompts((s) => s.selected);
  const selectPrompt = usePrompts((s) => s.select);
  const promptsLoaded = usePrompts((s) => s.loaded);
  // A prompt's whole change is shown while its last checkpoint stays selected.
  const promptShown = selectedPromptId !== null && prompts.get(selectedPromptId)?.last === selectedId;
  // A row picked while its prompt's whole change is shown: that checkpoint alone (it may be the prompt's last).
  const selectRow = useCallback((id: string) => {
    usePrompts.getState().clearSelection();
    select(id);
  }, [select]);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = useCallback((key: string) => setExpanded((e) => {
    const next = new Set(e);
    if (!next.delete(key)) next.add(key);
    return next;
  }), []);
  const { items, tops, rowIndex, height: total } = useMemo(() => layout(checkpoints, Date.now(), prompts, expanded), [checkpoints, today, prompts, expanded]);
  // For each item, the day header it sits under: the header pinned at the top says the date of the rows in view.
  const dayOf = useMemo(() => dayHeaderOf(items), [items]);
  const selectedIndex = selectedId ? (rowIndex.get(folded.rowOf.get(selectedId) ?? selectedId) ?? -1) : -1;

  // Keep the selected row in view as the slider moves. From the scroll offset
  // and height kept in state, not read from the DOM (a read right after React's
  // commit forces a layout: ~5 ms a step at 10,000); the rows of the new offset
  // render in the same frame (layout effect), so the list never flashes empty.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || selectedIndex < 0) return;
    const top = tops[selectedIndex]!;
    // Show the headers too (day, author, prompt) when the row is the first under them.
    let above = selectedIndex;
    while (above > 0 && items[above - 1]!.kind !== 'row') above--;
    const headerAbove = top - tops[above]!;
    let next: number | null = null;
    if (top - headerAbove < scrollTop) next = top - headerAbove;
    else if (top + ROW_HEIGHT > scrollTop + height) next = top + ROW_HEIGHT - height;
    if (next === null) return;
    el.scrollTop = next;
    setScrollTop(next);
    // scrollTop and height only matter when the selection moves
  }, [selectedIndex, tops, items]);

  if (status === 'loading' || status === 'idle') {
    return (
      <div className="checkpoint-pane">
        <div className="pane-title">Checkpoints</div>
        <div className="pane-body padded">
          <Skeleton lines={6} />
        </div>
      </div>
    );
  }

  if (status === 'error') {
    return (
      <div className="checkpoint-pane">
        <div className="pane-title">Checkpoints</div>
        <div className="pane-body padded">
          <div className="inline-error" role="alert">
            <Icon name="alert" size={14} /> <span>{error}</span>
            <button type="button" className="link-button" onClick={() => void refresh()}>
              Retry
            </button>
          </div>
        </div>
      </div>
    );
  }

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    // The list runs newest first: up is newer, which is +1 on the slider.
    const page = Math.max(1, Math.floor(height / ROW_HEIGHT) - 1);
    const moves: Record<string, () => void> = {
      ArrowUp: () => stepBy(1),
      ArrowDown: () => stepBy(-1),
      PageUp: () => stepBy(page),
      PageDown: () => stepBy(-page),
      Home: () => selectEdge('newest'),
      End: () => selectEdge('oldest'),
    };
    const move = moves[e.key];
    if (move) {
      e.preventDefault();
      move();
    }
  };

  // The margin serves scrolling; while scrubbing the list jumps instead, and rows out of view are only work.
  const overscan = scrubbing ? 0 : OVERSCAN;
  const first = Math.max(0, itemAt(tops, items.length, scrollTop) - overscan);
  const last = Math.min(items.length, itemAt(tops, items.length, scrollTop + height) + 1 + overscan);
  const rows: ReactNode[] = [];
  // Keyed by slot, not by checkpoint: when a drag jumps the list by hundreds
  // of rows, React rewrites the text of the rows already there instead of
  // removing and creating every row's DOM at each step. Slots count rows and
  // headers apart (their ordinals): by item index, every header that scrolled
  // in or out shifted which rows matched a key, and those rows were rebuilt.
  const slots = Math.max(64, last - first);
  for (let i = first; i < last; i++) {
    const item = items[i]!;
    if (item.kind === 'day') {
      rows.push(
        <div key={`d${item.ordinal % slots}`} className="day-header" data-testid="day-header" role="presentation" style={{ top: tops[i], height: HEADER_HEIGHT }}>
          {item.label}
        </div>,
      );
    } else if (item.kind === 'header') {
      rows.push(
        <div key={`h${item.ordinal % slots}`} className={`lane-header lane-bg-${item.lane.colour}`} data-testid="lane-header" style={{ top: tops[i], height: HEADER_HEIGHT }} title={item.lane.author}>
          <span className="lane-swatch" aria-hidden="true" />
          <span className="lane-name">{item.lane.author}</span>
          <span className="count">{item.count}</span>
        </div>,
      );
    } else if (item.kind === 'prompt') {
      rows.push(
        <PromptHeader
          key={`p${item.ordinal % slots}`}
          promptKey={item.key}
          record={item.record}
          awaited={!promptsLoaded && item.first.prompt_id === item.key}
          fallback={item.first.prompt ?? ''}
          agent={item.first.agent}
          count={item.count}
          colour={item.colour}
          top={tops[i]!}
          expanded={expanded.has(item.key)}
          selected={promptShown && item.record?.id === selectedPromptId}
          onSelect={selectPrompt}
          onToggle={toggle}
        />,
      );
    } else {
      const c = item.checkpoint;
      rows.push(<CheckpointRow key={`r${item.ordinal % slots}`} checkpoint={c} top={tops[i]!} selected={i === selectedIndex && !promptShown} onSelect={selectRow} />);
    }
  }

  return (
    <div className="checkpoint-pane">
      <div className="pane-title">
        Checkpoints <span className="count" data-testid="checkpoint-count">{matches ? (historyLoading ? `… of ${all.length}${more}` : `${matches.length} of ${all.length}${more}`) : `${all.length}${more}`}</span>
      </div>
      <FilterBar />
      {matches && matches.length === 0 && all.length > 0 && !historyLoading ? (
        <div className="pane-body padded">
          <p className="muted" data-testid="filter-empty">
            No checkpoint matches the filter.{' '}
            <button type="button" className="link-button" onClick={() => useFilter.getState().clear()}>
              Clear filter
            </button>
          </p>
        </div>
      ) : checkpoints.length === 0 && all.length > 0 ? (
        // A file's history still being read: not "no checkpoints" (there are).
        <div className="pane-body padded" aria-busy="true">
          <p className="muted" data-testid="list-looking">
            Looking through {all.length} checkpoints…
          </p>
        </div>
      ) : checkpoints.length === 0 ? (
        <div className="pane-body padded">
          <div className="empty-state small">
            <Icon name="clock" size={20} />
            <p>No checkpoints yet.</p>
            <p className="muted">
              Run <code>chronoscope snapshot</code> in the workspace, or press <strong>Take checkpoint now</strong>.
            </p>
          </div>
        </div>
      ) : (
        <div
          className="pane-body checkpoint-scroller"
          ref={scroller}
          role="listbox"
          tabIndex={0}
          aria-label="Checkpoints, newest first"
          aria-activedescendant={promptShown ? `prompt-${selectedPromptId}` : selectedId ? `cp-${folded.rowOf.get(selectedId) ?? selectedId}` : undefined}
          onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
          onKeyDown={onKeyDown}
        >
          <PinnedDay items={items} tops={tops} dayOf={dayOf} scrollTop={scrollTop} />
          <div className="checkpoint-spacer" style={{ height: total }}>
            {rows}
          </div>
        </div>
      )}
    </div>
  );
}

/** Each item's day header (its index), so the pinned header is found without a walk back at each scroll. */
function dayHeaderOf(items: readonly Item[]): Int32Array {
  const of = new Int32Array(items.length);
  let day = -1;
  for (let i = 0; i < items.length; i++) {
    if (items[i]!.kind === 'day') day = i;
    of[i] = day;
  }
  return of;
}

/** The day of the rows at the top of the list, pinned there once its own header has scrolled away (deep in a long history a row says only its time). */
function PinnedDay({ items, tops, dayOf, scrollTop }: { items: readonly Item[]; tops: Float64Array; dayOf: Int32Array; scrollTop: number }) {
  const top = itemAt(tops, items.length, scrollTop);
  const day = dayOf[Math.min(top, items.length - 1)] ?? -1;
  const item = items[day];
  if (item?.kind !== 'day' || tops[day]! >= scrollTop) return null;
  return (
    <div className="day-header day-pinned" data-testid="day-pinned" aria-hidden="true" style={{ height: HEADER_HEIGHT }}>
      {item.label}
    </div>
  );
}

const CheckpointRow = memo(function CheckpointRow({
  checkpoint: c,
  top,
  selected,
  onSelect,
}: {
  checkpoint: Checkpoint;
  top: number;
  selected: boolean;
  onSelect: (id: string) => void;
}) {
  const now = useClock((s) => s.now);
  const setPinned = useTimeline((s) => s.setPinned);
  // The whole list (not the filtered one): a checkpoint is worded against its true previous one.
  const all = useTimeline((s) => s.checkpoints);
  const words = useMemo(() => wordsIn(all, c), [all, c]);
  return (
    <div
      id={`cp-${c.id}`}
      role="option"
      aria-selected={selected}
      data-testid="checkpoint-item"
      data-checkpoint-id={c.id}
      className={`checkpoint-row${selected ? ' selected' : ''}${c.origin === 'hermes' ? ' origin-hermes' : ''}`}
      style={{ top, height: ROW_HEIGHT }}
      onClick={() => onSelect(c.id)}
    >
      <div className="row-line">
        <TriggerBadge trigger={c.trigger} />
        <OriginBadge checkpoint={c} />
        <span className="row-reason" title={words.note ? `${words.title}\n${words.note}` : words.title} data-testid="checkpoint-title">
          {words.title}
        </span>
        {/* Hermes keeps (and prunes) its own checkpoints: no pin for them. A pointer shortcut only: a control inside
            an option is unreachable to assistive technology (axe: nested-interactive); the details pane has the Pin button. */}
        {c.origin !== 'hermes' && (
          <span
            aria-hidden="true"
            className={c.pinned ? 'pin-toggle pinned' : 'pin-toggle'}
            title={c.pinned ? 'Pinned — kept by retention. Click to unpin.' : 'Pin to keep it through retention'}
            onClick={(e) => {
              e.stopPropagation();
              setPinned(c.id, !c.pinned).catch((err: unknown) => useBanners.getState().report(err, 'Pin'));
            }}
          >
            <Icon name="pin" size={12} />
          </span>
        )}
      </div>
      <div className="row-line row-meta">
        {/* The day is in the header above: the row says the time of day. */}
        <time dateTime={c.time} title={`${absoluteTime(c.time_ms, now)} (${relativeTime(c.time_ms, now)})`}>
          {timeOfDay(c.time_ms)}
        </time>
        <span className="dot-sep" aria-hidden="true">·</span>
        {/* Only a left-out file changed: the row names it (below) rather than "0 files +0 −0". */}
        {(c.stats.files > 0 || c.skipped.length === 0) && (
          <>
            <span>
              {c.stats.files} file{c.stats.files === 1 ? '' : 's'}
            </span>
            <LineStats insertions={c.stats.insertions} deletions={c.stats.deletions} />
          </>
        )}
        {c.skipped.length > 0 && (
          <span className="row-left-out" data-testid="row-left-out" title={leftOutText(c.skipped) ?? undefined}>
            {leftOutText(c.skipped)}
          </span>
        )}
        <MatchWhere checkpoint={c} />
        <span className="row-id mono">{shortId(c.id)}</span>
      </div>
    </div>
  );
});
