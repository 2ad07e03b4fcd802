// Connects host events and the open workspace to the stores, once, at start.
// Keeping this in one place means no component subscribes to the transport.
import type { EffectRecord } from '../../../shared/model.js';
import { client } from './client.js';
import { useBanners } from './banners.js';
import { useConnection } from './connection.js';
import { useDetails } from './details.js';
import { useDiff } from './diff.js';
import { useEffects } from './effects.js';
import { useProgress } from './progress.js';
import { useRestore } from './restore.js';
import { previousOf, useTimeline } from './timeline.js';
import { useToasts } from './toasts.js';
import { useWorkspaces } from './workspaces.js';
import { effectKindLabel } from '../lib/effects.js';
import { checkpointsWord, HANDFUL } from '../lib/trash-words.js';
import { startVerifyWiring } from './verify-wiring.js';

function isCurrent(workspace: string): boolean {
  const { current, list } = useWorkspaces.getState();
  if (!current) return false;
  if (workspace === current) return true;
  return list.some((w) => w.path === current && w.id === workspace);
}

function announceEffect(effect: EffectRecord): void {
  const title = `${effectKindLabel(effect.kind)}: ${effect.target}`;
  useToasts.getState().push(
    { tone: 'warning', title, body: effect.summary || effect.command, command: effect.compensation, showsEffects: true },
    15_000,
  );
  const host = useConnection.getState().info?.host;
  // In Electron the tray already notifies; the page only does it in the browser host.
  if (host !== 'electron' && typeof Notification !== 'undefined' && Notification.permission === 'granted') {
    try {
      const body = effect.compensation ? `Undo with: ${effect.compensation}` : 'No compensation command is known.';
      const notice = new Notification(`Chronoscope — ${title}`, { body, tag: effect.id });
      notice.onclick = () => {
        window.focus();
        useEffects.getState().setPanelOpen(true);
      };
    } catch {
      // some contexts (file://, insecure origins) refuse notifications: the toast is enough
    }
  }
}

/** The checkpoint that was current when the effect happened: its own record, else the last one before it. */
function checkpointAt(effect: EffectRecord): string | null {
  const { checkpoints } = useTimeline.getState();
  if (effect.checkpoint && checkpoints.some((c) => c.id === effect.checkpoint)) return effect.checkpoint;
  return (checkpoints.find((c) => c.time_ms <= effect.time_ms) ?? checkpoints[checkpoints.length - 1])?.id ?? null;
}

/** The tray's "Show in timeline": open the effect's workspace and select its moment. */
function focusEffect(workspace: string, effect: EffectRecord): void {
  // A window opened for this request may still be waiting for its list of workspaces.
  if (useWorkspaces.getState().status === 'loading') {
    const off = useWorkspaces.subscribe((s) => {
      if (s.status === 'loading') return;
      off();
      focusEffect(workspace, effect);
    });
    return;
  }
  const { list, switchTo } = useWorkspaces.getState();
  const entry = list.find((w) => w.path === workspace || w.id === workspace);
  if (!entry) return;
  switchTo(entry.path);
  const apply = () => {
    const id = checkpointAt(effect);
    if (id) useTimeline.getState().select(id);
    useEffects.getState().upsert(effect);
    useEffects.getState().setPanelOpen(true);
  };
  if (useTimeline.getState().status === 'ready' && useTimeline.getState().workspace === entry.path) {
    apply();
    return;
  }
  // Wait for the switched-to workspace's timeline to arrive.
  const off = useTimeline.subscribe((s) => {
    if (s.status === 'ready' || s.status === 'error') {
      off();
      if (s.status === 'ready') apply();
    }
  });
}

