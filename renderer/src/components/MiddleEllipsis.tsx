// A name cut in the middle when it does not fit ("memory-ada…pter.ts"), never at
// its end: the extension and the last letters stay, so two long names that
// share a start still differ on screen. Pure CSS: the head shrinks with an
// ellipsis, the tail never does; the whole text is in the tooltip. A file's
// own name is kept whole (`whole`); its folder is what gives way.

/** How many trailing characters always stay: the extension and a few letters before it. */
export function tailLength(name: string): number {
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.length - dot : 0;
  return Math.min(name.length, Math.max(8, ext + 5));
}

/** `whole`: never cut (a file's own name; it wraps instead where it must). */
export function MiddleEllipsis({ text, title, className, whole = false }: { text: string; title?: string; className?: string; whole?: boolean }) {
  const cut = whole ? 0 : text.length - tailLength(text);
  const classes = className ? `mid-ellipsis ${className}` : 'mid-ellipsis';
  if (cut <= 2) {
    return (
      <span className={classes} title={title ?? text}>
        <span className="mid-tail">{text}</span>
      </span>
    );
  }
  return (
    <span className={classes} title={title ?? text}>
      <span className="mid-head">{text.slice(0, cut)}</span>
      <span className="mid-tail">{text.slice(cut)}</span>
    </span>
  );
}
