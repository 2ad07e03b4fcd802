import type { EffectKind, EffectStatus } from '../../../shared/model.js';

const KIND_LABELS: Record<EffectKind, string> = {
  git_push: 'git push',
  package_publish: 'Package publish',
  pull_request: 'Pull request',
  release: 'Release',
  container_push: 'Container push',
  cluster_change: 'Cluster change',
  infra_change: 'Infrastructure change',
  cloud_change: 'Cloud change',
  http_write: 'HTTP write',
  database_write: 'Database write',
  remote_command: 'Remote command',
};

export function effectKindLabel(kind: EffectKind): string {
  return KIND_LABELS[kind] ?? kind;
}

export function effectStatusLabel(status: EffectStatus): string {
  return status === 'intended' ? 'about to happen' : status === 'nothing_sent' ? 'nothing sent' : status;
}

/** A push that rewrites or deletes the remote's history looks different from a plain push on the timeline. */
export type EffectVariant = 'plain' | 'force' | 'delete';

export function effectVariant(e: { kind: EffectKind; command: string; new_commit?: string | null; target: string }): EffectVariant {
  if (e.kind !== 'git_push') return 'plain';
  const words = e.command.split(/\s+/);
  if ((e.new_commit !== undefined && e.new_commit !== null && /^0+$/.test(e.new_commit)) || words.includes('--delete') || words.includes('-d') || words.some((w, i) => i > 1 && /^:[^:]/.test(w))) {
    return 'delete';
  }
  if (words.some((w) => w === '-f' || w === '--force' || w.startsWith('--force-with-lease') || w === '--force-if-includes' || w === '--mirror' || (w.startsWith('+') && w.length > 1))) return 'force';
  return 'plain';
}

export function effectVariantLabel(v: EffectVariant): string {
  return v === 'force' ? 'force-push' : v === 'delete' ? 'remote branch deleted' : '';
}
