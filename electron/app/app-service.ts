// The application service both hosts bind the router to: one engine store,
// the person's list of workspaces, and per listed workspace a watcher (auto
// checkpoints), a feed of checkpoints taken by other processes and a feed of
// irreversible effects — all announced on one typed event bus. Everything
// started here is registered in a DisposableStore: dispose() leaves no handle.
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { ChronoscopeError, toSerializedError } from '../../shared/errors.js';
import type { EffectRecord, SnapshotOptions, SnapshotResult, WorkspaceMeta } from '../../shared/model.js';
import type { AppInfo, EventChannel, EventMap, WorkspaceEntry } from '../../shared/ipc.js';
import type { WorkspaceState } from '../../shared/model.js';
import type { Settings, SettingsPatch } from '../../shared/settings.js';
import type { OpenStore, OpenWorkspaceOptions, SnapshotControl, Store, Workspace } from '../engine/api.js';
import { openStore as engineOpenStore, progressMessage, settleAllIndexes, settlePackMerges } from '../engine/index.js';
import { WorkspaceWatcher } from '../watcher/workspace-watcher.js';
import { WATCHER_SETTLE_MS } from '../agents/core/delegate-server.js';
import type { ControlAnswer, ControlRequest, ServiceKind, ServiceStatus } from '../agents/core/service-control.js';
import { takeAgentSocket } from './agent-socket-owner.js';
import { Maintenance, type MaintenanceOptions } from './maintenance.js';
import type { AgentBackend } from '../agents/core/work.js';
import { asUnendedCall } from '../agents/core/unended-call.js';
import type { AppService } from './api.js';
import { CheckpointFeed } from './checkpoint-feed.js';
import { DisposableStore, toDisposable } from './disposables.js';
import { ledgerEffects } from './effects-backend.js';
import { EffectsFeed, type EffectsBackend } from './effects-feed.js';
import { EventBus } from './event-bus.js';
import { verifyJobs } from './verify-jobs.js';
import { writeSettings } from './settings-file.js';
import { checkpointSignal } from './store-refs.js';
import { hermesSignalFiles } from '../engine/foreign/hermes-store.js';
import { SharePuller } from '../share/pull-timer.js';
import { pullTarget } from '../share/pull.js';
import { WorkspaceListFile, type ListedWorkspace } from './workspace-list.js';

export interface AppServiceOptions {
  /** Store root; default $CHRONOSCOPE_HOME, else the platform's app-data folder. */
  home?: string;
  host: AppInfo['host'];
  version: string;
  /** Run the file watcher for auto-checkpoints (default true). Live feeds run either way. */
  watch?: boolean;
  /** Seams for tests and other hosts; default: the real engine and electron/effects. */
  openStore?: OpenStore;
  effects?: EffectsBackend;
  /** Poll period of the live feeds (default 1000 ms). */
  pollMs?: number;
  /** Serve agent hooks over the store's socket (default true; see agents/core/delegate-server.ts). */
  agentSocket?: boolean;
  /**
   * 'app' (default): the person's list of workspaces, and the socket taken over from a daemon.
   * 'daemon': no list; only the workspaces hooks ask about; the socket only if nobody serves.
   */
  kind?: ServiceKind;
  /** The daemon's idle exit, as `hooks status` reports it. */
  idleExitMs?: () => number;
  /** A hook's request arrived (true) or was answered (false). */
  onAgentActivity?: (busy: boolean) => void;
  /** Compress the store when due and check checkpoints once a day, when quiet (default true; see maintenance.ts). */
  maintenance?: boolean | Pick<MaintenanceOptions, 'firstMs' | 'idleMs' | 'everyMs' | 'upkeepLimits'>;
  /** A control request asked this service to leave (the daemon: `daemon --stop`, or an app taking over). */
  onLeave?: (why: 'stop' | 'handover') => void;
}

interface Session {
  entry: ListedWorkspace;
  /** In the person's list (shown, pausable); false: watched for agents' hooks only. */
  listed: boolean;
  meta: WorkspaceMeta;
  state: WorkspaceState;
  /** Set once the workspace is known to have a checkpoint (partial snapshots need a base). */
  hasCheckpoint: boolean;
  watcher: WorkspaceWatcher | null;
  effects: EffectsFeed | null;
  disposables: DisposableStore;
}

