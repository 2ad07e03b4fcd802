// Copilot CLI's session store as core/transcript-intent.ts reads it: each
// session's events are JSON Lines at <COPILOT_HOME>/session-state/<session
// id>/events.jsonl (seen in 1.0.102; the hook payload gives the session id,
// not the path). A `user.message` is the person's prompt; an
// `assistant.message` has the model's words (`data.content`) and the calls
// it asks for (`data.toolRequests`: name, arguments, toolCallId). The hook
// payload has no call id, so the call is matched by its arguments.
import os from 'node:os';
import path from 'node:path';
import { intentBefore, sameArgs, type TranscriptShape } from '../core/transcript-intent.js';
import { copilotHome } from './home.js';

/** Copilot's session ids are UUIDs: anything else is not a folder name of ours to open. */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9-]{0,127}$/;

export function copilotEventsPath(session: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (session === undefined || !SESSION_ID.test(session)) return undefined;
  return path.join(copilotHome(os.homedir(), env), 'session-state', session, 'events.jsonl');
}

function shapeFor(input: Record<string, unknown> | undefined): TranscriptShape {
  return (entry) => {
    if (entry['type'] === 'user.message') return { prompt: true };
    if (entry['type'] !== 'assistant.message') return {};
    const data = entry['data'];
    if (typeof data !== 'object' || data === null) return {};
    const d = data as Record<string, unknown>;
    const requests = Array.isArray(d['toolRequests']) ? (d['toolRequests'] as unknown[]) : [];
    const call = requests.some((r) => typeof r === 'object' && r !== null && sameArgs((r as Record<string, unknown>)['arguments'], input));
    return { text: typeof d['content'] === 'string' ? d['content'] : null, call };
  };
}

export function copilotIntent(session: string | undefined, input: Record<string, unknown> | undefined): Promise<string | null> {
  return intentBefore(copilotEventsPath(session), shapeFor(input));
}
