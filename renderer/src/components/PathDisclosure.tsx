// A short, collapsible list of paths under a one-line summary: a few shown,
// the rest behind "+N more". Native <details>, so keyboard and screen readers
// get the open/closed state for free.
import { useState, type ReactNode } from 'react';

export interface PathEntry {
  path: string;
  /** Shown after the path, e.g. why it was left out. */
  note?: string;
  /** Machine-readable tag for the row (tests and styling). */
  tag?: string;
}

const SHOWN = 5;

export function PathDisclosure({
  summary,
  entries,
  testId,
  hint,
  defaultOpen = true,
}: {
  summary: ReactNode;
  entries: PathEntry[];
  testId: string;
  hint?: string;
  defaultOpen?: boolean;
}) {
  const [all, setAll] = useState(false);
  const shown = all ? entries : entries.slice(0, SHOWN);
  return (
    <details className="path-disclosure" data-testid={testId} open={defaultOpen}>
      <summary title={hint}>
        {summary} <span className="count">{entries.length}</span>
      </summary>
      <ul>
        {shown.map((e) => (
          <li key={e.path} data-testid={`${testId}-item`} data-path={e.path} data-tag={e.tag}>
            <span className="mono path-disclosure-path">{e.path}</span>
            {e.note && <span className="path-disclosure-note">{e.note}</span>}
          </li>
        ))}
      </ul>
      {entries.length > shown.length && (
        <button type="button" className="link-button small" onClick={() => setAll(true)}>
          +{entries.length - shown.length} more
        </button>
      )}
    </details>
  );
}
