// A scripted stand-in for the OpenAI Chat Completions API on 127.0.0.1, for
// driving the real Copilot CLI (COPILOT_PROVIDER_TYPE=openai) and OpenCode
// (@ai-sdk/openai-compatible) in tests. Each request that offers the tool the
// script needs gets the next scripted turn (a tool call, or text); any other
// request (OpenCode's session title carries no tools) gets a short text.
// Streams as server-sent `chat.completion.chunk`s when asked, else one JSON.
import type { ServerResponse } from 'node:http';
import { parseBody, startFakeServer } from './fake-server.js';

/** A turn: text, or a tool call (`say`: the model's words before it, in the same message). */
export type Turn = { tool: string; input: Record<string, unknown>; say?: string } | { text: string };

export interface FakeChatApi {
  /** Base URL ending in /v1, as both CLIs take it. */
  url: string;
  /** Every /chat/completions request body, in order. */
  requests: Record<string, unknown>[];
  close(): Promise<void>;
}

function chunk(id: string, model: string, delta: Record<string, unknown>, finish: string | null): string {
  return `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

function stream(res: ServerResponse, id: string, model: string, turn: Turn): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  if ('text' in turn) {
    res.write(chunk(id, model, { role: 'assistant', content: turn.text }, null));
    res.write(chunk(id, model, {}, 'stop'));
  } else {
    const call = { index: 0, id: `call_${id}`, type: 'function', function: { name: turn.tool, arguments: JSON.stringify(turn.input) } };
    if (turn.say !== undefined) res.write(chunk(id, model, { role: 'assistant', content: turn.say }, null));
    res.write(chunk(id, model, { ...(turn.say === undefined ? { role: 'assistant', content: null } : {}), tool_calls: [call] }, null));
    res.write(chunk(id, model, {}, 'tool_calls'));
  }
  res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1, model, choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } })}\n\n`);
  res.end('data: [DONE]\n\n');
}

function whole(res: ServerResponse, id: string, model: string, turn: Turn): void {
  const message =
    'text' in turn
      ? { role: 'assistant', content: turn.text }
      : { role: 'assistant', content: turn.say ?? null, tool_calls: [{ id: `call_${id}`, type: 'function', function: { name: turn.tool, arguments: JSON.stringify(turn.input) } }] };
  res.writeHead(200, { 'content-type': 'application/json' }).end(
    JSON.stringify({ id, object: 'chat.completion', created: 1, model, choices: [{ index: 0, message, finish_reason: 'text' in turn ? 'stop' : 'tool_calls' }], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } }),
  );
}

function toolName(t: unknown): string | undefined {
  const fn = (t as { function?: { name?: unknown } }).function;
  return typeof fn?.name === 'string' ? fn.name : undefined;
}

export async function startFakeChatApi(script: Turn[], needsTool: string): Promise<FakeChatApi> {
  const requests: Record<string, unknown>[] = [];
  let step = 0;
  let n = 0;
  const server = await startFakeServer((req, res, body) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (req.method === 'GET' && path.endsWith('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'fake-model', object: 'model', owned_by: 'fake' }] }));
      return;
    }
    if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no ${path}` } }));
      return;
    }
    const parsed = parseBody(body);
    requests.push(parsed);
    const model = typeof parsed['model'] === 'string' ? parsed['model'] : 'fake-model';
    const tools = Array.isArray(parsed['tools']) ? (parsed['tools'] as unknown[]) : [];
    const main = tools.some((t) => toolName(t) === needsTool);
    n += 1;
    const turn: Turn = main ? (script[step++] ?? { text: 'All done.' }) : { text: 'Test' };
    if (parsed['stream'] === true) stream(res, `chatcmpl_${n}`, model, turn);
    else whole(res, `chatcmpl_${n}`, model, turn);
  });
  return { url: `${server.url}/v1`, requests, close: server.close };
}