export async function createAppService(options: AppServiceOptions): Promise<AppService> {
  const given = options.openStore ?? engineOpenStore;
  // Every store the service opens (again after a settings change) reports long snapshots' progress.
  let service: ChronoscopeAppService | undefined;
  const open: OpenStore = (storeOptions = {}) =>
    given({ ...storeOptions, onProgress: (p) => service?.emit('progress', { workspace: p.root, message: progressMessage(p), hashed: p.hashed, total: p.total }) });
  const store = await open(options.home === undefined ? {} : { home: options.home });
  const effects = options.effects ?? ledgerEffects;
  service = new ChronoscopeAppService(store, open, effects, options);
  await service.start();
  return service;
}

class ChronoscopeAppService implements AppService {
  private currentStore: Store;
  private currentSettings: Settings;
  private readonly bus = new EventBus();
  private readonly disposables = new DisposableStore();
  private readonly list: WorkspaceListFile;
  private readonly sessions = new Map<string, Session>(); // by workspace id
  private readonly announced = new Set<string>(); // `${workspace}\0${checkpoint id}`
  private readonly handles = new Map<string, Workspace>(); // engine handles by the path asked for
  private readonly adding = new Map<string, Promise<Session>>(); // by workspace id
  private readonly since = new Date().toISOString();
  private lastAgentCall: string | null = null;
  /** When anything was last recorded or asked for: background upkeep and checks wait for quiet. */
  private lastActivityMs = Date.now();
  /** Set once the agent socket is ours; false: another process serves the store's hooks. */
  private servesAgents = false;

  constructor(
    store: Store,
    private readonly openStore: OpenStore,
    private readonly effectsBackend: EffectsBackend,
    private readonly options: AppServiceOptions,
  ) {
    this.currentStore = store;
    this.currentSettings = store.settings;
    this.list = new WorkspaceListFile(store.home);
    this.disposables.add(toDisposable(() => this.bus.clear()));
  }

  get store(): Store {
    return this.currentStore;
  }

  private get kind(): ServiceKind {
    return this.options.kind ?? 'app';
  }

  /** Whether this service holds the store's agent socket (a daemon that does not has nothing to do). */
  get servesAgentSocket(): boolean {
    return this.servesAgents;
  }

  async start(): Promise<void> {
    if (this.kind === 'app') this.disposables.add(verifyJobs(this)); // agents' restore requests are watched from the start (tray, window)
    // The socket first: it decides who serves (and a daemon hands over the workspaces it watched).
    let inherited: string[] = [];
    if (this.options.agentSocket !== false) {
      // Without the socket (another app has it, or the path is too long) hooks go to that app or work alone.
      const owned = await takeAgentSocket({
        home: this.currentStore.home,
        kind: this.kind,
        backend: (request) => this.agentBackend(request.startedMs),
        control: (request) => this.control(request),
        onActivity: (busy) => {
          this.lastActivityMs = Date.now();
          if (busy) this.lastAgentCall = new Date().toISOString();
          this.options.onAgentActivity?.(busy);
        },
      });
      if (owned !== null) {
        this.servesAgents = true;
        inherited = owned.inherited;
        this.disposables.add(toDisposable(() => owned.close()));
      }
    }
    if (this.kind === 'app') for (const entry of await this.list.read()) await this.startSession(entry, true);
    for (const dir of inherited) await this.watchForAgents(dir).catch(() => undefined);
    if (this.options.maintenance !== false) {
      const maintenance = new Maintenance({
        ...(typeof this.options.maintenance === 'object' ? this.options.maintenance : {}),
        store: () => this.currentStore,
        enabled: () => this.currentSettings.upkeep,
        workspaces: async () => Promise.all([...this.sessions.values()].map((s) => this.workspace(s.meta.path))),
        lastActivityMs: () => this.lastActivityMs,
        retention: {
          keep: (ws) => this.retentionKeeps(ws),
          onPruned: (ws, result) => this.emit('checkpoints:pruned', { workspace: ws.root, removed: result.removed, trash: result.trash }),
        },
        onChecked: (ws, result) => {
          const damaged = result.damaged.length;
          if (damaged > 0) {
            this.emit('error', {
              workspace: ws.root,
              error: { code: 'internal', message: `the background check found ${damaged} damaged checkpoint${damaged === 1 ? '' : 's'}: run 'chronoscope check' for what is lost` },
            });
          }
        },
      });
      maintenance.start();
      this.disposables.add(toDisposable(() => maintenance.dispose()));
    }
  }

