// Settings changes from the UI: merged into <store home>/config.json (the file
// the engine reads at openStore), validated with the shared schema.
import { storeLayout } from '../engine/layout/paths.js';
import { ChronoscopeError } from '../../shared/errors.js';
import { applySettingsPatch, SettingsPatchSchema, SettingsSchema, type Settings, type SettingsPatch } from '../../shared/settings.js';
import { readJson } from '../fs/atomic-file.js';
import { writeContained } from '../fs/contained-write.js';

/** Nested objects (retention, watcher) are merged key by key, so a patch of one key keeps the others. */
export function mergeSettings(current: Settings, patch: SettingsPatch): Settings {
  const checked = SettingsPatchSchema.safeParse(patch);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new ChronoscopeError('bad_input', `settings: ${issue ? `${issue.path.join('.') || 'patch'}: ${issue.message}` : 'invalid'}`);
  }
  return SettingsSchema.parse(applySettingsPatch(current, patch));
}

export async function writeSettings(storeHome: string, patch: SettingsPatch, current: Settings): Promise<Settings> {
  const file = storeLayout(storeHome).configFile;
  // Start from what is on disk (the CLI may have changed it), then the patch.
  let base = current;
  try {
    const onDisk = SettingsSchema.safeParse((await readJson(file)) ?? {});
    if (onDisk.success) base = onDisk.data;
  } catch {
    // unreadable file: the in-memory settings are the best base we have
  }
  const next = mergeSettings(base, patch);
  // Through the guarded write: a config.json that is a link out of the store is refused, not followed.
  await writeContained({ dir: storeHome, label: 'the store' }, file, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600, dirMode: 0o700 });
  return next;
}
