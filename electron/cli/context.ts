// What every command shares: the --workspace/--json options, opening the
// store and the workspace, and validation of ids and paths before anything
// reaches the engine (the engine validates again; this gives an early, clear line).
import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { Command } from 'commander';
import { ChronoscopeError, UsageError } from '../../shared/errors.js';
import { isCheckpointRef } from '../../shared/refs.js';
import type { Settings } from '../../shared/settings.js';
import type { Store, Workspace } from '../engine/api.js';
import { checkWorkspaceDir, openStore, progressMessage, resolveStoreHome, type SnapshotProgress } from '../engine/index.js';
import { recordedWorkspaceAround } from '../agents/core/workspace-for.js';

/**
 * Thrown after a command has printed its answer, when the answer itself is in
 * the exit code (verify: 3 when the verifier failed).
 */
export class ExitWith extends Error {
  constructor(readonly exitCode: number) {
    super(`exit ${exitCode}`);
  }
}

/** A command module adds its command (or commands) to the program. */
export type RegisterCommand = (program: Command) => void;

export interface CommonOptions {
  workspace?: string;
  json?: boolean;
}

/** Adds the options every command takes. Call on each subcommand. */
export function withCommonOptions(command: Command): Command {
  return command
    .option('-w, --workspace <dir>', 'the workspace folder (default: the recorded workspace the current folder is in, else the current folder)')
    .option('--json', 'print machine-readable JSON');
}

/** The workspace folder the person named, resolved against the current directory. */
export function workspaceDir(options: CommonOptions): string {
  const dir = resolve(options.workspace ?? process.cwd());
  let isDir: boolean;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new ChronoscopeError('not_found', `no such folder: ${dir}`);
  }
  if (!isDir) throw new ChronoscopeError('bad_input', `not a folder: ${dir}`);
  return dir;
}

/**
 * The workspace a command works on: the one named (-w), else the recorded workspace the current
 * folder is in (as git finds its repository from a subfolder), else the current folder itself (a
 * first snapshot records it).
 */
export async function workspaceDirAround(options: CommonOptions, home: string): Promise<string> {
  const dir = workspaceDir(options);
  if (options.workspace !== undefined) return dir;
  return (await recordedWorkspaceAround(home, dir)) ?? dir;
}

/**
 * A Hermes Agent home folder from the command line (--hermes-home), resolved; it must exist,
 * or a typo would quietly list no Hermes checkpoints at all.
 */
export function hermesHomeDir(raw: string): string {
  const dir = resolve(raw);
  let isDir: boolean;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new ChronoscopeError('not_found', `no such Hermes home folder: ${dir} (--hermes-home)`);
  }
  if (!isDir) throw new ChronoscopeError('bad_input', `not a folder: ${dir} (--hermes-home)`);
  return dir;
}

/** The store under $CHRONOSCOPE_HOME (or the platform's app-data folder). */
/** `settings`: this run's overrides on top of the store's config.json (a command's --hermes-home). */
export function openCliStore(settings?: Partial<Settings>): Promise<Store> {
  return openStore({ onProgress: printProgress, ...(settings === undefined ? {} : { settings }) });
}

/** A long snapshot's progress on stderr: one line rewritten in a terminal, a line per report elsewhere. */
function printProgress(p: SnapshotProgress): void {
  const line = progressMessage(p);
  if (process.stderr.isTTY) process.stderr.write(`\r\x1b[K${line}${p.done ? '\n' : ''}`);
  else process.stderr.write(`${line}\n`);
}

export async function openWorkspace(options: CommonOptions, settings?: Partial<Settings>): Promise<Workspace> {
  const { dir } = await checkedWorkspaceDir(options);
  const store = await openCliStore(settings);
  return store.workspace(dir);
}

/**
 * The workspace folder and the store home, checked before anything opens the
 * store: opening creates the store's folders, and a refused workspace must
 * leave nothing behind.
 */
export async function checkedWorkspaceDir(options: CommonOptions): Promise<{ dir: string; home: string }> {
  const home = await resolveStoreHome();
  const dir = await workspaceDirAround(options, home);
  await checkWorkspaceDir(dir, home);
  return { dir, home };
}

/** The help of a checkpoint argument, for the commands that also take Hermes' checkpoints (lanes) and for those that take only ours. */
export const CHECKPOINT_ARG_HELP = "a checkpoint: full id, 4+ hex digits, index (1 = newest), 'latest' or a Hermes id (h + hex)";
export const OWN_CHECKPOINT_ARG_HELP = "a checkpoint: full id, 4+ hex digits, index (1 = newest) or 'latest'";
const REF_HELP = "use a full id, a hex prefix of 4+ digits, an index from the newest (1 = latest), 'latest' or a Hermes checkpoint id (h + hex)";

/** A checkpoint reference from the command line; revision syntax and options never pass. */
export function checkRef(ref: string): string {
  if (!isCheckpointRef(ref)) {
    // Echo enough to recognise it, never a 100,000-character line.
    const shown = ref.length > 40 ? `${ref.slice(0, 40)}…` : ref;
    throw new UsageError(`not a checkpoint id: ${JSON.stringify(shown)} (${REF_HELP})`);
  }
  return ref;
}

/**
 * A workspace-relative path from the command line. `-rf` alone looks like an
 * option and is refused; `./-rf` names the file: it is passed on as `./-rf`
 * (the engine refuses a bare leading '-' for the same reason).
 */
export function checkPath(path: string): string {
  const why = pathProblem(path);
  if (why) throw new UsageError(`bad path ${JSON.stringify(path.length > 200 ? `${path.slice(0, 200)}…` : path)}: ${why}`);
  // Normalise harmless spellings ("./src/", "src//a") so the engine sees one form.
  const normal = path
    .split('/')
    .filter((part) => part !== '' && part !== '.')
    .join('/');
  return normal.startsWith('-') ? `./${normal}` : normal;
}

function pathProblem(path: string): string | null {
  if (path === '') return 'empty';
  if (path.includes('\0')) return 'contains a NUL byte';
  if (isAbsolute(path)) return 'must be relative to the workspace';
  if (path.startsWith('-')) return 'must not start with "-"';
  const parts = path.split('/');
  if (parts.includes('..')) return 'must not contain ".."';
  if (parts.every((part) => part === '' || part === '.')) return 'names the whole workspace; leave --path out instead';
  if (parts.filter((part) => part !== '' && part !== '.')[0] === '.git') return "the workspace's .git is never part of a checkpoint";
  return null;
}

/** `--path` may be given several times; commander calls this once per value. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export function checkPaths(paths: readonly string[] | undefined): string[] | undefined {
  if (paths === undefined || paths.length === 0) return undefined;
  return paths.map(checkPath);
}
