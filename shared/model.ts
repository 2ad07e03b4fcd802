// The domain model: what a checkpoint, a diff, a restore and an effect look
// like wherever they travel (engine results, CLI --json, IPC payloads, the
// ledger on disk). Multi-word keys are snake_case because this is a wire and
// storage format first.

// safety: taken by a restore just before it writes (restoring it undoes the restore);
// restore: taken right after a restore, recording the restored state;
// baseline: the workspace as first seen (added, served, watched or met by a
// hook), so the original of the first edit is always recorded.
export const TRIGGERS = ['manual', 'auto', 'hook', 'safety', 'restore', 'baseline'] as const;
export type Trigger = (typeof TRIGGERS)[number];

/** Up to this many changed paths are kept with a checkpoint, so a title can name them rather than count them. */
export const FEW_PATHS = 3;

export interface CheckpointStats {
  files: number;
  insertions: number;
  deletions: number;
}

export interface SkippedFile {
  path: string;
  size: number;
  /**
   * too_large: over max_file_mb; unreadable: no read permission; special: a
   * pipe, socket or device; unrecordable: a name git cannot store here (not
   * UTF-8, or a .git look-alike such as `.GIT/` or `.git `).
   */
  why: 'too_large' | 'unreadable' | 'special' | 'unrecordable';
}

/**
 * What a restore restored, recorded when it was taken: the target's own title (a restore's target
 * that was itself a restore is named by what that one restored: titles never nest), its time, and
 * whether it was a safety checkpoint (restoring one undoes the restore it was taken before).
 */
export interface RestoreOf {
  /** The restored checkpoint's title; with `before_prompt`, the prompt's first line (redacted, as the ledger keeps it). */
  title: string;
  time_ms: number;
  undo?: true;
  /** Asked as "back to before this prompt": named by the prompt, which is what the person remembers, not by the checkpoint before it. */
  before_prompt?: true;
}

export interface Checkpoint {
  /** Full commit id in the shadow store. */
  id: string;
  /** ISO 8601 time the checkpoint was taken. */
  time: string;
  /** Milliseconds since the epoch; the timeline places ticks by it. */
  time_ms: number;
  reason: string;
  trigger: Trigger;
  agent?: string;
  tool?: string;
  session?: string;
  tool_use_id?: string;
  /** The person's latest prompt to the agent before this checkpoint (first line, shortened), where the agent's hooks give it. */
  prompt?: string;
  /** The prompt (PromptRecord.id) this checkpoint's change was made under, where the agent's hooks gave it. */
  prompt_id?: string;
  /**
   * Who made this checkpoint's change, where the hooks saw it exactly: 'call' — taken as the call it
   * names (tool, reason) ended, so its change is that call's; 'other' — taken before a call while the
   * latest checkpoint still held the state the previous call ended with, so a person or another
   * program made it. Absent: not known (the words reason from the checkpoint before).
   */
  change_by?: ChangeBy;
  /**
   * The call whose change this hook checkpoint holds, where that call took no checkpoint of its own:
   * its hook found nothing changed since the checkpoint before, so what changed after was done by it
   * (it was the last call to begin). Absent: the words reason from the checkpoint before.
   */
  made_by?: CallRef;
  /** For safety and restore checkpoints: the checkpoint that was restored. */
  restore_target?: string;
  /**
   * Where the checkpoint lives: absent for Chronoscope's own; 'hermes' for one
   * read (never written) from Hermes Agent's /rollback store — its id is then
   * `h` + 16 hex digits (see shared/refs.ts) and its agent is 'hermes'.
   */
  origin?: 'hermes';
  /**
   * A teammate's checkpoint, fetched from the team's git remote by `share pull`
   * (issue 43, electron/share/): who made it and where. Its id is its commit id.
   */
  shared?: SharedFrom;
  /** For safety and restore checkpoints of a path-limited restore: its paths (its undo restores only these). */
  restore_paths?: string[];
  /** For safety and restore checkpoints: what was restored, as it was titled then (absent in older stores: looked up). */
  restore_of?: RestoreOf;
  /** Its commit or tree cannot be read (damaged store): listed, marked, not restorable. */
  damaged?: boolean;
  /** Changes against the previous checkpoint of the workspace (of its own lane, for Hermes'). */
  stats: CheckpointStats;
  /** The changed paths themselves, when there are at most FEW_PATHS (the words name them); absent otherwise, and in older checkpoints. */
  paths?: string[];
  /** Files left out because they were over the size limit. */
  skipped: SkippedFile[];
  pinned: boolean;
}

