// The settings dialog's form logic, free of React: Settings ⇄ the strings in the
// form (times shown in seconds, stored in ms), validation, and the patch of only
// what changed.
//
// The limits and defaults below mirror SettingsSchema (shared/settings.ts).
// Importing the schema here would pull zod into the renderer's main chunk
// (measured: +85 KB minified, +24 KB gzip, about +29%) for nine fields;
// tests/renderer/settings-form.test.ts checks every limit and default against
// the schema, so the two cannot drift apart unnoticed.
import type { Settings, SettingsPatch } from '../../../shared/settings.js';

export type NumberFieldKey =
  | 'quiet_s'
  | 'max_wait_s'
  | 'max_file_mb'
  | 'max_checkpoints'
  | 'max_age_days'
  | 'max_store_mb'
  | 'hook_budget_s'
  | 'daemon_idle_min'
  | 'verify_timeout_s'
  | 'share_pull_min';

export interface SettingsForm extends Record<NumberFieldKey, string> {
  include_credentials: boolean;
  /** Hooks start the background service when no app serves the store. */
  daemon: boolean;
  /** One .gitignore pattern per line. */
  extra_excludes: string;
}

export type FieldKey = NumberFieldKey | 'extra_excludes';
export type FormErrors = Partial<Record<FieldKey, string>>;

export interface NumberSpec {
  /** Stored value, in the schema's unit; null: the limit is off (only where `optional`). */
  get(s: Settings): number | null;
  set(s: Settings, value: number | null): Settings;
  /** The schema allows null: a blank field turns the limit off (retention's limits). */
  optional?: boolean;
  /** Stored units per shown unit: 1000 for ms shown as seconds. */
  scale: number;
  unit: string;
  /** In stored units, as the schema states them. */
  min: number;
  max: number;
  /** z.number().positive(): the minimum itself is refused. */
  minExclusive: boolean;
  /** z.number().int() on the stored value. */
  integer: boolean;
  /** The schema's default, in stored units (shown as a hint); null: off. */
  fallback: number | null;
}

export const NUMBER_FIELDS: Record<NumberFieldKey, NumberSpec> = {
  quiet_s: {
    get: (s) => s.watcher.quiet_ms,
    set: (s, v) => ({ ...s, watcher: { ...s.watcher, quiet_ms: v ?? s.watcher.quiet_ms } }),
    scale: 1000,
    unit: 's',
    min: 100,
    max: 600_000,
    minExclusive: false,
    integer: true,
    fallback: 1500,
  },
  max_wait_s: {
    get: (s) => s.watcher.max_wait_ms,
    set: (s, v) => ({ ...s, watcher: { ...s.watcher, max_wait_ms: v ?? s.watcher.max_wait_ms } }),
    scale: 1000,
    unit: 's',
    min: 1000,
    max: 3_600_000,
    minExclusive: false,
    integer: true,
    fallback: 30_000,
  },
  max_file_mb: {
    get: (s) => s.max_file_mb,
    set: (s, v) => ({ ...s, max_file_mb: v ?? s.max_file_mb }),
    scale: 1,
    unit: 'MB',
    min: 0,
    max: 10_000,
    minExclusive: true,
    integer: false,
    fallback: 50,
  },
  max_checkpoints: {
    get: (s) => s.retention.max_checkpoints,
    set: (s, v) => ({ ...s, retention: { ...s.retention, max_checkpoints: v } }),
    scale: 1,
    unit: '',
    min: 1,
    max: 100_000,
    minExclusive: false,
    integer: true,
    fallback: null,
    optional: true,
  },
  max_age_days: {
    get: (s) => s.retention.max_age_days,
    set: (s, v) => ({ ...s, retention: { ...s.retention, max_age_days: v } }),
    scale: 1,
    unit: 'days',
    min: 0,
    max: 36_500,
    minExclusive: false,
    integer: false,
    fallback: null,
    optional: true,
  },
  max_store_mb: {
    get: (s) => s.retention.max_store_mb,
    set: (s, v) => ({ ...s, retention: { ...s.retention, max_store_mb: v } }),
    scale: 1,
    unit: 'MB',
    min: 0,
    max: 10_000_000,
    minExclusive: true,
    integer: false,
    fallback: null,
    optional: true,
  },
  hook_budget_s: {
    get: (s) => s.hook_budget_ms,
    set: (s, v) => ({ ...s, hook_budget_ms: v ?? s.hook_budget_ms }),
    scale: 1000,
    unit: 's',
    min: 100,
    max: 120_000,
    minExclusive: false,
    integer: true,
    fallback: 5000,
  },
  daemon_idle_min: {
    get: (s) => s.daemon_idle_minutes,
    set: (s, v) => ({ ...s, daemon_idle_minutes: v ?? s.daemon_idle_minutes }),
    scale: 1,
    unit: 'min',
    min: 1,
    max: 1440,
    minExclusive: false,
    integer: true,
    fallback: 30,
  },
  verify_timeout_s: {
    get: (s) => s.verify_timeout_s,
    set: (s, v) => ({ ...s, verify_timeout_s: v ?? s.verify_timeout_s }),
    scale: 1,
    unit: 's',
    min: 1,
    max: 86_400,
    minExclusive: false,
    integer: true,
    fallback: 600,
  },
  share_pull_min: {
    get: (s) => s.share_pull_minutes,
    set: (s, v) => ({ ...s, share_pull_minutes: v ?? s.share_pull_minutes }),
    scale: 1,
    unit: 'min',
    min: 0,
    max: 1440,
    minExclusive: false,
    integer: true,
    fallback: 10,
  },
};

export const EXCLUDES_LIMITS = { maxPatterns: 1000, maxLength: 1000 } as const;

