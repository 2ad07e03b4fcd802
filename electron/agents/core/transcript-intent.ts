// The assistant's stated intent for a tool call: its last words before the
// call, read from the end of the agent's own transcript (Claude Code's and
// Gemini's transcript_path, Codex's rollout). Only the file's last
// INTENT_TAIL_BYTES are read (fs/tail-read.ts: a regular file, bounded), and
// only a few hundred characters are kept (the ledger bounds them to
// INTENT_MAX and redacts them): never a copy of the transcript.
//
// Every agent writes JSON Lines, one entry a line; each agent's shape says
// what an entry is to us: assistant text, the person's prompt (a new turn:
// words before it are not this call's), and whether it holds this call.
import { readJsonObjectsAtEnd } from '../../fs/tail-read.js';

/** Enough for the turn around a call; a longer turn's earlier words are not this call's intent anyway. */
export const INTENT_TAIL_BYTES = 512 * 1024;
/** Kept from the words found (the ledger keeps INTENT_MAX of their end). */
const INTENT_KEEP = 1000;

export interface EntryMeaning {
  /** The assistant's text in this entry (before the call, when the entry holds the call too). */
  text?: string | null;
  /** The person's prompt: a new turn begins. */
  prompt?: boolean;
  /** The entry holds the call asked about. */
  call?: boolean;
}

export type TranscriptShape = (entry: Record<string, unknown>) => EntryMeaning;

/**
 * The assistant's last text before the call in the transcript's current turn: up to the entry holding
 * the call, or (the call not written yet) to the end. Null: no transcript, no words, or unreadable.
 */
export async function intentBefore(transcript: string | undefined, shape: TranscriptShape): Promise<string | null> {
  if (transcript === undefined || transcript === '') return null;
  const entries = await readJsonObjectsAtEnd(transcript, INTENT_TAIL_BYTES);
  if (entries === null) return null;
  let last: string | null = null;
  for (const entry of entries) {
    const meaning = shape(entry);
    if (meaning.prompt === true) last = null;
    const text = meaning.text?.trim();
    if (text !== undefined && text !== '') last = text;
    if (meaning.call === true) break;
  }
  return last === null ? null : last.slice(-INTENT_KEEP);
}

/** The text of a content that is a string or a list of blocks ({type: 'text' | 'output_text', text}). */
export function blocksText(content: unknown, types: readonly string[] = ['text']): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  const texts = content.flatMap((b) => {
    if (typeof b !== 'object' || b === null) return [];
    const o = b as Record<string, unknown>;
    return typeof o['text'] === 'string' && (o['type'] === undefined || types.includes(String(o['type']))) ? [o['text']] : [];
  });
  return texts.length === 0 ? null : texts.join('\n');
}

/** Whether a transcript's call arguments are the payload's (key by key): for agents whose hook payload has no call id. */
export function sameArgs(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return false;
  const keys = Object.keys(b as object);
  return keys.length === Object.keys(a).length && keys.every((k) => JSON.stringify((a as Record<string, unknown>)[k]) === JSON.stringify((b as Record<string, unknown>)[k]));
}