export type ChangeBy = 'call' | 'other';

/** Who shared a checkpoint and from where (the share log of its namespace, electron/share/). */
export interface SharedFrom {
  /** The person's display name (their git user.name), else their e-mail. */
  person: string;
  email: string;
  /** Their machine's host name. */
  machine: string;
  /** The clone on that machine (`w` + 10 hex): two clones on one machine are two lanes. */
  clone: string;
}

// ---- prompts and calls (issue 41): the person's prompt as a unit of the history ----

/**
 * A tool call as its agent's post-call event reported it (PostToolUse, AfterTool, post_tool_call, …),
 * kept in the workspace's prompt ledger (electron/prompts/). Texts are redacted (shared/redact.ts).
 */
export interface CallRecord {
  /** The prompt it served (PromptRecord.id), when the agent gave one. */
  prompt_id?: string;
  agent: string;
  session?: string;
  tool: string;
  /** Its words, as a checkpoint title names it ("Edit src/a.ts", "Bash: npm test"). */
  reason: string;
  tool_use_id?: string;
  status: 'ok' | 'failed';
  exit_code?: number;
  /** The end of a failed call's output (at most CALL_OUTPUT_TAIL_MAX characters). */
  output_tail?: string;
  /** The assistant's words just before the call, from the agent's transcript (at most INTENT_MAX characters). */
  intent?: string;
  /** Workspace-relative paths the call changed, from its payload and a path-limited scan. */
  paths?: string[];
  /** Where the agent keeps its transcript (absolute path, as the hook named it): read on demand, never copied, never shared. */
  transcript?: string;
  /** The checkpoint that holds its change, when it changed anything. */
  checkpoint?: string;
  time: string;
  time_ms: number;
}

/** A prompt id as newPromptId (electron/prompts/ledger.ts) makes it: 'p' + base-36 time + 8 hex digits. */
export const PROMPT_ID_PATTERN = /^p[0-9a-z]{6,12}[0-9a-f]{8}$/;

export const CALL_OUTPUT_TAIL_MAX = 2000;
export const INTENT_MAX = 400;
export const PROMPT_TEXT_MAX = 8000;

/** One prompt the person gave an agent in a workspace, with the checkpoints its calls took. */
export interface PromptRecord {
  /** 'p' + base-36 time + random hex: sortable, unique per workspace. */
  id: string;
  /** The whole prompt, redacted, at most PROMPT_TEXT_MAX characters. */
  text: string;
  agent: string;
  session: string;
  time: string;
  time_ms: number;
  /** The workspace's latest checkpoint when the prompt was given: "restore to before this prompt" restores it. */
  before: string | null;
  /** Its first and last checkpoint (null: its calls changed nothing), and how many it has. */
  first: string | null;
  last: string | null;
  checkpoints: number;
  /** Files that differ between `before` and `last`. */
  files: number;
  /** Its calls that failed, oldest first. */
  failed_calls: CallRecord[];
}

/** One message of an agent's conversation as "Open conversation" shows it: bounded and redacted. */
export interface ConversationMessage {
  role: 'user' | 'assistant' | 'tool';
  text: string;
  /** The message holding the call that made the checkpoint's change. */
  at_call?: boolean;
}

/** The messages around a checkpoint's call, read from the agent's transcript on demand (electron/prompts/conversation.ts). */
export interface ConversationView {
  available: boolean;
  /** Why there is nothing to show (available: false), one line. */
  reason?: string;
  messages: ConversationMessage[];
}

/** Why a checkpoint exists: the prompt and the call behind it, where hooks recorded them. */
export interface CheckpointWhy {
  prompt: PromptRecord | null;
  call: CallRecord | null;
}


/** A tool call as a checkpoint names it: which agent, which tool, and its words ("Edit src/a.ts", "Bash: npm test"). */
export interface CallRef {
  agent: string;
  tool: string;
  reason: string;
}

