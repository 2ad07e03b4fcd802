// The settings file checked without zod, for paths that start a whole process
// per call (an agent's hook working alone): importing zod costs about as much
// as starting Node. It only ever says "certainly valid, and this is what the
// schema would make of it", or null — and on null the caller asks
// SettingsSchema (shared/settings.ts), which also words any error. So it may
// be stricter than the schema (an unknown key in a group, an untrimmed
// verifier command: left to zod), never looser.
//
// The limits and defaults mirror SettingsSchema, as renderer/src/lib/settings-form.ts
// does; tests/engine/settings-plain.test.ts checks them against the schema.
import { forgetOldDefaults, RETENTION_VERSION } from '../../../shared/retention-version.js';
import type { Settings } from '../../../shared/settings.js';

type Check = (v: unknown) => boolean;

const num = (min: number, max: number, { int = false, above = false } = {}): Check => (v) =>
  typeof v === 'number' && Number.isFinite(v) && (above ? v > min : v >= min) && v <= max && (!int || Number.isSafeInteger(v));
const str = (min: number, max: number): Check => (v) => typeof v === 'string' && v.length >= min && v.length <= max;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const RETENTION: Record<Exclude<keyof Settings['retention'], 'version'>, Check> = {
  max_checkpoints: num(1, 100_000, { int: true }),
  max_age_days: num(0, 36_500),
  max_store_mb: num(0, 10_000_000, { above: true }),
};

const WATCHER: Record<keyof Settings['watcher'], [Check, number]> = {
  quiet_ms: [num(100, 600_000, { int: true }), 1500],
  max_wait_ms: [num(1000, 3_600_000, { int: true }), 30_000],
};

const pattern: Check = (v) => str(1, 1000)(v) && !/[\r\n\0]/.test(v as string);
const command: Check = (v) => str(1, 10_000)(v) && (v as string).trim() === v;

/** The defaults SettingsSchema gives an empty file (the mirrored copy; the test keeps it equal). */
export function plainDefaults(): Settings {
  return {
    max_file_mb: 50,
    include_credentials: false,
    extra_excludes: [],
    retention: { version: RETENTION_VERSION, max_checkpoints: null, max_age_days: null, max_store_mb: null },
    watcher: { quiet_ms: 1500, max_wait_ms: 30_000 },
    hook_budget_ms: 5000,
    daemon: true,
    daemon_idle_minutes: 30,
    upkeep: true,
    verifier: {},
    verify_timeout_s: 600,
    share_pull_minutes: 10,
  };
}

function group<K extends string>(raw: unknown, spec: Record<K, [Check, number]>): Record<K, number> | null {
  if (raw === undefined) raw = {};
  if (!isObject(raw)) return null;
  const out = {} as Record<K, number>;
  for (const key of Object.keys(raw)) if (!Object.hasOwn(spec, key)) return null;
  for (const key of Object.keys(spec) as K[]) {
    const [check, fallback] = spec[key];
    const v = raw[key];
    if (v === undefined) out[key] = fallback;
    else if (check(v)) out[key] = v as number;
    else return null;
  }
  return out;
}

/** The retention group: each limit a number or null (off), old written-out defaults forgotten (shared/settings.ts). */
function retentionGroup(raw: unknown): Settings['retention'] | null {
  raw = forgetOldDefaults(raw === undefined ? {} : raw);
  if (!isObject(raw)) return null;
  const out: Settings['retention'] = { version: RETENTION_VERSION, max_checkpoints: null, max_age_days: null, max_store_mb: null };
  for (const [key, v] of Object.entries(raw)) {
    if (v === undefined) continue;
    if (key === 'version') {
      if (v !== RETENTION_VERSION) return null;
    } else if (Object.hasOwn(RETENTION, key)) {
      const k = key as keyof typeof RETENTION;
      if (v !== null && !RETENTION[k](v)) return null;
      out[k] = v as number | null;
    } else return null;
  }
  return out;
}

/** What SettingsSchema.parse(raw) gives, when raw is certainly valid; null when zod must decide. */
export function plainSettings(raw: unknown): Settings | null {
  if (!isObject(raw)) return null;
  const out = plainDefaults();
  for (const [key, v] of Object.entries(raw)) {
    if (v === undefined) continue;
    switch (key) {
      case 'max_file_mb':
        if (!num(0, 10_000, { above: true })(v)) return null;
        out.max_file_mb = v as number;
        break;
      case 'include_credentials':
        if (typeof v !== 'boolean') return null;
        out.include_credentials = v;
        break;
      case 'extra_excludes':
        if (!Array.isArray(v) || v.length > 1000 || !v.every(pattern)) return null;
        out.extra_excludes = [...(v as string[])];
        break;
      case 'retention': {
        const r = retentionGroup(v);
        if (r === null) return null;
        out.retention = r;
        break;
      }
      case 'watcher': {
        const w = group(v, WATCHER);
        if (w === null) return null;
        out.watcher = w;
        break;
      }
      case 'hook_budget_ms':
        if (!num(100, 120_000, { int: true })(v)) return null;
        out.hook_budget_ms = v as number;
        break;
      case 'daemon':
        if (typeof v !== 'boolean') return null;
        out.daemon = v;
        break;
      case 'upkeep':
        if (typeof v !== 'boolean') return null;
        out.upkeep = v;
        break;
      case 'daemon_idle_minutes':
        if (!num(1, 1440, { int: true })(v)) return null;
        out.daemon_idle_minutes = v as number;
        break;
      case 'hermes_home':
        if (!str(1, 4096)(v)) return null;
        out.hermes_home = v as string;
        break;
      case 'verifier': {
        if (!isObject(v)) return null;
        const entries = Object.entries(v);
        if (!entries.every(([k, c]) => str(1, 4096)(k) && command(c))) return null;
        out.verifier = Object.fromEntries(entries) as Record<string, string>;
        break;
      }
      case 'verify_timeout_s':
        if (!num(1, 86_400, { int: true })(v)) return null;
        out.verify_timeout_s = v as number;
        break;
      case 'share_pull_minutes':
        if (!num(0, 1440, { int: true })(v)) return null;
        out.share_pull_minutes = v as number;
        break;
      default:
        return null; // the schema is strict: an unknown key is an error zod words
    }
  }
  return out;
}