  /** What `hooks status` and `daemon --stop` ask the service that holds the socket. */
  private async control(request: ControlRequest): Promise<ControlAnswer> {
    if (request.control === 'status') return this.status();
    if (this.kind === 'app') throw new Error(`the ${this.options.host === 'electron' ? 'desktop app' : "'chronoscope serve'"} serves this store; close it to stop it`);
    const workspaces = [...this.sessions.values()].map((s) => s.meta.path);
    // Answer first, then leave: the caller waits for the socket to be released.
    setImmediate(() => this.options.onLeave?.(request.control));
    return { leaving: true, workspaces };
  }

  private status(): ServiceStatus {
    return {
      kind: this.kind,
      host: this.options.host,
      pid: process.pid,
      since: this.since,
      version: this.options.version,
      workspaces: [...this.sessions.values()].map((s) => s.meta.path).sort(),
      idle_exit_ms: this.kind === 'daemon' ? (this.options.idleExitMs?.() ?? null) : null,
      last_call: this.lastAgentCall,
    };
  }

  /**
   * Watches a workspace that agents' hooks use (not added to the person's list): its next
   * delegated checkpoints are limited to what the watcher saw change. Starts at most once.
   */
  async watchForAgents(dir: string): Promise<void> {
    if (this.disposables.isDisposed || this.options.watch === false) return;
    const ws = await this.workspace(dir);
    if (this.sessions.has(ws.meta.id)) return;
    const pending = this.adding.get(ws.meta.id);
    if (pending) {
      await pending;
      return;
    }
    const entry: ListedWorkspace = { id: ws.meta.id, path: ws.meta.path, paused: false, added: new Date().toISOString() };
    const adding = this.startSession(entry, false, ws);
    this.adding.set(ws.meta.id, adding);
    try {
      await adding;
    } finally {
      this.adding.delete(ws.meta.id);
    }
  }

  /**
   * What a delegated hook's checkpoint uses: for a workspace this app watches, a snapshot limited
   * to what the watcher saw change plus the files the tool is about to change — once changes made
   * before the hook started have had time to reach the watcher. Otherwise a full scan (warm engine).
   */
  private agentBackend(startedMs: number): AgentBackend {
    return {
      store: this.currentStore,
      workspace: async (dir, { watch = true } = {}) => {
        const ws = await this.workspace(dir);
        // The first call for a workspace is a full scan (warm engine); its watcher serves the next ones.
        if (watch && !this.sessions.has(ws.meta.id)) void this.watchForAgents(ws.root).catch(() => undefined);
        return ws;
      },
      checkpoint: (ws, options, files, control) => this.watchedSnapshot(ws, options, startedMs, files, control),
      checkpointsAfterCalls: true,
    };
  }

  async snapshot(ws: Workspace, options: SnapshotOptions): Promise<SnapshotResult> {
    this.lastActivityMs = Date.now();
    return this.watchedSnapshot(ws, options, Date.now());
  }

  /**
   * A snapshot of a workspace this app watches never scans what the watcher knows did not
   * change: once changes made before `startedMs` have had time to reach it, the watcher's
   * unrecorded paths (plus `files`) are the snapshot's paths. A full scan where the watcher
   * cannot vouch (not watching, paused, a full scan due, no checkpoint yet to build on).
   */
  private async watchedSnapshot(ws: Workspace, options: SnapshotOptions, startedMs: number, files: readonly string[] = [], control?: SnapshotControl): Promise<SnapshotResult> {
    const session = this.sessions.get(ws.meta.id);
    const watcher = session?.watcher ?? null;
    if (session === undefined || watcher === null || !session.hasCheckpoint) return ws.snapshot(options, control);
    const wait = Math.min(WATCHER_SETTLE_MS, startedMs + WATCHER_SETTLE_MS - Date.now());
    if (wait > 0) await new Promise((resolveWait) => setTimeout(resolveWait, wait));
    await watcher.verify(); // one stat: a replaced folder means a full scan, whatever the liveness timer's period
    const changed = watcher.changedPaths();
    if (changed === null) return ws.snapshot(options, control);
    const paths = [...new Set([...changed, ...files])];
    // A person asked: look at everything, so a file left out (over the size limit) is named in a checkpoint.
    if (paths.length === 0) return options.trigger === 'manual' ? ws.snapshot(options, control) : { id: null, skipped: 'the watcher saw nothing change since the latest checkpoint' };
    return ws.snapshot({ ...options, paths }, control);
  }

  info(): AppInfo {
    return { host: this.options.host, version: this.options.version, store: this.currentStore.home };
  }

