// A name for each editor's text area, for screen readers (and axe's "label"
// rule): Monaco sets the area's aria-label from localized strings this bundle
// does not carry, so it ends up empty whatever `ariaLabel` says. The name is
// given by aria-labelledby instead (which wins over an empty aria-label and
// which Monaco never touches), pointing at a visually hidden caption.
import { useId } from 'react';

interface WithDom {
  getDomNode(): HTMLElement | null;
}

export function labelTextArea(editor: WithDom, labelId: string): void {
  for (const area of editor.getDomNode()?.querySelectorAll('textarea') ?? []) area.setAttribute('aria-labelledby', labelId);
}

/** Ids for the captions an editor's text areas point at. */
export function useLabelIds<K extends string>(keys: readonly K[]): Record<K, string> {
  const base = useId();
  return Object.fromEntries(keys.map((k) => [k, `${base}-${k}`])) as Record<K, string>;
}
