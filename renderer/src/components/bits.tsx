// Small presentational pieces shared by the panes.
import { useState } from 'react';
import type { Trigger } from '../../../shared/model.js';
import { copyText } from '../lib/clipboard.js';
import { useToasts } from '../state/toasts.js';
import { Icon } from './Icon.js';

const TRIGGER_LABELS: Record<Trigger, string> = {
  manual: 'manual',
  auto: 'auto',
  hook: 'agent',
  safety: 'safety',
  restore: 'restore',
  baseline: 'baseline',
};

const TRIGGER_TITLES: Record<Trigger, string> = {
  manual: 'Taken on request (button or `chronoscope snapshot`)',
  auto: 'Taken by the watcher after files changed',
  hook: 'Taken by an agent hook before a tool ran',
  safety: 'Taken just before a restore — restoring it undoes that restore',
  restore: 'Records the state a restore produced',
  baseline: 'The workspace as Chronoscope first saw it, before any recorded change',
};

export function TriggerBadge({ trigger }: { trigger: Trigger }) {
  return (
    <span className={`badge badge-${trigger}`} title={TRIGGER_TITLES[trigger]}>
      {TRIGGER_LABELS[trigger] ?? trigger}
    </span>
  );
}

export function LineStats({ insertions, deletions }: { insertions: number | null; deletions: number | null }) {
  if (insertions === null || deletions === null) return <span className="stats stats-binary">binary</span>;
  return (
    <span className="stats" aria-label={`${insertions} lines added, ${deletions} removed`}>
      <span className="stat-add">+{insertions}</span>
      <span className="stat-del">−{deletions}</span>
    </span>
  );
}

export function CopyButton({ text, label = 'Copy command' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="icon-button"
      aria-label={label}
      title={copied ? 'Copied' : label}
      onClick={async () => {
        const ok = await copyText(text);
        if (ok) {
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
        } else {
          useToasts.getState().push({ tone: 'info', title: 'Could not copy — select the command and copy it by hand' });
        }
      }}
    >
      <Icon name={copied ? 'check' : 'copy'} size={14} />
    </button>
  );
}

export function Skeleton({ lines = 3 }: { lines?: number }) {
  return (
    <div className="skeleton" aria-busy="true" aria-label="Loading">
      {Array.from({ length: lines }, (_, i) => (
        <div key={i} className="skeleton-line" style={{ width: `${88 - ((i * 23) % 40)}%` }} />
      ))}
    </div>
  );
}

export function InlineError({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div className="inline-error" role="alert">
      <Icon name="alert" size={14} />
      <span>{message}</span>
      {onRetry && (
        <button type="button" className="link-button" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}