  async listWorkspaces(): Promise<WorkspaceEntry[]> {
    // Every folder this service watches, the person's and those watched for agents' hooks alike:
    // what runs is visible (and `daemon --status` says the same); removing one stops its watcher.
    return [...this.sessions.values()].map(toEntry);
  }

  async addWorkspace(dir: string): Promise<WorkspaceEntry> {
    this.assertLive();
    const ws = await this.currentStore.workspace(dir); // engine refusals (/, home, the store…) apply
    // Two adds of one folder at once (a double click, two hosts) start one session.
    const pending = this.adding.get(ws.meta.id);
    if (pending) await pending.catch(() => undefined);
    const existing = this.sessions.get(ws.meta.id);
    if (existing) {
      // Watched for agents already: the person's list takes it as it is (one watcher).
      if (!existing.listed) {
        existing.listed = true;
        await this.list.update((entries) => {
          if (!entries.some((e) => e.id === existing.entry.id)) entries.push({ ...existing.entry });
        });
        this.setState(existing, existing.state);
      }
      return toEntry(existing);
    }
    const adding = this.addSession(ws);
    this.adding.set(ws.meta.id, adding);
    try {
      return toEntry(await adding);
    } finally {
      this.adding.delete(ws.meta.id);
    }
  }

  private async addSession(ws: Workspace): Promise<Session> {
    const entry = await this.list.update((entries) => {
      let found = entries.find((e) => e.id === ws.meta.id);
      if (!found) {
        found = { id: ws.meta.id, path: ws.meta.path, paused: false, added: new Date().toISOString() };
        entries.push(found);
      }
      return { ...found };
    });
    this.handles.set(ws.meta.path, ws);
    return this.startSession(entry, true, ws);
  }

  async removeWorkspace(dir: string): Promise<boolean> {
    const session = await this.findSession(dir);
    if (!session) return false;
    this.sessions.delete(session.entry.id);
    this.disposables.delete(session.disposables);
    await session.disposables.dispose();
    await this.list.update((entries) => {
      const i = entries.findIndex((e) => e.id === session.entry.id);
      if (i >= 0) entries.splice(i, 1);
    });
    return true;
  }

  async setPaused(dir: string, paused: boolean): Promise<WorkspaceEntry> {
    const session = await this.findSession(dir);
    if (!session) throw new ChronoscopeError('not_found', `not in the list of workspaces: ${dir}`);
    session.entry.paused = paused;
    await this.list.update((entries) => {
      const found = entries.find((e) => e.id === session.entry.id);
      if (found) found.paused = paused;
    });
    if (session.watcher) session.watcher.setPaused(paused);
    else this.setState(session, paused ? 'paused' : 'idle');
    return toEntry(session);
  }

  async workspace(dir: string, options: OpenWorkspaceOptions = {}): Promise<Workspace> {
    this.assertLive();
    const cached = this.handles.get(dir);
    if (cached) return cached;
    const ws = await this.currentStore.workspace(dir, options);
    this.handles.set(dir, ws);
    return ws;
  }

  /**
   * The paths this app's watcher of `dir` has seen change since the latest checkpoint (null: not
   * watched, or it cannot vouch). What a delegated hook's checkpoint would be limited to: `daemon`
   * diagnostics and tests wait on it instead of guessing how long a change takes to arrive.
   */
  async unrecordedPaths(dir: string): Promise<string[] | null> {
    const ws = await this.workspace(dir);
    return this.sessions.get(ws.meta.id)?.watcher?.changedPaths() ?? null;
  }

  /** What the renderer shows now, per workspace root: retention leaves these alone (viewing()). */
  private readonly viewed = new Map<string, ReadonlySet<string>>();

  viewing(dir: string, ids: readonly string[]): void {
    if (ids.length === 0) this.viewed.delete(dir);
    else this.viewed.set(dir, new Set(ids));
  }

  /** The checkpoints retention must not drop now: looked at, named by an effect, or by a pending approval. */
  private async retentionKeeps(ws: Workspace): Promise<ReadonlySet<string>> {
    const keep = new Set(this.viewed.get(ws.root) ?? []);
    for (const e of await this.effects(ws.root).catch(() => [] as EffectRecord[])) if (e.checkpoint) keep.add(e.checkpoint);
    const { listRequests } = await import('../approvals/requests.js');
    for (const r of await listRequests(this.currentStore.home, { pendingOnly: true }).catch(() => [])) if (r.workspace === ws.root) keep.add(r.checkpoint);
    return keep;
  }

