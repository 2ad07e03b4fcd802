// Whether a Codex shell call failed. Codex's PostToolUse gives only what the
// command printed (no exit code: "ls: cannot access …" reads like success),
// but the session's rollout file (`transcript_path`) records the call's
// `item_completed` with its status before the hook runs. Only its tail is
// read (a session's file grows for hours); anything unreadable means "not
// known to have failed", as before. The payload names the file, so it is
// read bounded (fs/tail-read.ts): a regular file only, never a FIFO or a device.
import { readTail } from '../../fs/tail-read.js';

const TAIL_BYTES = 256 * 1024;

interface CompletedItem {
  id?: unknown;
  status?: unknown;
  exit_code?: unknown;
}

export interface RolloutOutcome {
  failed: boolean;
  exit_code: number | null;
}

/** How the call ended as the rollout's item_completed says; null when it says nothing of it. */
export async function outcomeInRollout(rolloutPath: string | undefined, callId: string | undefined): Promise<RolloutOutcome | null> {
  if (rolloutPath === undefined || callId === undefined || callId === '') return null;
  const tail = await readTail(rolloutPath, TAIL_BYTES);
  if (tail === null) return null;
  const lines = tail.text.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (!line.includes('item_completed') || !line.includes(callId)) continue;
    try {
      const item = (JSON.parse(line) as { payload?: { item?: CompletedItem } }).payload?.item;
      if (item?.id !== callId) continue;
      const exit = typeof item.exit_code === 'number' && Number.isInteger(item.exit_code) ? item.exit_code : null;
      return { failed: item.status === 'failed' || (exit !== null && exit !== 0), exit_code: exit };
    } catch {
      // a line cut by the tail's start, or not JSON
    }
  }
  return null;
}
