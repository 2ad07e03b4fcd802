// The checkpoints newest first, in sync with the slider. Windowed: only the
// rows in view (plus a margin) exist in the DOM, so 1,000+ checkpoints scroll
// and scrub smoothly.
import { memo, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { Checkpoint } from '../../../shared/model.js';
import { useTimeline } from '../state/timeline.js';
import { useClock } from '../state/clock.js';
import { useBanners } from '../state/banners.js';
import { absoluteTime, relativeTime, shortId } from '../lib/time.js';
import { LineStats, Skeleton, TriggerBadge } from './bits.js';
import { Icon } from './Icon.js';
import { OriginBadge } from './HermesLane.js';

const ROW_HEIGHT = 58;
const OVERSCAN = 6;

export function CheckpointList() {
  const checkpoints = useTimeline((s) => s.checkpoints);
  const selectedId = useTimeline((s) => s.selectedId);
  const status = useTimeline((s) => s.status);
  const error = useTimeline((s) => s.error);
  const select = useTimeline((s) => s.select);
  const step = useTimeline((s) => s.step);
  const selectPosition = useTimeline((s) => s.selectPosition);
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

  const selectedIndex = checkpoints.findIndex((c) => c.id === selectedId);

  // Keep the selected row in view as the slider moves.
  useEffect(() => {
    const el = scroller.current;
    if (!el || selectedIndex < 0) return;
    const top = selectedIndex * ROW_HEIGHT;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + ROW_HEIGHT > el.scrollTop + el.clientHeight) el.scrollTop = top + ROW_HEIGHT - el.clientHeight;
  }, [selectedIndex]);

  if (status === 'loading') {
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
      ArrowUp: () => step(1),
      ArrowDown: () => step(-1),
      PageUp: () => step(page),
      PageDown: () => step(-page),
      Home: () => selectPosition(checkpoints.length - 1),
      End: () => selectPosition(0),
    };
    const move = moves[e.key];
    if (move) {
      e.preventDefault();
      move();
    }
  };

  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(checkpoints.length, Math.ceil((scrollTop + height) / ROW_HEIGHT) + OVERSCAN);
  const rows: ReactNode[] = [];
  for (let i = first; i < last; i++) {
    const c = checkpoints[i]!;
    rows.push(<CheckpointRow key={c.id} checkpoint={c} index={i} selected={c.id === selectedId} onSelect={select} />);
  }

  return (
    <div className="checkpoint-pane">
      <div className="pane-title">
        Checkpoints <span className="count">{checkpoints.length}</span>
      </div>
      {checkpoints.length === 0 ? (
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
          aria-activedescendant={selectedId ? `cp-${selectedId}` : undefined}
          onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
          onKeyDown={onKeyDown}
        >
          <div className="checkpoint-spacer" style={{ height: checkpoints.length * ROW_HEIGHT }}>
            {rows}
          </div>
        </div>
      )}
    </div>
  );
}

const CheckpointRow = memo(function CheckpointRow({
  checkpoint: c,
  index,
  selected,
  onSelect,
}: {
  checkpoint: Checkpoint;
  index: number;
  selected: boolean;
  onSelect: (id: string) => void;
}) {
  const now = useClock((s) => s.now);
  const setPinned = useTimeline((s) => s.setPinned);
  return (
    <div
      id={`cp-${c.id}`}
      role="option"
      aria-selected={selected}
      data-testid="checkpoint-item"
      data-checkpoint-id={c.id}
      className={`checkpoint-row${selected ? ' selected' : ''}${c.origin === 'hermes' ? ' origin-hermes' : ''}`}
      style={{ top: index * ROW_HEIGHT, height: ROW_HEIGHT }}
      onClick={() => onSelect(c.id)}
    >
      <div className="row-line">
        <TriggerBadge trigger={c.trigger} />
        <OriginBadge checkpoint={c} />
        <span className="row-reason" title={c.reason}>
          {c.reason || <span className="muted">No reason given</span>}
        </span>
        {/* Hermes keeps (and prunes) its own checkpoints: no pin for them. */}
        {c.origin !== 'hermes' && (
          <button
            type="button"
            tabIndex={-1}
            className={c.pinned ? 'pin-toggle pinned' : 'pin-toggle'}
            aria-label={c.pinned ? 'Unpin (retention may prune it)' : 'Pin (retention keeps it)'}
            title={c.pinned ? 'Pinned — kept by retention. Click to unpin.' : 'Pin to keep it through retention'}
            onClick={(e) => {
              e.stopPropagation();
              setPinned(c.id, !c.pinned).catch((err: unknown) => useBanners.getState().report(err, 'Pin'));
            }}
          >
            <Icon name="pin" size={12} />
          </button>
        )}
      </div>
      <div className="row-line row-meta">
        <time dateTime={c.time} title={absoluteTime(c.time_ms, now)}>
          {relativeTime(c.time_ms, now)}
        </time>
        <span className="dot-sep" aria-hidden="true">·</span>
        <span>
          {c.stats.files} file{c.stats.files === 1 ? '' : 's'}
        </span>
        <LineStats insertions={c.stats.insertions} deletions={c.stats.deletions} />
        <span className="row-id mono">{shortId(c.id)}</span>
      </div>
    </div>
  );
});
