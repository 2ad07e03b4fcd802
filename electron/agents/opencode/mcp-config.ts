// `hooks install opencode --mcp`: our MCP server under `mcp.chronoscope` in
// OpenCode's global config (opencode.jsonc when there is one, else
// opencode.json, in $XDG_CONFIG_HOME/opencode or ~/.config/opencode; the
// workspace's with --project). The file is JSON with comments: it is edited
// through jsonc-parser's modify/applyEdits, which change only the bytes of
// our key and keep every comment and all formatting.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { applyEdits, modify, parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { ChronoscopeError } from '../../../shared/errors.js';
import type { McpCommand } from '../core/installer.js';

const NAME = 'chronoscope';
const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } };

/** The config file of the folder holding OpenCode's `plugin/`. */
export function openCodeConfigPath(configDir: string): string {
  const jsonc = path.join(configDir, 'opencode.jsonc');
  return existsSync(jsonc) ? jsonc : path.join(configDir, 'opencode.json');
}

function parsed(text: string, file: string): Record<string, unknown> {
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true }) as unknown;
  if (errors.length > 0) throw new ChronoscopeError('bad_input', `${file} is not valid JSON with comments (${printParseErrorCode(errors[0]!.error)} at offset ${errors[0]!.offset}); left it untouched`);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ChronoscopeError('bad_input', `${file} does not hold an object; left it untouched`);
  return value as Record<string, unknown>;
}

function isOurs(entry: unknown): boolean {
  return typeof entry === 'object' && entry !== null && Array.isArray((entry as { command?: unknown }).command) && ((entry as { command: unknown[] }).command.includes('mcp'));
}

/** The config with our server in (the text without it, or null for no file). */
export function addOurMcp(text: string | null, file: string, mcp: McpCommand): string {
  const base = text ?? '{\n  "$schema": "https://opencode.ai/config.json"\n}\n';
  const config = parsed(base, file);
  const servers = config['mcp'];
  if (servers !== undefined && (typeof servers !== 'object' || servers === null || Array.isArray(servers))) throw new ChronoscopeError('bad_input', `"mcp" in ${file} is not an object; left it untouched`);
  if (servers !== undefined && (servers as Record<string, unknown>)[NAME] !== undefined) throw new ChronoscopeError('bad_input', `${file} already has an mcp.${NAME} of its own; left it untouched`);
  const entry = { type: 'local', command: [mcp.command, ...mcp.args], enabled: true };
  return applyEdits(base, modify(base, ['mcp', NAME], entry, FORMAT));
}

/** The config without our server; null when it is not there. */
export function removeOurMcp(text: string, file: string): string | null {
  const servers = parsed(text, file)['mcp'];
  if (typeof servers !== 'object' || servers === null || !isOurs((servers as Record<string, unknown>)[NAME])) return null;
  return applyEdits(text, modify(text, ['mcp', NAME], undefined, FORMAT));
}
