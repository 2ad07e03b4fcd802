// A scripted stand-in for the Anthropic Messages API on 127.0.0.1, for
// driving the real Claude Code CLI in tests. Each request that offers the
// tools the script needs gets the next scripted turn (a tool call, or text),
// streamed as server-sent events the way the real API streams them; any other
// request (titles, topic checks) gets a short text answer.
import type { ServerResponse } from 'node:http';
import { parseBody, startFakeServer } from './fake-server.js';

/** A turn: text, or a tool call (`say`: the assistant's words before it, in the same message). */
export type Turn = { tool: string; input: Record<string, unknown>; say?: string } | { text: string };

export interface FakeApi {
  url: string;
  /** Every /v1/messages request body, in order. */
  requests: Record<string, unknown>[];
  close(): Promise<void>;
}

function sse(res: ServerResponse, events: [string, unknown][]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  for (const [event, data] of events) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  res.end();
}

function message(id: string, model: string, blocks: Turn[]): [string, unknown][] {
  const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const events: [string, unknown][] = [
    ['message_start', { type: 'message_start', message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage } }],
  ];
  let toolUse = false;
  blocks.forEach((b, index) => {
    if ('text' in b) {
      events.push(['content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }]);
      events.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: b.text } }]);
    } else {
      toolUse = true;
      events.push(['content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: `toolu_fake_${id}_${index}`, name: b.tool, input: {} } }]);
      events.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(b.input) } }]);
    }
    events.push(['content_block_stop', { type: 'content_block_stop', index }]);
  });
  events.push(['message_delta', { type: 'message_delta', delta: { stop_reason: toolUse ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 5 } }]);
  events.push(['message_stop', { type: 'message_stop' }]);
  return events;
}

export async function startFakeApi(script: Turn[], needsTool: string): Promise<FakeApi> {
  const requests: Record<string, unknown>[] = [];
  let step = 0;
  let n = 0;
  const server = await startFakeServer((req, res, body) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (req.method !== 'POST' || !path.endsWith('/v1/messages')) {
      if (path.endsWith('/count_tokens')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ input_tokens: 10 }));
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: 'no' } }));
      return;
    }
    const parsed = parseBody(body);
    requests.push(parsed);
    const model = typeof parsed['model'] === 'string' ? parsed['model'] : 'claude-test';
    const tools = Array.isArray(parsed['tools']) ? (parsed['tools'] as { name?: string }[]) : [];
    const main = tools.some((t) => t.name === needsTool);
    n += 1;
    const turn: Turn = main ? (script[step++] ?? { text: 'All done.' }) : { text: 'Test' };
    const blocks: Turn[] = 'say' in turn && turn.say !== undefined ? [{ text: turn.say }, turn] : [turn];
    if (parsed['stream'] === true) sse(res, message(`msg_${n}`, model, blocks));
    else {
      const content = blocks.map((b, i) => ('text' in b ? { type: 'text', text: b.text } : { type: 'tool_use', id: `toolu_fake_msg_${n}_${i}`, name: b.tool, input: b.input }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({ id: `msg_${n}`, type: 'message', role: 'assistant', model, content, stop_reason: 'text' in turn ? 'end_turn' : 'tool_use', stop_sequence: null, usage: { input_tokens: 10, output_tokens: 5 } }),
      );
    }
  });
  return { url: server.url, requests, close: server.close };
}