export interface SnapshotOptions {
  reason?: string;
  trigger?: Trigger;
  agent?: string;
  tool?: string;
  session?: string;
  tool_use_id?: string;
  /** The prompt that led to this call (agents' hooks). */
  prompt?: string;
  /** Its id in the workspace's prompt ledger (electron/prompts/ledger.ts), kept as Checkpoint.prompt_id. */
  prompt_id?: string;
  /** Limit the snapshot to these workspace-relative paths (files or folders). */
  paths?: string[];
  /** Internal (agents' hooks): 'call' for the checkpoint taken as a call ended; 'other' for one taken as a prompt was given (no call was under way). */
  change_by?: ChangeBy;
  /**
   * Internal (agents' hooks): the latest checkpoint when the workspace's last recorded call ended.
   * If it is still the latest when this one is written, this change came after that call: 'other'.
   */
  call_ended_at?: string;
  /**
   * Internal (agents' hooks): the last call that began without a checkpoint of its own (nothing had
   * changed), and the latest checkpoint then. If that is still the latest when this one is written,
   * this change was made by that call: `made_by`.
   */
  call_began?: CallRef & { checkpoint: string };
  /** Internal: set by restore for its safety checkpoint. */
  restore_target?: string;
  /** Internal: the paths a path-limited restore was limited to. */
  restore_paths?: string[];
  /** Internal: set by restore, what it restored as titled then (restore titles never nest, and need no look-up). */
  restore_of?: RestoreOf;
  /** Internal (the watcher), when no reason is given: word it from the files the checkpoint changed, naming these paths (null: a full scan). */
  auto_reason?: { paths: string[] | null };
}

export type SnapshotResult =
  | {
      id: string;
      files_changed: number;
      insertions: number;
      deletions: number;
      skipped_files: SkippedFile[];
      checkpoint: Checkpoint;
    }
  | { id: null; skipped: string };

export type ChangeStatus = 'added' | 'modified' | 'deleted' | 'renamed' | 'type_changed';

/** The one-letter form git and the UI show for each status. */
export const CHANGE_STATUS_LETTER: Record<ChangeStatus, string> = {
  added: 'A',
  modified: 'M',
  deleted: 'D',
  renamed: 'R',
  type_changed: 'T',
};

export interface FileChange {
  path: string;
  /** For renames: where the file was. */
  old_path?: string;
  status: ChangeStatus;
  /** Git modes as octal strings ('100644', '100755', '120000' for links); null when absent. */
  old_mode: string | null;
  new_mode: string | null;
  mode_changed: boolean;
  binary: boolean;
  old_size: number | null;
  new_size: number | null;
  /** null for binary files. */
  insertions: number | null;
  deletions: number | null;
  /** A text change the line diff would hide: only line endings, or only whitespace (set for small files). */
  hidden?: 'line-endings' | 'whitespace';
}

/** 'workspace' names the current state of the files on disk. */
export type DiffTarget = string;
export const WORKSPACE = 'workspace';

export interface DiffResult {
  from: string;
  /** A checkpoint id, or 'workspace'. */
  to: string;
  files: FileChange[];
}

export type FileSideKind = 'text' | 'binary' | 'too_large' | 'symlink' | 'missing';

export interface FileSide {
  kind: FileSideKind;
  size: number | null;
  mode: string | null;
  /** Present for 'text' (the contents) and 'symlink' (the link target). */
  text?: string;
  /** A PNG, JPEG, GIF or WebP image up to IMAGE_PREVIEW_MAX_BYTES: its bytes, for a preview. */
  image?: { mime: string; base64: string };
}

/** Text files up to this size are shown in the diff viewer... */
/** How many of the newest checkpoints a page asks for first, before the whole list (the browser host reads them ahead: serve.ts). */
export const FIRST_PAGE_LIMIT = 200;

export const VIEWER_MAX_BYTES = 2 * 1024 * 1024;
/** ...and larger ones on request (`large`), up to this size. */
export const LARGE_VIEWER_MAX_BYTES = 16 * 1024 * 1024;
/** Images come with their bytes up to this size (the viewer's own limit). */
export const IMAGE_PREVIEW_MAX_BYTES = VIEWER_MAX_BYTES;

export interface FileDiff {
  path: string;
  /** Set when the old side was read at another path (a rename). */
  old_path?: string;
  from: string;
  to: string;
  old: FileSide;
  new: FileSide;
}

export interface RestoreOptions {
  /** Limit to these workspace-relative paths (files or folders). */
  paths?: string[];
  /** Leave files that are new since the latest checkpoint in place. */
  keep_untracked?: boolean;
  /** A restore to before this prompt (its first line, redacted): the restore's checkpoints are named by it. */
  before_prompt?: string;
}

