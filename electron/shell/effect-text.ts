// What the tray and the notifications say about an irreversible effect. Plain
// functions (no Electron) so the wording is tested without the binary.
import { basename } from 'node:path';
import type { EffectRecord } from '../../shared/model.js';
import { redactSecrets } from '../../shared/redact.js';

// Records reach here from the ledger (masked) and from the push monitor; each text is masked once
// more on its way to the screen, as every text shown is (shared/redact.ts).

export function effectTitle(effect: EffectRecord): string {
  return `Irreversible: ${redactSecrets(effect.summary)}`;
}

/**
 * Where, when, and how to compensate — the three things the person needs.
 * Without notification buttons (every OS but macOS) it also says where the
 * two actions are: a click opens the timeline, the tray menu copies.
 */
export function effectBody(effect: EffectRecord, options: { buttons: boolean } = { buttons: true }): string {
  const when = new Date(effect.time_ms).toLocaleString();
  const where = `${basename(effect.workspace)} → ${redactSecrets(effect.target)}`;
  const undo = effect.compensation ? `Compensate with: ${redactSecrets(effect.compensation)}` : 'No compensation command is known for this effect.';
  const lines = [where, when, undo];
  if (!options.buttons) lines.push(effect.compensation ? 'Click to show it in the timeline; the tray menu copies the command.' : 'Click to show it in the timeline.');
  return lines.join('\n');
}

/** A short menu label: kind-neutral summary, clipped so the tray menu stays narrow. */
export function effectMenuLabel(effect: EffectRecord, max = 60): string {
  const time = new Date(effect.time_ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  const text = `${time}  ${redactSecrets(effect.summary)}`;
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Notify once per effect: a hook's "intended" and its later "happened" are one effect to the person. */
export function notificationKey(effect: EffectRecord): string {
  return effect.tool_use_id ? `tool:${effect.tool_use_id}` : `id:${effect.id}`;
}

export function shouldNotify(effect: EffectRecord): boolean {
  return effect.status !== 'failed' && effect.status !== 'denied' && effect.status !== 'nothing_sent';
}
