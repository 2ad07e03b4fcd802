// Which tool calls are still in the conversation Claude Code will send next.
// Its transcript (JSON Lines) keeps everything ever said: a rewind continues
// from an earlier message (the abandoned branch stays in the file) and a
// compaction starts a new chain from a summary (parentUuid null). So the
// conversation is the chain from the newest message back through parentUuid;
// tool calls off that chain are no longer in it.
import { readFile } from 'node:fs';

interface Entry {
  uuid?: unknown;
  parentUuid?: unknown;
  isSidechain?: unknown;
  message?: { content?: unknown };
}

/** Tool-use ids in the current conversation; null when the transcript cannot be read (then nothing counts as forgotten). */
export async function conversationToolUseIds(transcriptPath: string): Promise<string[] | null> {
  let text: string;
  try {
    // node:fs's callback form: node:fs/promises would load ~20 more modules into every hook process.
    text = await new Promise<string>((resolveText, reject) => readFile(transcriptPath, 'utf8', (err, data) => (err ? reject(err) : resolveText(data))));
  } catch {
    return null;
  }
  const byUuid = new Map<string, Entry>();
  let leaf: Entry | undefined;
  const all: Entry[] = [];
  for (const line of text.split('\n')) {
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
  if (leaf === undefined) return all.flatMap(toolIds);
  const ids: string[] = [];
  const seen = new Set<string>();
  for (let e: Entry | undefined = leaf; e !== undefined; ) {
    ids.push(...toolIds(e));
    const parent = e.parentUuid;
    if (typeof parent !== 'string' || seen.has(parent)) break;
    seen.add(parent);
    e = byUuid.get(parent);
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