  async effects(dir: string, since?: string): Promise<EffectRecord[]> {
    const ws = await this.workspace(dir, { register: false });
    const ledger = this.effectsBackend.open(this.currentStore.home, ws.meta.id, ws.root);
    if (since === undefined) return ledger.list();
    const from = await ws.resolve(since);
    return ledger.list({ sinceMs: from.time_ms });
  }

  settings(): Settings {
    return this.currentSettings;
  }

  async updateSettings(patch: SettingsPatch): Promise<Settings> {
    this.assertLive();
    this.currentSettings = await writeSettings(this.currentStore.home, patch, this.currentSettings);
    // The engine reads config.json when a store is opened: reopen so snapshots use the new limits.
    this.currentStore = await this.openStore({ home: this.currentStore.home });
    this.handles.clear();
    return this.currentSettings;
  }

  on<E extends EventChannel>(event: E, listener: (payload: EventMap[E]) => void): () => void {
    return this.bus.on(event, listener);
  }

  emit<E extends EventChannel>(event: E, payload: EventMap[E]): void {
    if (event === 'checkpoint:added') {
      // Once per checkpoint, whoever noticed it first (router, watcher, live feed).
      const { workspace, checkpoint } = payload as EventMap['checkpoint:added'];
      const key = `${workspace}\0${checkpoint.id}`;
      if (this.announced.has(key)) return;
      this.announced.add(key);
      // Only a checkpoint of our own gives partial snapshots a base (not one of Hermes').
      if (checkpoint.origin === undefined) for (const s of this.sessions.values()) if (s.meta.path === workspace) s.hasCheckpoint = true;
    }
    this.bus.emit(event, payload);
  }

  async dispose(): Promise<void> {
    await this.disposables.dispose();
    // Snapshots' background index syncs finish first: nothing writes into the store once disposed.
    await settleAllIndexes();
    await settlePackMerges();
    this.sessions.clear();
    this.handles.clear();
  }

  // ---- per workspace ----

  private async startSession(entry: ListedWorkspace, listed: boolean, opened?: Workspace): Promise<Session> {
    const disposables = this.disposables.add(new DisposableStore());
    const session: Session = {
      entry,
      listed,
      meta: { id: entry.id, path: entry.path, created: entry.added, last_touched: entry.added },
      state: entry.paused ? 'paused' : 'idle',
      hasCheckpoint: false,
      watcher: null,
      effects: null,
      disposables,
    };
    this.sessions.set(entry.id, session);
    const ws = opened ?? (await this.workspace(entry.path).catch(() => null)); // missing folder: the watcher reports it
    if (ws) session.meta = ws.meta;
    const workspacePath = session.meta.path;
    const report = (err: unknown) => this.emit('error', { workspace: workspacePath, error: toSerializedError(err) });
    // Before any change is recorded: the first edit's original must be in the store.
    if (ws && !entry.paused) {
      const baseline = await ws.ensureBaseline().catch((err: unknown) => {
        report(err);
        return null;
      });
      if (baseline && baseline.id !== null) this.emit('checkpoint:added', { workspace: workspacePath, checkpoint: baseline.checkpoint });
    }
    // The daemon has no window to tell: its only feed keeps the ledger current (pushes seen in the reflog).
    const pollMs = this.options.pollMs ?? (this.kind === 'daemon' ? 30_000 : 1000);

    // Checkpoints taken by other processes, and by Hermes Agent in its own /rollback store: news for
    // a window. The daemon has none to tell, so it polls nothing for them (an idle daemon runs no code).
    if (this.kind === 'app') {
      const signal = checkpointSignal(this.currentStore.home, entry.id);
      const warned = new Set<string>();
      const warnOnce = (message: string): void => {
        if (warned.has(message)) return;
        warned.add(message);
        this.emit('error', { workspace: workspacePath, error: { code: 'internal', message } });
      };
      const feed = disposables.add(
        new CheckpointFeed({
          signalDirs: signal.signalDirs,
          signalFiles: [...signal.signalFiles, ...hermesSignalFiles(workspacePath, this.currentSettings)],
          pollMs,
          list: async (limit) => (await this.workspace(workspacePath)).list({ limit, lanes: true, onWarning: warnOnce }),
          onNew: (checkpoint) => this.emit('checkpoint:added', { workspace: workspacePath, checkpoint }),
        }),
      );
      await feed.start();
      // Teammates' checkpoints (share pull): at once and on a timer, in the background, never awaited here.
      disposables
        .add(
          new SharePuller({
            target: pullTarget(this.currentStore.home, entry.id, workspacePath),
            minutes: () => this.currentSettings.share_pull_minutes,
            onPulled: (result) => this.emit('checkpoints:shared', { workspace: workspacePath, updated: result.updated }),
            onError: warnOnce,
          }),
        )
        .start();
    }

    // Irreversible effects.
    const effects = disposables.add(
      new EffectsFeed({
        effects: this.effectsBackend.open(this.currentStore.home, entry.id, workspacePath),
        workspace: workspacePath,
        sinceMs: Date.parse(entry.added) || Date.now(),
        latestCheckpoint: async () => (await (await this.workspace(workspacePath)).list({ limit: 1 }))[0]?.id ?? null,
        pollMs,
        onNew: (effect) => this.emit('effect:recorded', { workspace: workspacePath, effect }),
        onError: report,
      }),
    );
    session.effects = effects;
    await effects.start();

    // Auto-checkpoints.
    if (this.options.watch !== false) {
      // A workspace with history gets one full scan at start (changes made while nobody watched);
      // a new one waits for its first change, which is then scanned in full (see autoSnapshot).
      session.hasCheckpoint = ws !== null && (await ws.list({ limit: 1 }).catch(() => [])).length > 0;
      const watcher = disposables.add(
        new WorkspaceWatcher({
          root: workspacePath,
          paused: entry.paused,
          timing: () => ({ quietMs: this.currentSettings.watcher.quiet_ms, maxWaitMs: this.currentSettings.watcher.max_wait_ms }),
          snapshot: (opts) => this.autoSnapshot(session, opts),
          onCheckpoint: (checkpoint) => this.emit('checkpoint:added', { workspace: workspacePath, checkpoint }),
          onState: (state, message) => this.setState(session, state, message),
          onError: report,
          ignorePaths: storeInside(workspacePath, this.currentStore.home),
          catchUp: session.hasCheckpoint,
          // A folder deleted meanwhile also shows as a watcher error at once; the daemon's poll is a backstop.
          ...(this.kind === 'daemon' ? { livenessMs: 30_000 } : {}),
        }),
      );
      session.watcher = watcher;
      await watcher.start();
    } else {
      // Hosts refresh their list on workspace:state; say it even without a watcher.
      this.setState(session, session.state);
    }
    return session;
  }

