import { useWorkspaces } from '../state/workspaces.js';
import { Sidebar } from './Sidebar.js';
import { Header } from './Header.js';
import { ConnectionBanner, ErrorBanners } from './Banners.js';
import { DamageBanner } from './DamageBanner.js';
import { TimelineSlider } from './TimelineSlider.js';
import { CheckpointList } from './CheckpointList.js';
import { DetailsPane } from './DetailsPane.js';
import { Toasts } from './Toasts.js';
import { SettingsDialog } from './SettingsDialog.js';
import { Icon } from './Icon.js';
import { ApprovalsPanel } from './ApprovalsPanel.js';
import type { CSSProperties, MouseEvent } from 'react';
import { listFolded, sidebarFolded, useLayout } from '../state/layout.js';
import { Splitter } from './Splitter.js';
import { ConnectAgents } from './ConnectAgents.js';
import { EffectsDrawer } from './EffectsPanel.js';
import { ShortcutMap, useShortcuts } from './Shortcuts.js';

export function App() {
  const current = useWorkspaces((s) => s.current);
  const status = useWorkspaces((s) => s.status);
  const layout = useLayout();
  useShortcuts();
  const classes = ['app'];
  if (sidebarFolded(layout)) classes.push('sidebar-folded');
  if (listFolded(layout)) classes.push('list-folded');
  if (layout.stacked) classes.push('files-stacked');
  if (layout.fullDiff) classes.push('full-diff');
  const vars = {
    '--list-width': `${layout.listWidth}px`,
    '--files-width': `${layout.filesWidth}px`,
    ...(layout.filesHeight > 0 ? { '--files-height': `${layout.filesHeight}px` } : {}),
  } as CSSProperties;
  return (
    <div className={classes.join(' ')} style={vars} data-testid="app">
      <a className="skip-link" href="#timeline" data-testid="skip-link" onClick={skipToTimeline}>
        Skip to the timeline
      </a>
      <Sidebar />
      <main className="main">
        <ConnectionBanner />
        <ErrorBanners />
        <ApprovalsPanel />
        <Header />
        {current ? (
          <>
            <DamageBanner />
            <div id="timeline" tabIndex={-1} className="timeline-anchor">
              <TimelineSlider />
            </div>
            <div className="split">
              <CheckpointList />
              <Splitter pane="listWidth" label="Checkpoint list width" onFold={() => layout.toggle('listCollapsed')} />
              <DetailsPane workspace={current} />
            </div>
          </>
        ) : (
          status !== 'loading' && <NoWorkspace />
        )}
      </main>
      <EffectsDrawer />
      <Toasts />
      <SettingsDialog />
      <ShortcutMap />
    </div>
  );
}

/** The skip link lands on the slider's handle itself (the wrapper when there is none yet). */
function skipToTimeline(e: MouseEvent<HTMLAnchorElement>): void {
  const anchor = document.getElementById('timeline');
  if (!anchor) return;
  e.preventDefault();
  (anchor.querySelector<HTMLElement>('[role="slider"]') ?? anchor).focus();
}

function NoWorkspace() {
  const canPick = useWorkspaces((s) => s.canPick);
  return (
    <div className="empty-state big">
      <Icon name="folder" size={32} />
      <h2>Add a workspace to start</h2>
      <p className="muted">
        {canPick ? (
          <>Press <strong>Add workspace…</strong> in the sidebar and choose the folder your agent works in.</>
        ) : (
          <>Type the folder's absolute path in <strong>Add a folder</strong> in the sidebar and press <strong>Add</strong>.</>
        )}{' '}
        Chronoscope keeps its history in a private store; the folder's own <code>.git</code> is never touched.
      </p>
      <p className="muted">
        From a terminal: <code>chronoscope serve --workspace DIR</code> opens one directly.
      </p>
      <ConnectAgents />
    </div>
  );
}
