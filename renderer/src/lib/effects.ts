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
  return status === 'intended' ? 'about to happen' : status;
}
