// Runtime lists of the model's effect unions, so records read back from disk
// can be checked. `satisfies` keeps them in step with shared/model.ts.
import type { EffectKind, EffectSource, EffectStatus } from '../../shared/model.js';

type Exhaustive<T extends string, L extends readonly T[]> = [T] extends [L[number]] ? L : never;

const kinds = [
  'git_push',
  'package_publish',
  'pull_request',
  'release',
  'container_push',
  'cluster_change',
  'infra_change',
  'cloud_change',
  'http_write',
  'database_write',
  'remote_command',
] as const satisfies readonly EffectKind[];
export const EFFECT_KINDS: Exhaustive<EffectKind, typeof kinds> = kinds;

const sources = ['hook', 'reflog'] as const satisfies readonly EffectSource[];
export const EFFECT_SOURCES: Exhaustive<EffectSource, typeof sources> = sources;

const statuses = ['intended', 'happened', 'failed', 'denied', 'nothing_sent'] as const satisfies readonly EffectStatus[];
export const EFFECT_STATUSES: Exhaustive<EffectStatus, typeof statuses> = statuses;
