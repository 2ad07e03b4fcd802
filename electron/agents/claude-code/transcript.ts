// Which tool calls are still in the conversation Claude Code will send next.
// Its transcript (JSON Lines) keeps everything ever said: a rewind continues
// from an earlier message (the abandoned branch stays in the file) and a
// compaction starts a new chain from a summary (parentUuid null). So the
// conversation is the chain from the newest message back through parentUuid;
// tool calls off that chain are no longer in it.
//
// The payload names the file, so it is read bounded (fs/tail-read.ts): a
// regular file only, its last TRANSCRIPT_TAIL_BYTES. A chain that runs off the
// start of that tail leaves older calls unknown: then nothing counts as
// forgotten (no reminder rather than a wrong one).
import { readTail } from '../../fs/tail-read.js';

/** How much of a transcript's end is read: a conversation's chain since its last compaction fits in it. */
export const TRANSCRIPT_TAIL_BYTES = 4 * 1024 * 1024;

interface Entry {
  uuid?: unknown;
  parentUuid?: unknown;
  isSidechain?: unknown;
  message?: { content?: unknown };
}

/** Tool-use ids in the current conversation; null when the transcript cannot be read (then nothing counts as forgotten). */
export async function conversationToolUseIds(transcriptPath: string): Promise<string[] | null> {
  const tail = await readTail(transcriptPath, TRANSCRIPT_TAIL_BYTES);
  if (tail === null) return null;
  const lines = tail.text.split('\n');
  if (tail.cut) lines.shift(); // a line cut by the tail's start
  const byUuid = new Map<string, Entry>();
  let leaf: Entry | undefined;
  const all: Entry[] = [];
  for (const line of lines) {
    if (line.trim() === '') continue;
    let entry: Entry;
    try {
      entry = JSON.parse(line) as Entry;
    } catch {
      continue; // a line Claude Code is still writing
    }
    if (typeof entry !== 'object' || entry === null) continue;
    all.push(entry);
    if (typeof entry.uuid !== 'string' || entry.isSidechain === true) continue;
    byUuid.set(entry.uuid, entry);
    leaf = entry;
  }
  // No chain to follow (an unknown format): everything in the file counts as present.
  if (leaf === undefined) return tail.cut ? null : all.flatMap(toolIds);
  const ids: string[] = [];
  const seen = new Set<string>();
  for (let e: Entry | undefined = leaf; e !== undefined; ) {
    ids.push(...toolIds(e));
    const parent = e.parentUuid;
    if (typeof parent !== 'string' || seen.has(parent)) break;
    seen.add(parent);
    e = byUuid.get(parent);
    // The chain goes on before the tail: its older calls are unknown.
    if (e === undefined && tail.cut) return null;
  }
  return ids;
}

function toolIds(entry: Entry): string[] {
  const content = entry.message?.content;
  if (!Array.isArray(content)) return [];
  const ids: string[] = [];
  for (const block of content) {
    if (typeof block !== 'object' || block === null) continue;
    const b = block as Record<string, unknown>;
    if (b['type'] === 'tool_use' && typeof b['id'] === 'string') ids.push(b['id']);
    if (b['type'] === 'tool_result' && typeof b['tool_use_id'] === 'string') ids.push(b['tool_use_id']);
  }
  return ids;
}
