// The app's side of fork, verify, bisect and agents' restore requests: what
// the router's channels call. One instance per app service (kept beside it,
// not in it, so the service stays about workspaces and feeds). A bisect runs
// in the background and reports over the event bus; each one can be cancelled.
import { randomBytes } from 'node:crypto';
import { toSerializedError } from '../../shared/errors.js';
import type { ApprovalRequest, ForkResult, VerificationRecord } from '../../shared/model.js';
import { answerRequest } from '../approvals/answer.js';
import { checkRequestId, listRequests } from '../approvals/requests.js';
import { watchApprovals, type ApprovalsWatch } from '../approvals/watch.js';
import { bisect, bisectRange } from '../verify/bisect.js';
import { listVerifications } from '../verify/results.js';
import { verifyCheckpoint } from '../verify/verify.js';
import type { AppService } from './api.js';

export class VerifyJobs {
  private readonly bisects = new Map<string, AbortController>();
  private readonly approvals: ApprovalsWatch;

  constructor(private readonly app: AppService) {
    this.approvals = watchApprovals(app.store.home, (pending) => app.emit('approvals:changed', { pending }));
  }

  async list(workspace: string): Promise<VerificationRecord[]> {
    const ws = await this.app.workspace(workspace);
    return listVerifications(this.app.store.home, ws.meta.id);
  }

  async verify(workspace: string, id: string): Promise<VerificationRecord> {
    const ws = await this.app.workspace(workspace);
    const record = await verifyCheckpoint(this.app.store, ws, id);
    this.app.emit('verify:recorded', { workspace: ws.meta.path, record });
    return record;
  }

  async fork(workspace: string, id: string): Promise<ForkResult> {
    return (await this.app.workspace(workspace)).fork(id);
  }

  async startBisect(workspace: string, good: string, bad: string): Promise<{ job: string }> {
    const ws = await this.app.workspace(workspace);
    // Refuse a bad range now, as the answer to the call, not later as an event.
    await bisectRange(ws, good, bad);
    const job = `b${randomBytes(6).toString('hex')}`;
    const controller = new AbortController();
    this.bisects.set(job, controller);
    const path = ws.meta.path;
    const progress = (message: string, runs: number, remaining: number): void =>
      this.app.emit('bisect:progress', { workspace: path, job, message, runs, remaining_at_most: remaining });
    const run = bisect(
      ws,
      good,
      bad,
      async (id, signal) => {
        const record = await verifyCheckpoint(this.app.store, ws, id, signal ? { signal } : {});
        this.app.emit('verify:recorded', { workspace: path, record });
        return record;
      },
      {
        signal: controller.signal,
        onProgress: (p) =>
          progress(
            p.passed === undefined ? `Verifying ${p.id.slice(0, 8)}…` : `${p.id.slice(0, 8)} ${p.passed ? 'passed' : 'failed'}`,
            p.done,
            p.remaining_at_most,
          ),
      },
    );
    void run
      .then(
        (result) => this.app.emit('bisect:done', { workspace: path, job, result }),
        (err: unknown) =>
          this.app.emit('bisect:done', controller.signal.aborted ? { workspace: path, job, cancelled: true } : { workspace: path, job, error: toSerializedError(err) }),
      )
      .finally(() => this.bisects.delete(job));
    return { job };
  }

  cancelBisect(job: string): { cancelled: boolean } {
    const controller = this.bisects.get(job);
    if (!controller) return { cancelled: false };
    controller.abort();
    return { cancelled: true };
  }

  pendingApprovals(): Promise<ApprovalRequest[]> {
    return listRequests(this.app.store.home, { pendingOnly: true });
  }

  async answer(id: string, approve: boolean): Promise<ApprovalRequest> {
    try {
      const answered = await answerRequest(this.app.store, checkRequestId(id), approve);
      if (answered.result) {
        const ws = await this.app.workspace(answered.workspace);
        for (const cp of [answered.result.safety, answered.result.checkpoint]) if (cp) this.app.emit('checkpoint:added', { workspace: ws.meta.path, checkpoint: await ws.resolve(cp) });
        this.app.emit('restore:done', { workspace: ws.meta.path, result: answered.result });
      }
      return answered;
    } finally {
      this.approvals.poke();
    }
  }

  dispose(): void {
    for (const controller of this.bisects.values()) controller.abort();
    this.bisects.clear();
    this.approvals.dispose();
  }
}

const jobs = new WeakMap<AppService, VerifyJobs>();

/** The jobs of this app service, started on first use and disposed with it. */
export function verifyJobs(app: AppService): VerifyJobs {
  let found = jobs.get(app);
  if (!found) {
    found = new VerifyJobs(app);
    jobs.set(app, found);
  }
  return found;
}
