// The retention group's format version and the old defaults it forgets:
// kept apart from the zod schema (shared/settings.ts) so the hook's plain
// settings check (engine/layout/settings-plain.ts) loads no zod.

export const RETENTION_VERSION = 2;

/**
 * The limits earlier versions applied by default (500 checkpoints, 30 days,
 * 10,240 MB). Their Settings dialog wrote every group out whole, so a
 * config.json may hold them though nobody chose them: in a retention group
 * without `version`, a value equal to its old default means "unset" (else an
 * old written-out 500 would go on deleting). Groups written now carry
 * `version`, so a person who sets 500 today keeps it.
 */
export const OLD_RETENTION_DEFAULTS = { max_checkpoints: 500, max_age_days: 30, max_store_mb: 10_240 } as const;

export function forgetOldDefaults(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || 'version' in raw) return raw;
  const out: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  for (const [key, old] of Object.entries(OLD_RETENTION_DEFAULTS)) if (out[key] === old) delete out[key];
  return out;
}
