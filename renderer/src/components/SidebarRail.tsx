// The sidebar folded to a rail of icons: one button per workspace (its
// initial, the full path on hover and for screen readers), add, open the
// sidebar, theme and settings. 48 px instead of 248: the room the diff needs.
import type { ReactNode } from 'react';
import { useWorkspaces } from '../state/workspaces.js';
import { useLayout } from '../state/layout.js';
import { baseName } from '../lib/paths.js';
import { Icon } from './Icon.js';
import { SettingsButton } from './SettingsDialog.js';

export function SidebarRail({ themeSwitch }: { themeSwitch: ReactNode }) {
  const list = useWorkspaces((s) => s.list);
  const current = useWorkspaces((s) => s.current);
  const switchTo = useWorkspaces((s) => s.switchTo);
  const toggle = useLayout((s) => s.toggle);
  const open = () => toggle('sidebarCollapsed');
  return (
    <aside className="sidebar sidebar-rail" aria-label="Workspaces" data-folded="true">
      <Brand />
      <nav className="rail-workspaces" aria-label="Workspaces">
        {list.map((w) => {
          const name = baseName(w.path);
          return (
            <button
              key={w.path}
              type="button"
              className={w.path === current ? 'rail-button rail-workspace current' : 'rail-button rail-workspace'}
              aria-current={w.path === current ? 'true' : undefined}
              aria-label={`${name} (${w.path})`}
              title={w.path}
              data-testid="rail-workspace"
              onClick={() => switchTo(w.path)}
            >
              <span aria-hidden="true">{name.slice(0, 1).toUpperCase() || '?'}</span>
              {w.state !== 'watching' && w.state !== 'idle' && <span className={`state-dot state-${w.state}`} aria-hidden="true" />}
            </button>
          );
        })}
        <button type="button" className="rail-button" aria-label="Add a workspace (opens the sidebar)" title="Add a workspace" data-testid="rail-add" onClick={open}>
          <Icon name="plus" size={14} />
        </button>
      </nav>
      <div className="sidebar-foot rail-foot">
        <button type="button" className="rail-button" aria-label="Open the sidebar (b)" title="Open the sidebar (b)" data-testid="rail-open" onClick={open}>
          <Icon name="sidebar" size={14} />
        </button>
        {themeSwitch}
        <SettingsButton />
      </div>
    </aside>
  );
}

/** The app's mark at the top of the sidebar, with its name when the sidebar is open. */
export function Brand({ named = false }: { named?: boolean }) {
  return (
    <div className="brand">
      <span className="brand-mark" aria-hidden="true">
        <Icon name="clock" size={16} />
      </span>
      {named && <span className="brand-name">Chronoscope</span>}
    </div>
  );
}
