// Claude Code's transcript is read from its end only (a session's file grows
// for hours): the chain since the last compaction is found there; a chain that
// runs off the start of the tail leaves older calls unknown, so nothing counts
// as forgotten (no reminder rather than a wrong one).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TRANSCRIPT_TAIL_BYTES, conversationToolUseIds } from '../../electron/agents/claude-code/transcript.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chronoscope-tail-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const line = (uuid: string, parent: string | null, content: unknown[]): string => `${JSON.stringify({ uuid, parentUuid: parent, message: { content } })}\n`;
const padding = (parent: string, n: number): string => line(`pad-${n}`, parent, [{ type: 'text', text: 'x'.repeat(TRANSCRIPT_TAIL_BYTES) }]);

describe('conversationToolUseIds reads the tail', () => {
  it('finds the chain since a compaction in a file larger than the tail', async () => {
    const file = join(dir, 't.jsonl');
    const old = line('a1', null, [{ type: 'tool_use', id: 'toolu_old' }]) + padding('a1', 1);
    await writeFile(file, old + line('c1', null, [{ type: 'text', text: 'summary' }]) + line('c2', 'c1', [{ type: 'tool_use', id: 'toolu_new' }]));
    expect(await conversationToolUseIds(file)).toEqual(['toolu_new']);
  });

  it('gives null when the chain goes on before the tail', async () => {
    const file = join(dir, 't.jsonl');
    await writeFile(file, line('a1', null, [{ type: 'tool_use', id: 'toolu_old' }]) + padding('a1', 1) + line('a2', 'pad-1', []) + line('a3', 'a2', [{ type: 'tool_use', id: 'toolu_new' }]));
    expect(await conversationToolUseIds(file)).toBeNull();
  });

  it('gives null for anything but a regular file', async () => {
    expect(await conversationToolUseIds('/dev/zero')).toBeNull();
    expect(await conversationToolUseIds(dir)).toBeNull();
  });
});
