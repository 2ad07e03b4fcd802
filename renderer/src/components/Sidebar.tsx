// Left column: the workspaces (switch, add, remove from the list); theme and
// settings at the foot. Folded, it is a rail of icons (SidebarRail.tsx). The
// effects ledger is a panel of its own, opened from the header's badge.
import { useState, type FormEvent } from 'react';
import { useWorkspaces } from '../state/workspaces.js';
import { useTheme, type ThemeChoice } from '../state/theme.js';
import { baseName } from '../lib/paths.js';
import { Icon, type IconName } from './Icon.js';
import { SettingsButton } from './SettingsDialog.js';
import { sidebarFolded, useLayout } from '../state/layout.js';
import { Brand, SidebarRail } from './SidebarRail.js';

export function Sidebar() {
  const folded = useLayout(sidebarFolded);
  // With no workspace yet there is no diff to make room for: the sidebar stays open on its Add form.
  const none = useWorkspaces((s) => s.status !== 'loading' && s.list.length === 0);
  if (folded && !none) return <SidebarRail themeSwitch={<ThemeSwitch />} />;
  return (
    <aside className="sidebar" aria-label="Workspaces" data-folded="false">
      <Brand named />
      <WorkspaceList />
      <div className="sidebar-foot">
        <ThemeSwitch />
        <SettingsButton />
      </div>
    </aside>
  );
}

function WorkspaceList() {
  const list = useWorkspaces((s) => s.list);
  const current = useWorkspaces((s) => s.current);
  const status = useWorkspaces((s) => s.status);
  const error = useWorkspaces((s) => s.error);
  const switchTo = useWorkspaces((s) => s.switchTo);
  const remove = useWorkspaces((s) => s.remove);

  return (
    <section className="sidebar-section workspaces" aria-labelledby="workspaces-heading">
      <h2 id="workspaces-heading" className="section-title">
        Workspaces
      </h2>
      {status === 'loading' && <div className="sidebar-note">Loading…</div>}
      {status === 'error' && <div className="sidebar-note error-text">{error}</div>}
      <ul className="workspace-list">
        {list.map((w) => (
          <li key={w.path} className={w.path === current ? 'workspace-row current' : 'workspace-row'}>
            <button
              type="button"
              className="workspace-button"
              aria-current={w.path === current ? 'true' : undefined}
              title={w.path}
              onClick={() => switchTo(w.path)}
            >
              <Icon name="folder" size={14} />
              <span className="workspace-name">{baseName(w.path)}</span>
              {w.for_agents === true && (
                <span className="workspace-for-agents" title="Watched for an agent's hooks (not in your list)">
                  agent
                </span>
              )}
              {w.state !== 'watching' && w.state !== 'idle' && <span className={`state-dot state-${w.state}`} title={w.state} />}
            </button>
            <button
              type="button"
              className="icon-button row-action"
              aria-label={w.for_agents === true ? `Stop watching ${baseName(w.path)} (its history stays in the store)` : `Remove ${baseName(w.path)} from the list (its history stays in the store)`}
              title={w.for_agents === true ? 'Stop watching — its history stays in the store' : 'Remove from the list — its history stays in the store'}
              onClick={() => void remove(w.path)}
            >
              <Icon name="x" size={12} />
            </button>
          </li>
        ))}
      </ul>
      <AddWorkspace />
    </section>
  );
}

function AddWorkspace() {
  const canPick = useWorkspaces((s) => s.canPick);
  const adding = useWorkspaces((s) => s.adding);
  const addError = useWorkspaces((s) => s.addError);
  const add = useWorkspaces((s) => s.add);
  const pickAndAdd = useWorkspaces((s) => s.pickAndAdd);
  const [path, setPath] = useState('');

  if (canPick) {
    return (
      <div className="add-workspace">
        <button type="button" className="button button-subtle full" data-testid="workspace-add" disabled={adding} onClick={() => void pickAndAdd()}>
          <Icon name="plus" size={14} /> Add workspace…
        </button>
        {addError && <div className="field-error" role="alert">{addError}</div>}
      </div>
    );
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await add(path)) setPath('');
  };

  return (
    <form className="add-workspace" onSubmit={(e) => void submit(e)}>
      <label className="field-label" htmlFor="workspace-path">
        Add a folder
      </label>
      <div className="input-row">
        <input
          id="workspace-path"
          className="input mono"
          data-testid="workspace-path-input"
          placeholder="/path/to/project"
          spellCheck={false}
          autoComplete="off"
          value={path}
          onChange={(e) => setPath(e.target.value)}
        />
        <button type="submit" className="button" data-testid="workspace-add" disabled={adding}>
          Add
        </button>
      </div>
      {addError && <div className="field-error" role="alert">{addError}</div>}
    </form>
  );
}

const THEMES: { value: ThemeChoice; icon: IconName; label: string }[] = [
  { value: 'system', icon: 'monitor', label: 'Follow the system' },
  { value: 'light', icon: 'sun', label: 'Light' },
  { value: 'dark', icon: 'moon', label: 'Dark' },
];

function ThemeSwitch() {
  const choice = useTheme((s) => s.choice);
  const setChoice = useTheme((s) => s.setChoice);
  return (
    <div className="theme-switch" role="radiogroup" aria-label="Theme">
      {THEMES.map((t) => (
        <button
          key={t.value}
          type="button"
          role="radio"
          aria-checked={choice === t.value}
          className={choice === t.value ? 'theme-option active' : 'theme-option'}
          title={t.label}
          aria-label={t.label}
          onClick={() => setChoice(t.value)}
        >
          <Icon name={t.icon} size={14} />
        </button>
      ))}
    </div>
  );
}
