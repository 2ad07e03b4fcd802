// The diff's font, shared by Monaco's options (monaco/view-options.ts) and the
// column width the side-by-side rule measures (side-by-side.ts).
export const DIFF_FONT = {
  size: 12.5,
  lineHeight: 19,
  family: 'ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace',
} as const;
