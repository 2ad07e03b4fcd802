// Settings live in one file in the store's home (config.json); both the engine
// and the UI read them through this schema, so defaults are stated once.
import { z } from 'zod';

// Zod-free, so a hook's plain settings check can use them without loading the schema.
export { forgetOldDefaults, OLD_RETENTION_DEFAULTS, RETENTION_VERSION } from './retention-version.js';
import { forgetOldDefaults, RETENTION_VERSION } from './retention-version.js';

export const SettingsSchema = z
  .object({
    /** Files larger than this are left out of checkpoints (and the checkpoint says so). */
    max_file_mb: z.number().positive().max(10_000).default(50),
    /** Copy credential files (.env, keys, .npmrc, …) into the store. Off unless the user opts in. */
    include_credentials: z.boolean().default(false),
    /** Extra exclude patterns, in .gitignore syntax: one pattern each, so a line break is refused when set. */
    extra_excludes: z
      .array(
        z
          .string()
          .min(1)
          .max(1000)
          .refine((p) => !/[\r\n\0]/.test(p), { message: 'a pattern must be one line (no line break)' }),
      )
      .max(1000)
      .default([]),
    /**
     * What retention removes (docs/store-health.md). By default nothing
     * younger than 30 days goes, older ones are thinned, and whole removal
     * waits for the store to outgrow its budget. The person's own limits
     * (null: off) apply as set. Every removal goes through the trash.
     */
    retention: z
      .preprocess(
        forgetOldDefaults,
        z.object({
          /** 2: written by a version that knows the thinning policy (see forgetOldDefaults). */
          version: z.literal(RETENTION_VERSION).default(RETENTION_VERSION),
          /** A count limit per workspace (pinned ones count, never go). null: none. */
          max_checkpoints: z.number().int().min(1).max(100_000).nullable().default(null),
          /** An age limit in days. null or 0: none. */
          max_age_days: z.number().min(0).max(36_500).nullable().default(null),
          /** The store's budget. null: the smaller of 10 GB and 10 % of the free disk. */
          max_store_mb: z.number().positive().max(10_000_000).nullable().default(null),
        }),
      )
      .prefault({}),
    watcher: z
      .object({
        /** Quiet period after the last change before an auto-checkpoint. */
        quiet_ms: z.number().int().min(100).max(600_000).default(1500),
        /** Longest wait during continuous churn. */
        max_wait_ms: z.number().int().min(1000).max(3_600_000).default(30_000),
      })
      .prefault({}),
    /** Time budget of an agent hook before it gives up and lets the agent go on. */
    hook_budget_ms: z.number().int().min(100).max(120_000).default(5000),
    /**
     * Hooks start the background service (`chronoscope daemon`) when no app serves the store,
     * so the next tool calls hand it their checkpoints. false: no background process, ever.
     */
    daemon: z.boolean().default(true),
    /** The background service leaves after this many minutes with no hook call. */
    daemon_idle_minutes: z.number().int().min(1).max(1440).default(30),
    /**
     * The store looks after itself: compressed in the background when due (git's own delta
     * compression, at the lowest priority) and checked once a day while an app or the daemon is
     * quiet. false: only `chronoscope upkeep` and `chronoscope check` run by hand do either.
     */
    upkeep: z.boolean().default(true),
    /**
     * Hermes Agent's home, whose /rollback store (checkpoints/store) is shown as a
     * lane of its own. Unset: $HERMES_HOME, else ~/.hermes.
     */
    hermes_home: z.string().min(1).max(4096).optional(),
    /**
     * The command that verifies a checkpoint, per workspace (its real path →
     * a command line for the platform shell, or 'auto'). Set by the person
     * only: never read from the workspace's files nor taken from an agent.
     */
    verifier: z.record(z.string().min(1).max(4096), z.string().trim().min(1).max(10_000)).default({}),
    /**
     * The app pulls teammates' checkpoints (`share pull`) when a workspace that uses sharing opens
     * and then every this many minutes: a teammate's push shows within minutes, at the cost of one
     * `git ls-remote` when nothing is new. 0: only `chronoscope share pull` by hand.
     */
    share_pull_minutes: z.number().int().min(0).max(1440).default(10),
    /** A verifier run is stopped after this long and counts as failed. */
    verify_timeout_s: z.number().int().min(1).max(86_400).default(600),
  })
  .strict();

export type Settings = z.infer<typeof SettingsSchema>;
export const SettingsPatchSchema = SettingsSchema.partial();
export type SettingsPatch = z.input<typeof SettingsPatchSchema>;

export const DEFAULT_SETTINGS: Settings = SettingsSchema.parse({});

/**
 * A patch over settings: top-level keys replace, nested groups (retention,
 * watcher) merge key by key so a patch of one key keeps the others. Not
 * validated: each caller checks the result with SettingsSchema and words its
 * own error.
 */
export function applySettingsPatch(base: Settings, patch: SettingsPatch | Partial<Settings>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch as Record<string, unknown>)) {
    if (value === undefined) continue;
    const before = merged[key];
    merged[key] = isPlainObject(before) && isPlainObject(value) ? { ...before, ...value } : value;
  }
  return merged;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
