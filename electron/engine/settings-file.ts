// Reads <home>/config.json: missing = defaults; invalid = one clear error naming the file.
import { ChronoscopeError } from '../../shared/errors.js';
import { applySettingsPatch, SettingsSchema, type Settings } from '../../shared/settings.js';
import { readJson } from '../fs/atomic-file.js';
import { UnreadableFile } from '../fs/bounded-read.js';

export async function loadSettings(configFile: string, overrides: Partial<Settings> = {}): Promise<Settings> {
  let raw: unknown;
  try {
    raw = (await readJson(configFile)) ?? {};
  } catch (err) {
    if (err instanceof UnreadableFile) throw new ChronoscopeError('bad_input', `settings file ${err.message}; replace it with a JSON file or remove it`);
    throw new ChronoscopeError('bad_input', `settings file ${configFile} is not valid JSON: ${(err as Error).message.split('\n')[0]}`);
  }
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
