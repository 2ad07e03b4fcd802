// Settings live in one file in the store's home (config.json); both the engine
// and the UI read them through this schema, so defaults are stated once.
import { z } from 'zod';

export const SettingsSchema = z
  .object({
    /** Files larger than this are left out of checkpoints (and the checkpoint says so). */
    max_file_mb: z.number().positive().max(10_000).default(50),
    /** Copy credential files (.env, keys, .npmrc, …) into the store. Off unless the user opts in. */
    include_credentials: z.boolean().default(false),
    /** Extra exclude patterns, in .gitignore syntax. */
    extra_excludes: z.array(z.string().min(1).max(1000)).max(1000).default([]),
    retention: z
      .object({
        max_checkpoints: z.number().int().min(1).max(100_000).default(500),
        max_age_days: z.number().min(0).max(36_500).default(30),
        max_store_mb: z.number().positive().max(10_000_000).default(10_240),
      })
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
  })
  .strict();

export type Settings = z.infer<typeof SettingsSchema>;
export const SettingsPatchSchema = SettingsSchema.partial();
export type SettingsPatch = z.input<typeof SettingsPatchSchema>;

export const DEFAULT_SETTINGS: Settings = SettingsSchema.parse({});