export interface RestorePreview {
  target: string;
  /** In both, different content or mode: will be overwritten. */
  modified: string[];
  /** In the checkpoint, not on disk: will be created. */
  added: string[];
  /** On disk and known to the latest checkpoint, not in the target: will be removed. */
  deleted: string[];
  /** On disk, new since the latest checkpoint, not in the target: removed unless keep_untracked. */
  untracked_removed: string[];
  keep_untracked: boolean;
  /**
   * Undoing a whole-tree restore (the target is its safety checkpoint): files
   * changed since that restore which this one would overwrite or remove.
   */
  changed_since_restore?: string[];
}

export interface RestoreResult {
  restored: string;
  /** The checkpoint taken just before the restore; restoring it undoes this one. */
  safety: string;
  /** The paths the restore was limited to: its undo restores exactly these from `safety`. */
  paths?: string[];
  /** The checkpoint recording the restored state (trigger 'restore'); null if it equals the latest. */
  checkpoint: string | null;
  files_changed: number;
  modified: string[];
  added: string[];
  deleted: string[];
  untracked_removed: number;
  /** Files that changed on disk after the safety checkpoint, while the restore ran: left as they are. */
  conflicts: string[];
  /** Writes left out for safety (a symlink, an unknown file or a folder in the way): left as they are. */
  skipped: string[];
}

/** The store as Settings shows it: its size, its last compression and last prune. */
export interface StoreInfo {
  home: string;
  bytes: number;
  /** The last compression (upkeep): when, and what it left. Null: never. */
  last_upkeep: { time_ms: number } | null;
  /** The last prune (retention by itself, or `chronoscope prune`): when, and how many checkpoints went. Null: never. */
  last_prune: { time_ms: number; workspace: string; removed: number; kept: number } | null;
}

/** What the last check of a workspace found (engine/check.ts), for the app's banner and `list`. */
export interface WorkspaceHealth {
  /** When the last check (by a current checker) finished; null: never checked. */
  checked_ms: number | null;
  /** Damaged checkpoints that still exist, newest id order not implied. */
  damaged: { id: string; lost: string[]; lost_count: number }[];
  /** The lost paths across them, most often lost first (at most 20), with how many damaged checkpoints lost each. */
  files: { path: string; checkpoints: number }[];
}

export interface WorkspaceMeta {
  /** Hash of the workspace's real path. */
  id: string;
  path: string;
  created: string;
  last_touched: string;
}

export interface WorkspaceStatus {
  workspace: WorkspaceMeta;
  checkpoints: number;
  latest: Checkpoint | null;
  /** Files that differ between the latest checkpoint and the disk. */
  dirty_files: number;
  pinned: string[];
  store: { path: string; bytes: number };
}

/** Why retention removes a checkpoint (docs/store-health.md): thinning, the person's count or age limit, or the store's budget. */
export type RemovalRule = 'thinned' | 'count' | 'age' | 'budget';
export const REMOVAL_RULES: readonly RemovalRule[] = ['thinned', 'age', 'count', 'budget'];

export interface PruneResult {
  /** What went into the trash (a preview: what would). */
  removed: string[];
  /** How many of them each rule removed. */
  by_rule: Record<RemovalRule, number>;
  kept: number;
  /** A preview (`prune` without --yes): nothing changed. */
  preview: boolean;
  /** The trash entry holding what went (undo: `prune --undo`); null when nothing went or in a preview. */
  trash: string | null;
  /** Trash entries emptied for good: expired (14 days), or the oldest ones emptied early because the store was over its budget. */
  trash_emptied: { expired: number; for_budget: number };
  /** The store's budget in bytes (the setting, or the smaller of 10 GB and 10 % of the free disk). */
  budget_bytes: number;
  gc_ran: boolean;
  store_bytes_before: number;
  store_bytes_after: number;
}

/** One prune as the trash keeps it for 14 days: its checkpoints can all be brought back at once. */
export interface TrashEntry {
  id: string;
  workspace: string;
  time_ms: number;
  /** Emptied for good after this. */
  expires_ms: number;
  /** By the service on its own (true) or by the person (`prune --yes`). */
  automatic: boolean;
  count: number;
  by_rule: Record<RemovalRule, number>;
  /** The time span of what it holds (oldest, newest checkpoint). */
  oldest_ms: number | null;
  newest_ms: number | null;
}

export interface UndoResult {
  trash: string;
  restored: string[];
}

// ---- Irreversible effects (issue 4) ----