export function startWiring(): void {
  const c = client();
  // Known before app:info answers, so Electron never flashes the typed-path form.
  useWorkspaces.setState({ canPick: c.kind === 'electron' });
  c.onStatus((status) => useConnection.getState().setStatus(status));
  startVerifyWiring(c);

  c.on('checkpoint:added', ({ workspace, checkpoint }) => {
    if (!isCurrent(workspace)) return;
    useTimeline.getState().insert(checkpoint);
    useDiff.getState().invalidateWorkspace();
  });
  // Retention moved some into the trash (the service applies it when quiet): the list follows.
  // Said, with Undo, not done silently: a history that shrinks under a person's eyes is alarming
  // unless they know why and can take it back. More than a handful stays until dismissed.
  c.on('checkpoints:pruned', ({ workspace, removed, trash }) => {
    if (!isCurrent(workspace)) return;
    void useTimeline.getState().refresh();
    if (removed.length === 0) return;
    useToasts.getState().push(
      {
        tone: 'info',
        title: `Retention moved ${checkpointsWord(removed.length)} to the trash`,
        body: 'The trash keeps them 14 days: Undo brings them back (Settings › Retention › Recently removed lists every prune).',
        ...(trash === null
          ? {}
          : {
              action: {
                label: 'Undo',
                run: async () => {
                  try {
                    await client().invoke('retention:undo', { workspace, entry: trash });
                  } catch (err) {
                    useBanners.getState().report(err, workspace);
                  }
                },
              },
            }),
      },
      removed.length > HANDFUL ? 0 : 12_000,
    );
  });
  c.on('checkpoints:restored', ({ workspace }) => {
    if (!isCurrent(workspace)) return;
    useDiff.getState().invalidateWorkspace();
    void useTimeline.getState().refresh();
  });
  // Teammates' checkpoints arrived (a pull): their lanes join the timeline.
  c.on('checkpoints:shared', ({ workspace }) => {
    if (isCurrent(workspace)) void useTimeline.getState().refresh();
  });
  c.on('restore:done', ({ workspace }) => {
    if (!isCurrent(workspace)) return;
    useDiff.getState().invalidateWorkspace();
    void useTimeline.getState().refresh();
  });
  c.on('effect:recorded', ({ workspace, effect }) => {
    if (!isCurrent(workspace)) return;
    if (useEffects.getState().upsert(effect)) announceEffect(effect);
  });
  c.on('progress', ({ workspace, message }) => {
    if (isCurrent(workspace)) useProgress.getState().show(message);
  });
  c.on('ui:focusEffect', ({ workspace, effect }) => focusEffect(workspace, effect));
  c.on('workspace:state', ({ workspace, state, message }) => {
    useWorkspaces.getState().setState(workspace, state);
    if (state === 'missing' && message) useBanners.getState().reportSerialized('not_found', message, workspace);
  });
  c.on('error', ({ workspace, error }) => {
    if (workspace && !isCurrent(workspace)) return;
    useBanners.getState().reportSerialized(error.code, error.message, workspace);
  });

  // Events may have been missed while the socket was down: reload what they feed.
  c.onReconnect(() => {
    void useWorkspaces.getState().load();
    void useTimeline.getState().refresh();
    void useEffects.getState().load(useWorkspaces.getState().current);
    useDiff.getState().invalidateWorkspace();
  });

  // The open workspace drives the timeline, details, diff and effects.
  let shown: string | null | undefined;
  const onWorkspace = (current: string | null) => {
    if (current === shown) return;
    shown = current;
    useRestore.getState().disarm();
    useRestore.getState().dismissOutcome();
    useDetails.getState().reset(current);
    useDiff.getState().reset(current);
    useProgress.getState().clear();
    void useTimeline.getState().load(current);
    void useEffects.getState().load(current);
  };
  useWorkspaces.subscribe((s) => onWorkspace(s.current));

  // Moving to another checkpoint disarms a pending restore, and tells the host
  // what is looked at: retention never pulls it from under the person.
  useTimeline.subscribe((s, prev) => {
    if (s.selectedId !== prev.selectedId) {
      const armed = useRestore.getState().armed;
      if (armed && armed.id !== s.selectedId) useRestore.getState().disarm();
      if (s.workspace && (s.selectedId === null || /^[0-9a-f]{40}$/.test(s.selectedId))) {
        // The one shown and the one its diff is against.
        const ids = s.selectedId ? [s.selectedId, previousOf(s, s.selectedId)?.id].filter((id): id is string => typeof id === 'string' && /^[0-9a-f]{40}$/.test(id)) : [];
        void c.invoke('timeline:viewing', { workspace: s.workspace, ids }).catch(() => undefined);
      }
    }
  });

  void c
    .invoke('app:info', {})
    .then((info) => {
      useConnection.getState().setInfo(info);
      useWorkspaces.setState({ canPick: info.host === 'electron' });
    })
    .catch((err: unknown) => useBanners.getState().report(err, 'app:info'));
  void useWorkspaces.getState().load();
}
