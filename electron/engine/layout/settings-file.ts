// Reads <home>/config.json: missing = defaults; empty (0 bytes or only
// whitespace: a `touch`, an editor's truncated save) = defaults with a one-line
// warning, since every setting is optional; invalid = one clear error naming the file.
// A file that is certainly valid is taken without zod (settings-plain.ts): an
// agent's hook opens the store in a process of its own for every tool call,
// and loading the schema would cost it as much as starting Node.
import fs from 'node:fs/promises';
import { ChronoscopeError } from '../../../shared/errors.js';
import type { Settings } from '../../../shared/settings.js';
import { readJson } from '../../fs/atomic-file.js';
import { UnreadableFile } from '../../fs/bounded-read.js';
import { plainSettings } from './settings-plain.js';

export async function loadSettings(configFile: string, overrides: Partial<Settings> = {}): Promise<Settings> {
  let raw: unknown;
  try {
    raw = (await readJson(configFile)) ?? {};
  } catch (err) {
    if (err instanceof UnreadableFile) throw new ChronoscopeError('bad_input', `settings file ${err.message}; replace it with a JSON file or remove it`);
    if (err instanceof SyntaxError && (await isBlank(configFile))) {
      warnEmpty(configFile);
      raw = {};
    } else throw new ChronoscopeError('bad_input', `settings file ${configFile} is not valid JSON: ${(err as Error).message.split('\n')[0]}`);
  }
  if (Object.keys(overrides).length === 0) {
    const plain = plainSettings(raw);
    if (plain !== null) return plain;
  }
  const { applySettingsPatch, SettingsSchema } = await import('../../../shared/settings.js');
  const fromFile = SettingsSchema.safeParse(raw);
  if (!fromFile.success) {
    const issue = fromFile.error.issues[0];
    throw new ChronoscopeError('bad_input', `settings file ${configFile} is invalid: ${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'unknown problem'}`);
  }
  const checked = SettingsSchema.safeParse(applySettingsPatch(fromFile.data, overrides));
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new ChronoscopeError('bad_input', `settings are invalid: ${issue ? `${issue.path.join('.')}: ${issue.message}` : 'unknown problem'}`);
  }
  return checked.data;
}

async function isBlank(file: string): Promise<boolean> {
  return fs.readFile(file, 'utf8').then((text) => text.trim() === '', () => false);
}

const warned = new Set<string>();

/** Once per file and process: a service that reloads its settings does not repeat it. */
function warnEmpty(file: string): void {
  if (warned.has(file)) return;
  warned.add(file);
  process.stderr.write(`chronoscope: warning: settings file ${file} is empty; using the defaults (remove it, or write {} to keep it)\n`);
}
