// Restore requests from agents, waiting for a person. One small JSON file per
// request under `<home>/approvals/`, written atomically; every change of
// status happens under one lock and only from 'pending', so an approval and a
// timeout (or a withdrawal) racing each other have exactly one winner.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ChronoscopeError } from '../../shared/errors.js';
import { APPROVAL_STATUSES, type ApprovalRequest, type ApprovalStatus } from '../../shared/model.js';
import { withLock } from '../engine/support/lock.js';
import { readJson, writeJsonAtomic } from '../fs/atomic-file.js';

const REQUEST_ID = /^r[0-9a-z]{6,40}$/;
/** Answered requests older than this are removed when the list is read. */
const KEEP_ANSWERED_MS = 30 * 24 * 3600 * 1000;

export function approvalsDir(storeHome: string): string {
  return path.join(storeHome, 'approvals');
}

function lockTarget(storeHome: string): string {
  return path.join(storeHome, 'approvals.lock');
}

export function checkRequestId(id: string): string {
  if (!REQUEST_ID.test(id)) throw new ChronoscopeError('bad_input', `not a request id: ${JSON.stringify(id)} (see chronoscope approve --list)`);
  return id;
}

function requestFile(storeHome: string, id: string): string {
  return path.join(approvalsDir(storeHome), `${checkRequestId(id)}.json`);
}

export interface NewRequest {
  workspace: string;
  checkpoint: string;
  paths: string[];
  agent?: string;
  before_prompt?: ApprovalRequest['before_prompt'];
  /** How long the asker waits for an answer. */
  waitMs: number;
}

/**
 * Past its deadline nobody waits for the answer any more (the asker timed out,
 * or was killed before it could withdraw): such a request is expired, so an
 * approval can never restore for an agent that has gone.
 */
function pastDeadline(request: ApprovalRequest, now = Date.now()): boolean {
  return request.expires_at !== undefined && now > Date.parse(request.expires_at);
}

export async function fileRequest(storeHome: string, input: NewRequest): Promise<ApprovalRequest> {
  const now = Date.now();
  const request: ApprovalRequest = {
    id: `r${now.toString(36)}${randomBytes(4).toString('hex')}`,
    workspace: input.workspace,
    checkpoint: input.checkpoint,
    paths: input.paths,
    requested_at: new Date(now).toISOString(),
    expires_at: new Date(now + input.waitMs).toISOString(),
    status: 'pending',
    ...(input.agent ? { agent: input.agent } : {}),
    ...(input.before_prompt ? { before_prompt: input.before_prompt } : {}),
  };
  await fs.mkdir(approvalsDir(storeHome), { recursive: true, mode: 0o700 });
  await writeJsonAtomic(requestFile(storeHome, request.id), request, { mode: 0o600 });
  return request;
}

export async function readRequest(storeHome: string, id: string): Promise<ApprovalRequest> {
  let raw: unknown;
  try {
    raw = await readJson(requestFile(storeHome, id));
  } catch {
    raw = undefined;
  }
  if (!isRequest(raw)) throw new ChronoscopeError('not_found', `no restore request ${id}`);
  return raw;
}

/** Every request, oldest first; `pendingOnly` for what still waits for an answer. */
export async function listRequests(storeHome: string, options: { pendingOnly?: boolean } = {}): Promise<ApprovalRequest[]> {
  const names = await fs.readdir(approvalsDir(storeHome)).catch(() => [] as string[]);
  const requests: ApprovalRequest[] = [];
  const now = Date.now();
  for (const name of names) {
    const id = name.replace(/\.json$/, '');
    if (id === name || !REQUEST_ID.test(id)) continue;
    const request = await readRequest(storeHome, id).catch(() => null);
    if (request === null) continue;
    if (request.status !== 'pending' && now - Date.parse(request.answered_at ?? request.requested_at) > KEEP_ANSWERED_MS) {
      await fs.rm(requestFile(storeHome, id), { force: true });
      continue;
    }
    if (request.status === 'pending' && pastDeadline(request, now)) {
      const { request: settled } = await settleRequest(storeHome, id, 'expired');
      if (!options.pendingOnly || settled.status === 'pending') requests.push(settled);
      continue;
    }
    if (!options.pendingOnly || request.status === 'pending') requests.push(request);
  }
  return requests.sort((a, b) => a.requested_at.localeCompare(b.requested_at) || a.id.localeCompare(b.id));
}

/**
 * Moves a pending request to `status`. Resolves to the request as it is after
 * the attempt, and whether this call was the one that answered it.
 */
export async function settleRequest(storeHome: string, id: string, status: Exclude<ApprovalStatus, 'pending'>): Promise<{ request: ApprovalRequest; settled: boolean }> {
  return withLock(
    lockTarget(storeHome),
    async () => {
      const request = await readRequest(storeHome, id);
      if (request.status !== 'pending') return { request, settled: false };
      if (status === 'approved' && pastDeadline(request)) {
        const expired: ApprovalRequest = { ...request, status: 'expired', answered_at: new Date().toISOString() };
        await writeJsonAtomic(requestFile(storeHome, id), expired, { mode: 0o600 });
        return { request: expired, settled: false };
      }
      const next: ApprovalRequest = { ...request, status, answered_at: new Date().toISOString() };
      await writeJsonAtomic(requestFile(storeHome, id), next, { mode: 0o600 });
      return { request: next, settled: true };
    },
    { what: 'the restore requests' },
  );
}

/** After an approval: what the restore did (or why it failed). */
export async function recordOutcome(storeHome: string, id: string, outcome: Pick<ApprovalRequest, 'result' | 'error'>): Promise<ApprovalRequest> {
  return withLock(
    lockTarget(storeHome),
    async () => {
      const next = { ...(await readRequest(storeHome, id)), ...outcome };
      await writeJsonAtomic(requestFile(storeHome, id), next, { mode: 0o600 });
      return next;
    },
    { what: 'the restore requests' },
  );
}

function isRequest(v: unknown): v is ApprovalRequest {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    typeof o['id'] === 'string' &&
    REQUEST_ID.test(o['id']) &&
    typeof o['workspace'] === 'string' &&
    typeof o['checkpoint'] === 'string' &&
    Array.isArray(o['paths']) &&
    o['paths'].every((p) => typeof p === 'string') &&
    typeof o['requested_at'] === 'string' &&
    typeof o['status'] === 'string' &&
    (APPROVAL_STATUSES as readonly string[]).includes(o['status']) &&
    (o['before_prompt'] === undefined || isPromptRef(o['before_prompt']))
  );
}

function isPromptRef(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return typeof o['id'] === 'string' && typeof o['first_line'] === 'string';
}