  private async autoSnapshot(session: Session, opts: SnapshotOptions): Promise<SnapshotResult> {
    this.lastActivityMs = Date.now();
    const ws = await this.workspace(session.meta.path);
    if (opts.paths && !session.hasCheckpoint) {
      // A partial snapshot needs a previous checkpoint to build on; the first one scans everything.
      session.hasCheckpoint = (await ws.list({ limit: 1 })).length > 0;
      if (!session.hasCheckpoint) {
        const { paths: _paths, ...full } = opts;
        void _paths;
        opts = full;
      }
    }
    // A full scan while an agent's call is under way (a service a hook just started catching up): that call's change.
    if (opts.paths === undefined && opts.trigger === 'auto' && session.hasCheckpoint) {
      opts = await asUnendedCall(this.currentStore.home, ws.meta.id, (await ws.list({ limit: 1 }))[0], opts);
    }
    const result = await ws.snapshot(opts);
    if (result.id !== null) session.hasCheckpoint = true;
    return result;
  }

  private setState(session: Session, state: WorkspaceState, message?: string): void {
    session.state = state;
    // Hosts show every watched workspace (one watched for agents alone too: a new path makes them re-read the list).
    this.emit('workspace:state', { workspace: session.meta.path, state, ...(message ? { message } : {}) });
  }

  private async findSession(dir: string): Promise<Session | undefined> {
    const resolved = path.resolve(dir);
    const real = await realpath(resolved).catch(() => resolved);
    for (const s of this.sessions.values()) {
      if (s.meta.path === real || s.meta.path === resolved || s.entry.path === real || s.entry.path === resolved) return s;
    }
    return undefined;
  }

  private assertLive(): void {
    if (this.disposables.isDisposed) throw new ChronoscopeError('internal', 'the app service was disposed');
  }
}

function toEntry(session: Session): WorkspaceEntry {
  return { ...session.meta, state: session.state, ...(session.listed ? {} : { for_agents: true }) };
}

/** The store, when it lives inside the workspace, is never watched (its writes would feed the watcher). */
function storeInside(root: string, storeHome: string): string[] {
  const rel = path.relative(root, storeHome);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? [storeHome] : [];
}
