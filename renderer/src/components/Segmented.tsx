// A segmented control that behaves as a radio group: one tab stop, arrow keys
// move the choice, clicking the option already chosen does nothing.
import { useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface SegmentOption<T extends string> {
  value: T;
  label: ReactNode;
  /** Read by screen readers and shown as a tooltip when the label is an icon or short. */
  title?: string;
}

export function Segmented<T extends string>({
  value,
  options,
  onChange,
  label,
  testId,
}: {
  value: T;
  options: SegmentOption<T>[];
  onChange: (value: T) => void;
  label: string;
  testId: string;
}) {
  const group = useRef<HTMLDivElement>(null);
  const choose = (next: T) => {
    if (next !== value) onChange(next);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.key === 'ArrowRight' || e.key === 'ArrowDown' ? 1 : e.key === 'ArrowLeft' || e.key === 'ArrowUp' ? -1 : 0;
    const edge = e.key === 'Home' ? 0 : e.key === 'End' ? options.length - 1 : -1;
    if (!step && edge < 0) return;
    e.preventDefault();
    e.stopPropagation();
    const i = options.findIndex((o) => o.value === value);
    const next = options[edge >= 0 ? edge : (i + step + options.length) % options.length];
    if (!next) return;
    choose(next.value);
    group.current?.querySelector<HTMLElement>(`[data-value="${CSS.escape(next.value)}"]`)?.focus();
  };
  return (
    <div ref={group} role="radiogroup" aria-label={label} className="segmented" data-testid={testId} data-value={value} onKeyDown={onKeyDown}>
      {options.map((o) => {
        const checked = o.value === value;
        return (
          <button
            key={o.value}
            type="button"
            role="radio"
            aria-checked={checked}
            tabIndex={checked ? 0 : -1}
            className={checked ? 'segment active' : 'segment'}
            data-value={o.value}
            title={o.title}
            onClick={() => choose(o.value)}
          >
            {o.label}
          </button>
        );
      })}
    </div>
  );
}
