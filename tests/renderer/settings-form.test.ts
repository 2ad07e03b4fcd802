// The settings dialog validates with limits mirrored from SettingsSchema (so
// the renderer ships without zod); these tests hold the mirror to the schema
// and check the patch carries only what changed.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, SettingsSchema, type Settings } from '../../shared/settings.js';
import {
  changedPatch,
  EXCLUDES_LIMITS,
  fromForm,
  NUMBER_FIELDS,
  parseNumber,
  rangeLabel,
  shown,
  toForm,
  type NumberFieldKey,
} from '../../renderer/src/lib/settings-form.js';

const KEYS = Object.keys(NUMBER_FIELDS) as NumberFieldKey[];

function schemaAccepts(settings: Settings): boolean {
  return SettingsSchema.safeParse(settings).success;
}

describe('the mirrored limits agree with SettingsSchema', () => {
  for (const key of KEYS) {
    const spec = NUMBER_FIELDS[key];
    it(`${key}: default, bounds and just-outside values`, () => {
      expect(spec.get(DEFAULT_SETTINGS), 'default').toBe(spec.fallback);
      const step = spec.integer ? 1 : 0.001;
      const candidates = [spec.min - step, spec.min, spec.min + step, spec.max - step, spec.max, spec.max + step];
      if (spec.integer) candidates.push(spec.min + 0.5);
      for (const stored of candidates) {
        const schemaOk = schemaAccepts(spec.set(DEFAULT_SETTINGS, stored));
        const formOk = 'value' in parseNumber(spec, String(stored / spec.scale));
        // A sub-ms fraction typed in seconds is rounded to whole ms, not refused.
        if (spec.scale !== 1 && !Number.isInteger(stored)) continue;
        expect(formOk, `${key} = ${stored}`).toBe(schemaOk);
      }
    });
  }

  it('excludes: the pattern count and length limits', () => {
    const at = (list: string[]) => schemaAccepts({ ...DEFAULT_SETTINGS, extra_excludes: list });
    expect(at(Array.from({ length: EXCLUDES_LIMITS.maxPatterns }, (_, i) => `p${i}`))).toBe(true);
    expect(at(Array.from({ length: EXCLUDES_LIMITS.maxPatterns + 1 }, (_, i) => `p${i}`))).toBe(false);
    expect(at(['x'.repeat(EXCLUDES_LIMITS.maxLength)])).toBe(true);
    expect(at(['x'.repeat(EXCLUDES_LIMITS.maxLength + 1)])).toBe(false);

    const form = toForm(DEFAULT_SETTINGS);
    expect(fromForm({ ...form, extra_excludes: 'x'.repeat(EXCLUDES_LIMITS.maxLength + 1) }, DEFAULT_SETTINGS).ok).toBe(false);
    const many = Array.from({ length: EXCLUDES_LIMITS.maxPatterns + 1 }, (_, i) => `p${i}`).join('\n');
    expect(fromForm({ ...form, extra_excludes: many }, DEFAULT_SETTINGS).ok).toBe(false);
  });
});

describe('the form', () => {
  it('shows ms as seconds and reads them back to the same settings', () => {
    const form = toForm(DEFAULT_SETTINGS);
    expect(form.quiet_s).toBe('1.5');
    expect(form.max_wait_s).toBe('30');
    expect(form.hook_budget_s).toBe('5');
    const back = fromForm(form, DEFAULT_SETTINGS);
    expect(back).toEqual({ ok: true, settings: DEFAULT_SETTINGS });
  });

  it('refuses empty, non-numeric and out-of-range input, one reason per field', () => {
    const form = { ...toForm(DEFAULT_SETTINGS), quiet_s: '', max_wait_s: 'soon', max_checkpoints: '2.5', max_file_mb: '0', hook_budget_s: '121' };
    const result = fromForm(form, DEFAULT_SETTINGS);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual({
      quiet_s: 'Enter a number.',
      max_wait_s: 'Enter a number.',
      max_checkpoints: 'Enter a whole number.',
      max_file_mb: 'Must be more than 0 MB.',
      hook_budget_s: 'At most 120 s.',
    });
  });

  it('trims exclude lines and drops blank ones (the schema refuses empty patterns)', () => {
    const form = { ...toForm(DEFAULT_SETTINGS), extra_excludes: '  dist/ \n\n*.log\r\n   \n' };
    const result = fromForm(form, DEFAULT_SETTINGS);
    expect(result.ok && result.settings.extra_excludes).toEqual(['dist/', '*.log']);
    expect(result.ok && schemaAccepts(result.settings)).toBe(true);
  });
});

