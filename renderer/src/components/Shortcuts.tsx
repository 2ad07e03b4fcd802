// Every keyboard shortcut in one table: the global handler runs the ones
// marked global, the "?" map lists them all (the slider's and list's own keys
// included), so the map cannot drift from what the keys do.
import { useEffect } from 'react';
import { create } from 'zustand';
import { useDiffNav } from '../state/diff-nav.js';
import { useDiff } from '../state/diff.js';
import { useFilter } from '../state/filter.js';
import { useLayout } from '../state/layout.js';
import { stepBy } from '../state/navigate.js';
import { usePrompts } from '../state/prompts.js';
import { indexOfId, useTimeline } from '../state/timeline.js';
import { Icon } from './Icon.js';

interface Shortcut {
  keys: string[];
  what: string;
  where: 'Anywhere' | 'Timeline slider' | 'Checkpoint list' | 'File list';
  /** Present for the global ones: what the key does. */
  run?: () => void;
}

export const useShortcutMap = create<{ open: boolean; setOpen(open: boolean): void }>()((set) => ({
  open: false,
  setOpen: (open) => set({ open }),
}));

function focusTestId(id: string): void {
  document.querySelector<HTMLElement>(`[data-testid="${id}"]`)?.focus();
}

export const SHORTCUTS: Shortcut[] = [
  { keys: ['?'], what: 'Show or hide this map of shortcuts', where: 'Anywhere', run: () => useShortcutMap.getState().setOpen(!useShortcutMap.getState().open) },
  { keys: ['j'], what: 'One checkpoint older', where: 'Anywhere', run: () => stepBy(-1) },
  { keys: ['k'], what: 'One checkpoint newer', where: 'Anywhere', run: () => stepBy(1) },
  { keys: ['n', 'F7'], what: 'Next change in the diff', where: 'Anywhere', run: () => useDiffNav.getState().go('next') },
  { keys: ['p', 'Shift+F7'], what: 'Previous change in the diff', where: 'Anywhere', run: () => useDiffNav.getState().go('previous') },
  {
    keys: ['h'],
    what: "Open file's history (only checkpoints that changed it); again to leave it",
    where: 'Anywhere',
    run: () => {
      const path = useDiff.getState().selectedPath;
      const { filter, followPath } = useFilter.getState();
      if (path) followPath(filter.path === path ? '' : path);
    },
  },
  {
    keys: ['P'],
    what: "The selected checkpoint's prompt: its whole change, with Restore to before it",
    where: 'Anywhere',
    run: () => {
      const { selectedId, checkpoints } = useTimeline.getState();
      const id = checkpoints[indexOfId(checkpoints, selectedId)]?.prompt_id;
      if (id) usePrompts.getState().select(id);
    },
  },
  { keys: ['/'], what: 'Search checkpoint reasons', where: 'Anywhere', run: () => focusTestId('filter-text') },
  { keys: ['t'], what: 'Focus the timeline slider', where: 'Anywhere', run: () => focusTestId('timeline-slider') },
  { keys: ['f'], what: 'Full-width diff on / off', where: 'Anywhere', run: () => useLayout.getState().toggle('fullDiff') },
  { keys: ['w'], what: 'Ignore whitespace in the diff on / off', where: 'Anywhere', run: () => useDiff.getState().setIgnoreWhitespace(!useDiff.getState().ignoreWhitespace) },
  { keys: ['['], what: 'Fold / unfold the checkpoint list', where: 'Anywhere', run: () => useLayout.getState().toggle('listCollapsed') },
  { keys: ['b'], what: 'Fold / unfold the sidebar', where: 'Anywhere', run: () => useLayout.getState().toggle('sidebarCollapsed') },
  { keys: ['l'], what: 'Follow live (keep the newest selected) on / off', where: 'Anywhere', run: () => useTimeline.getState().setFollowLive(!useTimeline.getState().followLive) },
  { keys: ['←', '→', '↑', '↓'], what: 'One checkpoint older / newer', where: 'Timeline slider' },
  { keys: ['PageUp', 'PageDown'], what: 'Ten checkpoints newer / older', where: 'Timeline slider' },
  { keys: ['Home', 'End'], what: 'Oldest / newest checkpoint', where: 'Timeline slider' },
  { keys: ['+', '-', '0'], what: 'Zoom in / out around the selection; see all', where: 'Timeline slider' },
  { keys: ['Wheel', 'Pinch'], what: 'Zoom around the pointer (Shift+wheel or sideways scroll pans)', where: 'Timeline slider' },
  { keys: ['↑', '↓'], what: 'Newer / older checkpoint', where: 'Checkpoint list' },
  { keys: ['PageUp', 'PageDown', 'Home', 'End'], what: 'A page newer / older; newest / oldest', where: 'Checkpoint list' },
  { keys: ['↑', '↓'], what: 'Previous / next file', where: 'File list' },
];

function keyName(e: KeyboardEvent): string {
  return e.key === 'F7' && e.shiftKey ? 'Shift+F7' : e.key;
}

/** The global keys, ignored while typing in a field. */
export function useShortcuts(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
      const target = e.target as HTMLElement | null;
      if (target && (target.closest('input, textarea, select, [contenteditable="true"]') && !target.closest('.monaco-editor'))) return;
      if (e.key === 'Escape' && useShortcutMap.getState().open) {
        useShortcutMap.getState().setOpen(false);
        return;
      }
      const name = keyName(e);
      const hit = SHORTCUTS.find((s) => s.run && s.keys.includes(name));
      if (!hit?.run) return;
      e.preventDefault();
      hit.run();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

export function ShortcutMap() {
  const open = useShortcutMap((s) => s.open);
  const setOpen = useShortcutMap((s) => s.setOpen);
  if (!open) return null;
  const groups = ['Anywhere', 'Timeline slider', 'Checkpoint list', 'File list'] as const;
  return (
    <div className="modal-backdrop" onClick={() => setOpen(false)}>
      <div className="modal shortcut-map" role="dialog" aria-modal="true" aria-label="Keyboard shortcuts" data-testid="shortcut-map" onClick={(e) => e.stopPropagation()}>
        <div className="modal-head">
          <h2>Keyboard shortcuts</h2>
          <button type="button" className="icon-button" aria-label="Close" onClick={() => setOpen(false)}>
            <Icon name="x" size={14} />
          </button>
        </div>
        <div className="modal-body shortcut-groups">
          {groups.map((g) => (
            <section key={g}>
              <h3>{g}</h3>
              <dl>
                {SHORTCUTS.filter((s) => s.where === g).map((s) => (
                  <div key={`${g}${s.keys.join()}`} className="shortcut-row">
                    <dt>
                      {s.keys.map((k) => (
                        <kbd key={k}>{k}</kbd>
                      ))}
                    </dt>
                    <dd>{s.what}</dd>
                  </div>
                ))}
              </dl>
            </section>
          ))}
        </div>
      </div>
    </div>
  );
}
