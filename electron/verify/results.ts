// Verification results live in the store beside the workspace's other files,
// never in the checkpoint (a commit is never rewritten): one JSON-lines file
// of records, `<home>/workspaces/<id>/verifications.jsonl`, and each run's full
// output under `verify-logs/`.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { VerificationRecord } from '../../shared/model.js';
import { appendJsonLine, readJsonLines } from '../fs/json-lines.js';

/** Older logs beyond this many per workspace are removed (their records stay, with the tail). */
const KEEP_LOGS = 200;

function workspaceDir(storeHome: string, workspaceId: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(workspaceId)) throw new Error(`bad workspace id: ${workspaceId}`);
  return path.join(storeHome, 'workspaces', workspaceId);
}

export function resultsFile(storeHome: string, workspaceId: string): string {
  return path.join(workspaceDir(storeHome, workspaceId), 'verifications.jsonl');
}

export async function newLogFile(storeHome: string, workspaceId: string, checkpoint: string): Promise<string> {
  const dir = path.join(workspaceDir(storeHome, workspaceId), 'verify-logs');
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const names = (await fs.readdir(dir)).filter((n) => n.endsWith('.log')).sort();
  for (const old of names.slice(0, Math.max(0, names.length - KEEP_LOGS + 1))) await fs.rm(path.join(dir, old), { force: true });
  return path.join(dir, `${Date.now().toString().padStart(15, '0')}-${checkpoint.slice(0, 12)}.log`);
}

export async function recordVerification(storeHome: string, workspaceId: string, record: VerificationRecord): Promise<void> {
  await appendJsonLine(resultsFile(storeHome, workspaceId), record);
}

/** Every recorded run, oldest first. */
export async function listVerifications(storeHome: string, workspaceId: string): Promise<VerificationRecord[]> {
  return (await readJsonLines(resultsFile(storeHome, workspaceId))).filter(isVerificationRecord);
}

/** The newest run of each checkpoint: what the slider marks show. */
export function latestPerCheckpoint(records: readonly VerificationRecord[]): Map<string, VerificationRecord> {
  const latest = new Map<string, VerificationRecord>();
  for (const r of records) {
    const seen = latest.get(r.id);
    if (seen === undefined || seen.time_ms <= r.time_ms) latest.set(r.id, r);
  }
  return latest;
}

function isVerificationRecord(v: unknown): v is VerificationRecord {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    typeof o['id'] === 'string' &&
    typeof o['passed'] === 'boolean' &&
    (o['exit_code'] === null || typeof o['exit_code'] === 'number') &&
    typeof o['duration_ms'] === 'number' &&
    typeof o['command'] === 'string' &&
    typeof o['output_tail'] === 'string' &&
    typeof o['time_ms'] === 'number' &&
    typeof o['time'] === 'string' &&
    typeof o['log'] === 'string' &&
    Array.isArray(o['notes'])
  );
}