describe('changedPatch', () => {
  it('is empty when nothing changed', () => {
    expect(changedPatch(DEFAULT_SETTINGS, structuredClone(DEFAULT_SETTINGS))).toEqual({});
  });

  it('carries only the changed keys, nested groups included', () => {
    const form = { ...toForm(DEFAULT_SETTINGS), quiet_s: '2.25', max_age_days: '7', include_credentials: true };
    const result = fromForm(form, DEFAULT_SETTINGS);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(changedPatch(DEFAULT_SETTINGS, result.settings)).toEqual({
      include_credentials: true,
      watcher: { quiet_ms: 2250 },
      retention: { max_age_days: 7 },
    });
  });

  it('notices a changed exclude list', () => {
    const after = { ...DEFAULT_SETTINGS, extra_excludes: ['tmp/'] };
    expect(changedPatch(DEFAULT_SETTINGS, after)).toEqual({ extra_excludes: ['tmp/'] });
    expect(changedPatch(after, DEFAULT_SETTINGS)).toEqual({ extra_excludes: [] });
  });
});

describe('retention limits that may be off', () => {
  it('shows an unset limit blank, reads blank back as off, and a typed one as the person’s own', () => {
    const form = toForm(DEFAULT_SETTINGS);
    expect([form.max_checkpoints, form.max_age_days, form.max_store_mb]).toEqual(['', '', '']);
    expect(parseNumber(NUMBER_FIELDS.max_checkpoints, '  ')).toEqual({ value: null });
    expect('error' in parseNumber(NUMBER_FIELDS.quiet_s, '')).toBe(true);
    const set = fromForm({ ...form, max_checkpoints: '500' }, DEFAULT_SETTINGS);
    if (!set.ok) throw new Error('refused');
    expect(changedPatch(DEFAULT_SETTINGS, set.settings)).toEqual({ retention: { max_checkpoints: 500 } });
    expect(SettingsSchema.parse(set.settings).retention.max_checkpoints).toBe(500);
    const cleared = fromForm({ ...toForm(set.settings), max_checkpoints: '' }, set.settings);
    if (!cleared.ok) throw new Error('refused');
    expect(changedPatch(set.settings, cleared.settings)).toEqual({ retention: { max_checkpoints: null } });
  });
});

describe('shown', () => {
  it('has no float noise', () => {
    expect(shown(NUMBER_FIELDS.quiet_s, 100)).toBe('0.1');
    expect(shown(NUMBER_FIELDS.quiet_s, 2300)).toBe('2.3');
    expect(shown(NUMBER_FIELDS.max_store_mb, 10_240)).toBe('10240');
  });
});

describe('rangeLabel', () => {
  it('reads like a person would say it', () => {
    expect(rangeLabel(NUMBER_FIELDS.quiet_s)).toBe('0.1–600 s');
    expect(rangeLabel(NUMBER_FIELDS.max_wait_s)).toBe('1–3,600 s');
    expect(rangeLabel(NUMBER_FIELDS.max_file_mb)).toBe('up to 10,000 MB');
    expect(rangeLabel(NUMBER_FIELDS.max_checkpoints)).toBe('1–100,000');
  });
});
