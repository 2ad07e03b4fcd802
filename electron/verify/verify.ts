// Verifying one checkpoint: its files are written into a scratch folder in the
// store (never the workspace), dependencies cloned or linked in (and linked
// ones watched for writes: dependencies.ts), the person's verifier
// run there with a time limit, the outcome recorded against the checkpoint,
// and the scratch folder removed. It never takes a checkpoint.
import fs from 'node:fs/promises';
import path from 'node:path';
import { ChronoscopeError } from '../../shared/errors.js';
import type { VerificationRecord } from '../../shared/model.js';
import type { Store, Workspace } from '../engine/api.js';
import { storeLayout } from '../engine/layout/paths.js';
import { prepareDependencies, type DependencyMode } from './dependencies.js';
import { newLogFile, recordVerification } from './results.js';
import { runCommand } from './run-command.js';
import { AUTO, configuredVerifier, detectVerifier } from './verifier.js';

export interface VerifyOptions {
  /** The person's --verifier; else the workspace's `verifier` setting. */
  verifier?: string;
  /** Overrides the `verify_timeout_s` setting. */
  timeoutMs?: number;
  /** Stops the verifier; nothing is recorded for a cancelled run. */
  signal?: AbortSignal;
  /** Lines for a person watching (stderr in the CLI). */
  onNote?: (line: string) => void;
  /** How dependencies reach the copy (default auto: cloned where the file system can, else linked and watched). */
  dependencies?: DependencyMode;
}

/** Changed dependency paths kept in a record beyond this many are counted, not listed. */
const MAX_CHANGED_PATHS = 50;

export class VerifyCancelled extends ChronoscopeError {
  constructor() {
    super('conflict', 'verification cancelled');
  }
}

export async function verifyCheckpoint(store: Store, workspace: Workspace, ref: string, options: VerifyOptions = {}): Promise<VerificationRecord> {
  const configured = configuredVerifier(store.settings, workspace.root, options.verifier);
  const checkpoint = await workspace.resolve(ref);
  const tmpDir = storeLayout(store.home).tmpDir;
  await fs.mkdir(tmpDir, { recursive: true });
  const scratch = await fs.mkdtemp(path.join(tmpDir, `verify-${checkpoint.id.slice(0, 8)}-`));
  const notes: string[] = [];
  const note = (line: string): void => {
    notes.push(line);
    options.onNote?.(line);
  };
  try {
    await workspace.materialize(checkpoint.id, scratch);
    let command = configured.command;
    if (command === AUTO) {
      const detected = await detectVerifier(scratch);
      command = detected.command;
      note(`auto chose "${command}" (${detected.why})`);
    }
    const deps = await prepareDependencies(workspace.root, scratch, options.dependencies ?? 'auto');
    for (const line of deps.notes) note(line);
    const logFile = await newLogFile(store.home, workspace.meta.id, checkpoint.id);
    const timeoutMs = options.timeoutMs ?? store.settings.verify_timeout_s * 1000;
    const outcome = await runCommand(command, {
      cwd: scratch,
      // CI=1: test runners that would otherwise wait in watch mode run once and exit.
      env: { ...process.env, ...deps.env, CI: '1' },
      timeoutMs,
      logFile,
      ...(options.signal ? { signal: options.signal } : {}),
    }).catch((err: Error) => {
      throw new ChronoscopeError('internal', `cannot run the verifier: ${err.message}`);
    });
    if (outcome.cancelled) throw new VerifyCancelled();
    const changed = await deps.changes();
    if (changed.length > 0) {
      const shown = changed.slice(0, 5).join(', ');
      note(`the verifier changed ${changed.length} path${changed.length === 1 ? '' : 's'} in the workspace's dependencies: ${shown}${changed.length > 5 ? ', …' : ''}`);
    }
    const now = Date.now();
    const record: VerificationRecord = {
      id: checkpoint.id,
      passed: outcome.exit_code === 0,
      exit_code: outcome.exit_code,
      duration_ms: outcome.duration_ms,
      command,
      output_tail: outcome.output_tail,
      time: new Date(now).toISOString(),
      time_ms: now,
      timed_out: outcome.timed_out,
      log: logFile,
      notes,
      dependencies_changed: changed.length > 0,
      dependencies_changed_paths: changed.slice(0, MAX_CHANGED_PATHS),
    };
    await recordVerification(store.home, workspace.meta.id, record);
    return record;
  } finally {
    // Links inside are removed, never followed.
    await fs.rm(scratch, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
  }
}
