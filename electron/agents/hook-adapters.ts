// Every agent `chronoscope hook <agent>` knows: one adapter each (core/adapter.ts).
// Adding an agent is one line here, beside its folder. Only the hook side is
// listed: installers (config files, TOML) never load in a hook process.
import { hookRunner, type HookRunner } from './core/adapter.js';
import { claudeCodeAdapter } from './claude-code/hook.js';
import { hermesAdapter } from './hermes/hook.js';
import { codexAdapter } from './codex/hook.js';
import { geminiAdapter } from './gemini/hook.js';
import { copilotAdapter } from './copilot/hook.js';
import { openCodeAdapter } from './opencode/hook.js';

export const HOOK_ADAPTERS: readonly HookRunner[] = [hookRunner(claudeCodeAdapter), hookRunner(hermesAdapter), hookRunner(codexAdapter), hookRunner(geminiAdapter), hookRunner(copilotAdapter), hookRunner(openCodeAdapter)];

export function hookAdapter(id: string): HookRunner | undefined {
  return HOOK_ADAPTERS.find((a) => a.id === id);
}
