// A person's answer to a restore request (the CLI's approve/deny, the app's
// buttons). Approving is what restores — with the engine's own safety
// checkpoint first, so it can be undone — never the agent's call.
import type { ApprovalRequest } from '../../shared/model.js';
import { ChronoscopeError, toSerializedError } from '../../shared/errors.js';
import type { Store } from '../engine/api.js';
import { readRequest, recordOutcome, settleRequest } from './requests.js';

export async function answerRequest(store: Store, id: string, approve: boolean): Promise<ApprovalRequest> {
  const { request, settled } = await settleRequest(store.home, id, approve ? 'approved' : 'denied');
  if (!settled) throw new ChronoscopeError('conflict', `request ${id} is already ${request.status}`);
  if (!approve) return request;
  try {
    const workspace = await store.workspace(request.workspace);
    const result = await workspace.restore(request.checkpoint, {
      ...(request.paths.length > 0 ? { paths: request.paths } : {}),
      ...(request.before_prompt ? { before_prompt: request.before_prompt.first_line } : {}),
    });
    return await recordOutcome(store.home, id, { result });
  } catch (err) {
    await recordOutcome(store.home, id, { error: toSerializedError(err).message });
    throw err;
  }
}

export interface WaitOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  pollMs?: number;
}

/** After approval the restore itself may take a while; this long at most. */
const RESTORE_WAIT_MS = 10 * 60 * 1000;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until the person answers, the time is up (the request expires) or the
 * caller gives up (the request is withdrawn). For an approved request, waits
 * for the restore's outcome too.
 */
export async function waitForAnswer(storeHome: string, id: string, options: WaitOptions): Promise<ApprovalRequest> {
  const pollMs = options.pollMs ?? 200;
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const request = await readRequest(storeHome, id);
    if (request.status !== 'pending') return request.status === 'approved' ? waitForOutcome(storeHome, id, pollMs) : request;
    if (options.signal?.aborted || Date.now() >= deadline) {
      const { request: after } = await settleRequest(storeHome, id, options.signal?.aborted ? 'withdrawn' : 'expired');
      // The person may have answered just before: their answer stands.
      return after.status === 'approved' ? waitForOutcome(storeHome, id, pollMs) : after;
    }
    await sleep(Math.min(pollMs, Math.max(1, deadline - Date.now())));
  }
}

async function waitForOutcome(storeHome: string, id: string, pollMs: number): Promise<ApprovalRequest> {
  const until = Date.now() + RESTORE_WAIT_MS;
  for (;;) {
    const request = await readRequest(storeHome, id);
    if (request.result !== undefined || request.error !== undefined || Date.now() > until) return request;
    await sleep(pollMs);
  }
}
