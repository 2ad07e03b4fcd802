// A scripted fake of OpenAI's Responses API (what Codex CLI speaks with
// `wire_api = "responses"`), on 127.0.0.1: each POST …/responses gets the next
// step of the script over SSE — a function call, a custom tool call (Codex's
// apply_patch), or a text answer — with only the events Codex needs
// (response.created, response.output_item.done, response.completed).
import { parseBody, startFakeServer } from './fake-server.js';

export type ResponsesStep =
  /** `say`: the model's words before the call, a message item in the same response. */
  | { call: string; arguments: Record<string, unknown>; say?: string }
  | { custom: string; input: string }
  | { text: string };

export interface FakeResponsesApi {
  /** The base URL to configure (ends in /v1). */
  url: string;
  /** Every request body received, parsed. */
  requests: Record<string, unknown>[];
  close(): Promise<void>;
}

/** Fakes started so far in this process: call ids stay unique across them, as a real model's are. */
let started = 0;

function item(step: ResponsesStep, n: number, fake: number): Record<string, unknown> {
  if ('call' in step) return { type: 'function_call', id: `fc_${n}`, call_id: `call_${fake}_${n}`, name: step.call, arguments: JSON.stringify(step.arguments) };
  if ('custom' in step) return { type: 'custom_tool_call', id: `ctc_${n}`, call_id: `call_${fake}_${n}`, name: step.custom, input: step.input };
  return { type: 'message', id: `msg_${n}`, role: 'assistant', content: [{ type: 'output_text', text: step.text, annotations: [] }] };
}

/** Serves `script` in order; past its end, every request gets a plain "Done." */
export async function startFakeResponsesApi(script: ResponsesStep[]): Promise<FakeResponsesApi> {
  const requests: Record<string, unknown>[] = [];
  let next = 0;
  const fake = started++;
  const server = await startFakeServer((req, res, text) => {
    if (req.method !== 'POST' || !(req.url ?? '').endsWith('/responses')) {
      res.writeHead(404).end();
      return;
    }
    requests.push(parseBody(text));
    const n = next++;
    const step = script[n] ?? { text: 'Done.' };
    const id = `resp_${n}`;
    const said = 'say' in step && step.say !== undefined ? [item({ text: step.say }, n, fake)] : [];
    const events: [string, unknown][] = [
      ['response.created', { type: 'response.created', response: { id } }],
      ...[...said, item(step, n, fake)].map((it, i): [string, unknown] => ['response.output_item.done', { type: 'response.output_item.done', output_index: i, item: it }]),
      ['response.completed', { type: 'response.completed', response: { id, usage: { input_tokens: 10, input_tokens_details: null, output_tokens: 5, output_tokens_details: null, total_tokens: 15 } } }],
    ];
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const [name, data] of events) res.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
    res.end();
  });
  return { url: `${server.url}/v1`, requests, close: server.close };
}
