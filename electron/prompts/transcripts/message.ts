// What every transcript reader of "Open conversation" (../conversation.ts)
// makes of its agent's format: the messages in order, each with the ids of the
// calls it holds, so the call behind a checkpoint can be found among them.
import type { CallRecord, ConversationMessage } from '../../../shared/model.js';

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One message as a reader found it. */
export interface TranscriptMessage {
  role: ConversationMessage['role'];
  text: string;
  /** The ids of the calls it asks for (tool messages hold none: the call is marked where it was asked). */
  ids: string[];
  /** When the transcript says the call ran: tells apart calls that share an id (the same content twice). */
  time_ms?: number;
}

/** An agent's transcript format: its tail's JSON objects (in file order) as messages around `call`. */
export type TranscriptReader = (entries: Obj[], call: CallRecord) => TranscriptMessage[];

/** The text of a string, or of a list of blocks ({text} or strings). */
export function blockText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.flatMap((b) => (isObj(b) && typeof b['text'] === 'string' ? [b['text'] as string] : typeof b === 'string' ? [b] : [])).join('\n');
}

/** A call as the conversation shows it: "→ name {args}". */
export function callLine(name: unknown, input: unknown): string {
  const args = typeof input === 'string' ? input : JSON.stringify(input ?? {});
  return `→ ${typeof name === 'string' ? name : 'tool'} ${args}`;
}

export function timeOf(value: unknown): number | undefined {
  const ms = typeof value === 'string' ? Date.parse(value) : NaN;
  return Number.isFinite(ms) ? ms : undefined;
}
