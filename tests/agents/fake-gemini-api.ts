// A scripted fake of the Gemini API (what Gemini CLI speaks with
// GOOGLE_GEMINI_BASE_URL and an API key), on 127.0.0.1: each POST
// …/models/<model>:streamGenerateContent?alt=sse gets the next step of the
// script as one SSE chunk — a functionCall part or a text answer. Other calls
// Gemini makes on the side (generateContent for its own checks, countTokens)
// get a plain answer and do not move the script.
import { parseBody, startFakeServer } from './fake-server.js';

/** A step: text, or a function call (`say`: the model's words before it, in the same answer). */
export type GeminiStep = { call: string; args: Record<string, unknown>; say?: string } | { text: string };

export interface FakeGeminiApi {
  /** The base URL for GOOGLE_GEMINI_BASE_URL. */
  url: string;
  /** Each streamed request's body, parsed, in order. */
  requests: Record<string, unknown>[];
  close(): Promise<void>;
}

function candidate(parts: Record<string, unknown>[]): Record<string, unknown> {
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
  };
}

/** Serves `script` in order; past its end, every streamed request gets a plain "Done." */
export async function startFakeGeminiApi(script: GeminiStep[]): Promise<FakeGeminiApi> {
  const requests: Record<string, unknown>[] = [];
  let next = 0;
  const server = await startFakeServer((req, res, text) => {
    const url = req.url ?? '';
    if (req.method !== 'POST') {
      res.writeHead(404).end();
      return;
    }
    if (url.includes(':countTokens')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ totalTokens: 10 }));
      return;
    }
    if (url.includes(':generateContent')) {
      // Gemini's side questions (next speaker, routing) expect JSON text; "{}" keeps it going.
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(candidate([{ text: '{}' }])));
      return;
    }
    if (!url.includes(':streamGenerateContent')) {
      res.writeHead(404).end();
      return;
    }
    requests.push(parseBody(text));
    const step = script[next++] ?? { text: 'Done.' };
    const parts = 'call' in step ? [...(step.say === undefined ? [] : [{ text: step.say }]), { functionCall: { name: step.call, args: step.args } }] : [{ text: step.text }];
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.end(`data: ${JSON.stringify(candidate(parts))}\n\n`);
  });
  return { url: server.url, requests, close: server.close };
}