const NUMBER_KEYS = Object.keys(NUMBER_FIELDS) as NumberFieldKey[];

/** A stored value as the form shows it: ms as seconds, no float noise (1500 → "1.5"). */
export function shown(spec: NumberSpec, stored: number): string {
  return String(Number((stored / spec.scale).toPrecision(12)));
}

export function toForm(s: Settings): SettingsForm {
  const numbers = Object.fromEntries(
    NUMBER_KEYS.map((k) => {
      const stored = NUMBER_FIELDS[k].get(s);
      return [k, stored === null ? '' : shown(NUMBER_FIELDS[k], stored)];
    }),
  );
  return {
    ...(numbers as Record<NumberFieldKey, string>),
    include_credentials: s.include_credentials,
    daemon: s.daemon,
    extra_excludes: s.extra_excludes.join('\n'),
  };
}

/** The range as a person reads it, e.g. "0.1–600 s" or "up to 10,000 MB". */
export function rangeLabel(spec: NumberSpec): string {
  const unit = spec.unit ? ` ${spec.unit}` : '';
  const high = readable(spec.max / spec.scale);
  // "more than 0" goes without saying for a size.
  if (spec.minExclusive && spec.min === 0) return `up to ${high}${unit}`;
  const low = readable(spec.min / spec.scale);
  return spec.minExclusive ? `more than ${low}, up to ${high}${unit}` : `${low}–${high}${unit}`;
}

/** With thousands separators, for hints (never for the inputs, which must parse back). */
export function readable(value: number): string {
  return value.toLocaleString('en-US', { maximumFractionDigits: 3 });
}

/** The stored value for a typed one, or the one-line reason it is refused. */
export function parseNumber(spec: NumberSpec, text: string): { value: number | null } | { error: string } {
  const trimmed = text.trim();
  if (spec.optional && trimmed === '') return { value: null };
  const typed = trimmed === '' ? Number.NaN : Number(trimmed);
  if (!Number.isFinite(typed)) return { error: 'Enter a number.' };
  // Whole ms are what the schema stores; a finer fraction of a second means nothing to a timer.
  const value = spec.scale === 1 ? typed : Math.round(typed * spec.scale);
  const unit = spec.unit ? ` ${spec.unit}` : '';
  if (spec.integer && !Number.isInteger(value)) return { error: 'Enter a whole number.' };
  if (spec.minExclusive ? value <= spec.min : value < spec.min) {
    return { error: spec.minExclusive ? `Must be more than ${shown(spec, spec.min)}${unit}.` : `At least ${shown(spec, spec.min)}${unit}.` };
  }
  if (value > spec.max) return { error: `At most ${shown(spec, spec.max)}${unit}.` };
  return { value };
}

/** Non-blank lines, trimmed: blank lines would be empty patterns, which the schema refuses. */
export function parseExcludes(text: string): { value: string[] } | { error: string } {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  if (lines.length > EXCLUDES_LIMITS.maxPatterns) return { error: `At most ${EXCLUDES_LIMITS.maxPatterns} patterns.` };
  const long = lines.findIndex((l) => l.length > EXCLUDES_LIMITS.maxLength);
  if (long >= 0) return { error: `Pattern ${long + 1} is longer than ${EXCLUDES_LIMITS.maxLength} characters.` };
  return { value: lines };
}

export type FormResult = { ok: true; settings: Settings } | { ok: false; errors: FormErrors };

/** The form read back onto the current settings: all of it valid, or every field's reason. */
export function fromForm(form: SettingsForm, current: Settings): FormResult {
  const errors: FormErrors = {};
  let next: Settings = { ...current, include_credentials: form.include_credentials, daemon: form.daemon };
  for (const key of NUMBER_KEYS) {
    const spec = NUMBER_FIELDS[key];
    const parsed = parseNumber(spec, form[key]);
    if ('error' in parsed) errors[key] = parsed.error;
    else next = spec.set(next, parsed.value);
  }
  const excludes = parseExcludes(form.extra_excludes);
  if ('error' in excludes) errors.extra_excludes = excludes.error;
  else next = { ...next, extra_excludes: excludes.value };
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, settings: next };
}

/** Only what changed; nested groups carry only their changed keys (the host merges key by key). */
export function changedPatch(before: Settings, after: Settings): SettingsPatch {
  const patch: SettingsPatch = {};
  if (before.max_file_mb !== after.max_file_mb) patch.max_file_mb = after.max_file_mb;
  if (before.include_credentials !== after.include_credentials) patch.include_credentials = after.include_credentials;
  if (!sameList(before.extra_excludes, after.extra_excludes)) patch.extra_excludes = after.extra_excludes;
  if (before.hook_budget_ms !== after.hook_budget_ms) patch.hook_budget_ms = after.hook_budget_ms;
  if (before.daemon !== after.daemon) patch.daemon = after.daemon;
  if (before.verify_timeout_s !== after.verify_timeout_s) patch.verify_timeout_s = after.verify_timeout_s;
  if (before.daemon_idle_minutes !== after.daemon_idle_minutes) patch.daemon_idle_minutes = after.daemon_idle_minutes;
  if (before.share_pull_minutes !== after.share_pull_minutes) patch.share_pull_minutes = after.share_pull_minutes;
  const retention = changedKeys(before.retention, after.retention);
  if (retention) patch.retention = retention;
  const watcher = changedKeys(before.watcher, after.watcher);
  if (watcher) patch.watcher = watcher;
  return patch;
}

function changedKeys<T extends object>(before: T, after: T): Partial<T> | null {
  const out: Partial<T> = {};
  let any = false;
  for (const key of Object.keys(after) as (keyof T)[]) {
    if (before[key] !== after[key]) {
      out[key] = after[key];
      any = true;
    }
  }
  return any ? out : null;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}
