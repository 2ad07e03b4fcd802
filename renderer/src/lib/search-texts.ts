// What the search box looks through for one checkpoint — what people remember
// (issue 41): its visible title, the prompt it was made under (whole), the
// files it changed, its author and the commands of its prompt's calls that
// failed there. Never the call a hook checkpoint was taken *before* (its note):
// that call made the next checkpoint's change, not this one's, and matching it
// listed rows whose titles say something else. Pure; the texts of a list are
// kept per checkpoint so each keystroke at 10,000 only compares strings.
import type { Checkpoint, PromptRecord } from '../../../shared/model.js';
import { agentName } from '../../../shared/agents.js';
import { wordsIn } from './checkpoint-title.js';

export interface SearchTexts {
  /** The title the row shows. */
  title: string;
  prompt: string;
  paths: string;
  author: string;
  commands: string;
}

/** Lower-cased words of the search box, all of which must be found. */
export function searchWords(text: string): string[] {
  return text.toLowerCase().split(/\s+/).filter(Boolean);
}

const PARTS = ['title', 'author', 'prompt', 'commands', 'paths'] as const;

function has(texts: SearchTexts, word: string): boolean {
  return PARTS.some((p) => texts[p].includes(word));
}

export function textMatches(texts: SearchTexts, words: readonly string[]): boolean {
  return words.every((w) => has(texts, w));
}

const WHERE: Record<Exclude<(typeof PARTS)[number], 'title' | 'author'>, string> = {
  prompt: 'the prompt',
  commands: 'a failed command',
  paths: 'a file path',
};

/**
 * Where the words matched when the row's title does not show them all: "in the prompt", "in the prompt
 * and a file path"; null when the title holds every word. `pathHit`: a changed file matched the search text.
 */
export function whereMatched(texts: SearchTexts, words: readonly string[], pathHit = false): string | null {
  const missing = words.filter((w) => !texts.title.includes(w) && !texts.author.includes(w));
  if (missing.length === 0) return null;
  const places = new Set<string>();
  // One place that holds every word ("npm test" in a failed command, though "test" is in the prompt too).
  const whole = (['prompt', 'commands', 'paths'] as const).find((p) => missing.every((w) => texts[p].includes(w)));
  for (const w of whole === undefined ? missing : []) {
    const part = (['prompt', 'commands', 'paths'] as const).find((p) => texts[p].includes(w));
    if (part) places.add(WHERE[part]);
  }
  if (whole !== undefined) places.add(WHERE[whole]);
  if (places.size === 0 && pathHit) places.add('a changed file');
  if (places.size === 0) return null;
  return `in ${[...places].join(' and ')}`;
}

/**
 * The texts of a checkpoint with nothing else at hand: its own words (tests, and before prompts load).
 * `failed`: the commands of its prompt's failed calls placed at it (failedCallsAt).
 */
export function ownTexts(c: Checkpoint, title: string, prompt: PromptRecord | undefined, failed: readonly string[] = []): SearchTexts {
  return {
    title: title.toLowerCase(),
    prompt: (prompt?.text ?? c.prompt ?? '').toLowerCase(),
    paths: (c.paths ?? []).join('\n').toLowerCase(),
    author: `${c.agent ? agentName(c.agent) : ''} ${c.agent ?? ''} ${c.tool ?? ''}`.toLowerCase(),
    commands: failed.join('\n').toLowerCase(),
  };
}

/**
 * Which row each failed call is found at: the checkpoint that holds its change, else (a failed call
 * mostly changes nothing: `npm test`) the state it ran on, its prompt's newest checkpoint taken by
 * then, else its prompt's first. Keyed by checkpoint id; the commands as the calls are worded.
 */
export function failedCallsAt(newestFirst: readonly Checkpoint[], prompts: ReadonlyMap<string, PromptRecord>): Map<string, string[]> {
  const byPrompt = new Map<string, Checkpoint[]>();
  for (const c of newestFirst) {
    if (c.prompt_id === undefined || !prompts.get(c.prompt_id)?.failed_calls.length) continue;
    const list = byPrompt.get(c.prompt_id);
    if (list) list.push(c);
    else byPrompt.set(c.prompt_id, [c]);
  }
  const at = new Map<string, string[]>();
  for (const [id, rows] of byPrompt) {
    for (const call of prompts.get(id)!.failed_calls) {
      const row = (call.checkpoint !== undefined ? rows.find((c) => c.id === call.checkpoint) : undefined) ?? rows.find((c) => c.time_ms <= call.time_ms) ?? rows[rows.length - 1]!;
      at.set(row.id, [...(at.get(row.id) ?? []), call.reason]);
    }
  }
  return at;
}

let cacheList: readonly Checkpoint[] | null = null;
let cachePrompts: ReadonlyMap<string, PromptRecord> | null = null;
let cache = new WeakMap<Checkpoint, SearchTexts>();
let cacheFailed = new Map<string, string[]>();

/** The texts of `c`, a checkpoint of the timeline's whole list (titles are worded against it). */
export function textsIn(all: readonly Checkpoint[], prompts: ReadonlyMap<string, PromptRecord>, c: Checkpoint): SearchTexts {
  if (all !== cacheList || prompts !== cachePrompts) {
    cacheList = all;
    cachePrompts = prompts;
    cache = new WeakMap();
    cacheFailed = failedCallsAt(all, prompts);
  }
  let texts = cache.get(c);
  if (texts === undefined) {
    texts = ownTexts(c, wordsIn(all, c).title, c.prompt_id ? prompts.get(c.prompt_id) : undefined, cacheFailed.get(c.id) ?? []);
    cache.set(c, texts);
  }
  return texts;
}
