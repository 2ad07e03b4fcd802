// The settings file read without zod (electron/engine/layout/settings-plain.ts) for
// hook processes: wherever it answers it must give exactly what
// SettingsSchema gives, and it must never accept what the schema refuses.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, SettingsSchema } from '../../shared/settings.js';
import { plainDefaults, plainSettings } from '../../electron/engine/layout/settings-plain.js';
import { loadSettings } from '../../electron/engine/layout/settings-file.js';

/** Every candidate: plain answers ⇒ the schema accepts with the same result. */
function agree(raw: unknown): 'plain' | 'zod' {
  const plain = plainSettings(raw);
  const schema = SettingsSchema.safeParse(raw);
  if (plain === null) return 'zod';
  expect(schema.success, `plain accepted what the schema refuses: ${JSON.stringify(raw)}`).toBe(true);
  if (schema.success) expect(plain).toEqual(schema.data);
  return 'plain';
}

const NUMBERS: Record<string, { min: number; max: number; int: boolean; above: boolean }> = {
  max_file_mb: { min: 0, max: 10_000, int: false, above: true },
  hook_budget_ms: { min: 100, max: 120_000, int: true, above: false },
  verify_timeout_s: { min: 1, max: 86_400, int: true, above: false },
  daemon_idle_minutes: { min: 1, max: 1440, int: true, above: false },
  'retention.max_checkpoints': { min: 1, max: 100_000, int: true, above: false },
  'retention.max_age_days': { min: 0, max: 36_500, int: false, above: false },
  'retention.max_store_mb': { min: 0, max: 10_000_000, int: false, above: true },
  'watcher.quiet_ms': { min: 100, max: 600_000, int: true, above: false },
  'watcher.max_wait_ms': { min: 1000, max: 3_600_000, int: true, above: false },
};

function at(path: string, value: unknown): Record<string, unknown> {
  const [group, key] = path.split('.');
  return key === undefined ? { [path]: value } : { [group ?? '']: { [key]: value } };
}

describe('settings without zod', () => {
  it('has the schema defaults', () => {
    expect(plainDefaults()).toEqual(DEFAULT_SETTINGS);
    expect(agree({})).toBe('plain');
  });

  it('agrees with the schema on every limit, just inside and just outside', () => {
    for (const [path, spec] of Object.entries(NUMBERS)) {
      const step = spec.int ? 1 : 0.001;
      const inside = [spec.above ? spec.min + step : spec.min, spec.max, (spec.min + spec.max) / 2 + (spec.int ? 0.5 : 0)];
      for (const v of [...inside, spec.min - step, spec.max + step, spec.above ? spec.min : spec.min - 1, '5', null, true, [], {}]) agree(at(path, v));
      // The plain check answers for the valid numbers (else the hook would load zod after all).
      expect(agree(at(path, spec.max)), path).toBe('plain');
    }
  });

  it('agrees on strings, lists, records and unknown keys', () => {
    const cases: unknown[] = [
      { extra_excludes: ['dist/', '*.log'] },
      { extra_excludes: ['a\nb'] },
      { extra_excludes: [''] },
      { extra_excludes: ['x'.repeat(1001)] },
      { extra_excludes: Array.from({ length: 1001 }, (_, i) => `p${i}`) },
      { extra_excludes: 'dist/' },
      { include_credentials: true },
      { include_credentials: 'yes' },
      { hermes_home: '/h' },
      { hermes_home: '' },
      { verifier: { '/w': 'npm test' } },
      { verifier: { '/w': '  npm test ' } },
      { verifier: { '/w': '' } },
      { verifier: { '': 'x' } },
      { verifier: [] },
      { retention: {} },
      { retention: { max_checkpoints: 10, extra: 1 } },
      // Old defaults written out by an earlier Settings dialog mean "unset"; with `version` they are the person's.
      { retention: { max_checkpoints: 500, max_age_days: 30, max_store_mb: 10_240 } },
      { retention: { version: 2, max_checkpoints: 500, max_age_days: 30, max_store_mb: 10_240 } },
      { retention: { version: 1 } },
      { retention: { max_checkpoints: null, max_age_days: null, max_store_mb: null } },
      { retention: null },
      { watcher: null },
      { unknown: 1 },
      JSON.parse('{"__proto__": {"max_file_mb": 1}}'),
      [],
      null,
      'x',
    ];
    const answered = cases.map(agree);
    expect(answered.filter((a) => a === 'plain').length).toBe(8);
  });

  it('loadSettings words the schema\'s error for a file the plain check leaves to it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chronoscope-settings-'));
    try {
      const file = join(dir, 'config.json');
      writeFileSync(file, JSON.stringify({ hook_budget_ms: 5 }));
      await expect(loadSettings(file)).rejects.toThrow(/settings file .* is invalid: hook_budget_ms: /);
      writeFileSync(file, JSON.stringify({ watcher: { quiet_ms: 200 } }));
      expect((await loadSettings(file)).watcher).toEqual({ quiet_ms: 200, max_wait_ms: 30_000 });
      expect((await loadSettings(file, { hook_budget_ms: 1000 })).hook_budget_ms).toBe(1000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