export type EffectKind =
  | 'git_push'
  | 'package_publish'
  | 'pull_request'
  | 'release'
  | 'container_push'
  | 'cluster_change'
  | 'infra_change'
  | 'cloud_change'
  | 'http_write'
  | 'database_write'
  | 'remote_command';

export interface ClassifiedEffect {
  kind: EffectKind;
  /** Where it lands: a remote and ref, a package, a cluster resource, a URL. */
  target: string;
  /** The simple command it was found in. */
  command: string;
  /** A command that would undo it, where one can be computed. */
  compensation: string | null;
  summary: string;
}

export type EffectSource = 'hook' | 'reflog';
// denied: the person (or a rule) refused the tool call, so it never ran.
// nothing_sent: the command ran, but by its own output nothing left the machine
// (a `git push` that said "Everything up-to-date"): nothing to compensate.
export type EffectStatus = 'intended' | 'happened' | 'failed' | 'denied' | 'nothing_sent';

export interface EffectRecord extends ClassifiedEffect {
  id: string;
  workspace: string;
  time: string;
  time_ms: number;
  source: EffectSource;
  status: EffectStatus;
  /** The checkpoint that was latest when the effect was recorded. */
  checkpoint: string | null;
  agent?: string;
  session?: string;
  tool_use_id?: string;
  /** For pushes: old and new commit of the remote ref. */
  old_commit?: string | null;
  new_commit?: string | null;
  /** A hook record matched with the reflog entry of the same push (one record, not two). */
  reflog_id?: string;
}

// ---- Fork, verify, bisect, agent restore requests (issue 13) ----

export interface ForkResult {
  /** The checkpoint whose files were written. */
  id: string;
  /** The new folder. */
  path: string;
}

/** One run of the workspace's verifier against one checkpoint, as recorded in the store. */
export interface VerificationRecord {
  /** The checkpoint verified. */
  id: string;
  passed: boolean;
  /** null when the verifier was stopped (time limit, cancel) or killed by a signal. */
  exit_code: number | null;
  duration_ms: number;
  /** The command line that ran, through the platform shell, in the scratch copy's root. */
  command: string;
  /** The last lines of its output (stdout and stderr, interleaved). */
  output_tail: string;
  /** When the run finished. */
  time: string;
  time_ms: number;
  timed_out: boolean;
  /** The full output, in the store. */
  log: string;
  /** What was linked into the scratch copy, and how the command was chosen. */
  notes: string[];
  /**
   * Dependencies linked from the workspace (no copy-on-write clone here) that
   * the verifier changed: the workspace's own node_modules or virtualenv.
   * Absent in records older than the check.
   */
  dependencies_changed?: boolean;
  /** Workspace-relative paths that changed, were added or removed (the first 50). */
  dependencies_changed_paths?: string[];
}

export interface BisectRun {
  id: string;
  passed: boolean;
}

export interface BisectResult {
  first_bad: string;
  last_good: string;
  runs: BisectRun[];
}

export const APPROVAL_STATUSES = ['pending', 'approved', 'denied', 'expired', 'withdrawn'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/** A restore an agent asked for; only a person answers it. */
export interface ApprovalRequest {
  id: string;
  /** The workspace's real path. */
  workspace: string;
  checkpoint: string;
  /** Limited to these workspace-relative paths; empty = the whole tree. */
  paths: string[];
  requested_at: string;
  /** The asker stops waiting then: past it the request can only expire, never be approved. */
  expires_at?: string;
  status: ApprovalStatus;
  /** Who asked (the MCP client's name), when known. */
  agent?: string;
  /** Asked as "back to before this prompt" (MCP restore_before_prompt): the prompt, its first line (redacted, as the ledger keeps it). */
  before_prompt?: { id: string; first_line: string };
  answered_at?: string;
  /** After approval: the restore that was done, or why it failed. */
  result?: RestoreResult;
  error?: string;
}

// ---- One file's story (issue 11) ----

export type PathChange = 'added' | 'modified' | 'deleted';

export interface PathHistoryEntry {
  /** A checkpoint whose tree holds something else at the path than the checkpoint before it. */
  id: string;
  change: PathChange;
}

export interface PathHistory {
  path: string;
  /** Newest first, as checkpoints:list. A folder's entry changes when anything inside it does. */
  entries: PathHistoryEntry[];
  /** Checkpoints looked at. */
  scanned: number;
}

/** What the app is doing with a workspace: watching it, paused by the person, its folder gone, or not watched (the CLI alone). */
export type WorkspaceState = 'watching' | 'paused' | 'missing' | 'idle';
