// Medians, the result rows and the human table.
export const CASES = [
  'first',
  'noop',
  'edit10_scan',
  'edit10_paths',
  'watch10',
  'list1000',
  'diff',
  'restore10',
  'restore_all',
  // The agent hook as a whole process against a bare `node -e ''` start (see hook-case.ts).
  'hook_pre_edit',
  'hook_pre_edit_delegated',
  // No app: the background service the hooks start themselves, warm (see hook-case.ts).
  'hook_pre_edit_auto',
  // The same warm service, the call's end: PostToolUse after an Edit, the checkpoint of what it changed.
  'hook_post_edit_auto',
  // The same warm service, called by the other agents' hooks with their own payloads (see hook-case.ts).
  'hook_auto_codex',
  'hook_auto_gemini',
  'hook_auto_copilot',
  'hook_auto_opencode',
  // A prompt after a person's edit, the hook alone, against the hook before an Edit, alone (see hook-case.ts).
  'hook_prompt',
  // The call that finds no service (works alone, starts one) against the hook alone with auto-start off.
  'hook_first_call',
  // Opt-in (--hook-100k): the delegated hook against the hook alone, on 100,000 files.
  'hook_delegated_100k',
  // Opt-in (--hook-100k): the hook with the auto-started service warm against a bare node start, on 100,000 files.
  'hook_auto_100k',
  // `chronoscope check` of 1,000 checkpoints against git fsck --full on the same store (see check-case.ts).
  'check_1000',
  // The same after git repack -adf --depth=50 --window=250: deltas to apply (see check-case.ts).
  'check_1000_delta',
] as const;
export type CaseName = (typeof CASES)[number];

export interface CaseResult {
  case: CaseName;
  engine_ms: number;
  baseline_ms: number;
  ratio: number;
}

export interface BenchReport {
  workspace: { files: number; bytes: number };
  results: CaseResult[];
  /** The benchmark process alone (the kernel's maxRSS). */
  peak_rss_mb: number;
  /** The benchmark process plus the git processes of both sides, sampled from /proc; null off Linux. */
  peak_tree_rss_mb: number | null;
  /** The app (browser host) with the workspace open; null when not measured. */
  app: { peak_mb: number; settled_mb: number; tree_peak_mb: number } | null;
  /** edit10_scan snapshots of the engine with its fsyncs and without them, same run (medians). */
  durability?: { with_fsync_ms: number; without_fsync_ms: number };
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

const round = (n: number, digits = 1): number => Math.round(n * 10 ** digits) / 10 ** digits;

export function caseResult(name: CaseName, engine: readonly number[], baseline: readonly number[]): CaseResult {
  const engineMs = median(engine);
  const baselineMs = median(baseline);
  return { case: name, engine_ms: round(engineMs), baseline_ms: round(baselineMs), ratio: round(engineMs / baselineMs, 3) };
}

interface Target {
  text: string;
  met: (r: CaseResult) => boolean;
}

const TARGETS: Record<CaseName, Target> = {
  first: { text: '≤ 1.0×', met: (r) => r.ratio <= 1 },
  noop: { text: '≤ 1.0×', met: (r) => r.ratio <= 1 },
  edit10_scan: { text: '≤ 1.0×', met: (r) => r.ratio <= 1 },
  edit10_paths: { text: '≤ 0.3×', met: (r) => r.ratio <= 0.3 },
  watch10: { text: '≤ 0.3×', met: (r) => r.ratio <= 0.3 },
  list1000: { text: '< 100 ms', met: (r) => r.engine_ms < 100 },
  diff: { text: '≤ 1.0×', met: (r) => r.ratio <= 1 },
  restore10: { text: '≤ 1.0×', met: (r) => r.ratio <= 1 },
  restore_all: { text: '≤ 1.0×', met: (r) => r.ratio <= 1 },
  hook_pre_edit: { text: '≤ 2.0×', met: (r) => r.ratio <= 2 },
  hook_pre_edit_delegated: { text: '≤ 2.0×', met: (r) => r.ratio <= 2 },
  hook_delegated_100k: { text: '< 1.0×', met: (r) => r.ratio < 1 },
  hook_pre_edit_auto: { text: '≤ 1.8×', met: (r) => r.ratio <= 1.8 },
  hook_post_edit_auto: { text: '≤ 1.8× (as before a call)', met: (r) => r.ratio <= 1.8 },
  hook_auto_codex: { text: '≤ 1.8×', met: (r) => r.ratio <= 1.8 },
  hook_auto_gemini: { text: '≤ 1.8×', met: (r) => r.ratio <= 1.8 },
  hook_auto_copilot: { text: '≤ 1.8×', met: (r) => r.ratio <= 1.8 },
  hook_auto_opencode: { text: '≤ 1.8×', met: (r) => r.ratio <= 1.8 },
  hook_prompt: { text: '≤ 1.2× (a call)', met: (r) => r.ratio <= 1.2 },
  hook_first_call: { text: '≤ alone + 10 ms', met: (r) => r.engine_ms <= r.baseline_ms + 10 },
  hook_auto_100k: { text: '≤ 2.0×', met: (r) => r.ratio <= 2 },
  check_1000: { text: '≤ 1.0×', met: (r) => r.ratio <= 1 },
  check_1000_delta: { text: '≤ 1.0×', met: (r) => r.ratio <= 1 },
};

export function humanTable(report: BenchReport, notes: readonly string[]): string {
  const header = ['case', 'engine ms', 'baseline ms', 'ratio', 'target', ''];
  const rows = report.results.map((r) => {
    const target = TARGETS[r.case];
    return [r.case, r.engine_ms.toFixed(1), r.baseline_ms.toFixed(1), `${r.ratio.toFixed(2)}×`, target.text, target.met(r) ? 'pass' : 'MISS'];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]): string =>
    cells.map((cell, i) => (i === 0 || i === 4 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ').trimEnd();
  const mb = (report.workspace.bytes / (1 << 20)).toFixed(1);
  return [
    `workspace: ${report.workspace.files} files, ${mb} MB`,
    '',
    line(header),
    ...rows.map(line),
    '',
    `peak RSS: benchmark process ${report.peak_rss_mb} MB; with the git processes of both sides ${report.peak_tree_rss_mb === null ? 'not measured (needs /proc)' : `${report.peak_tree_rss_mb} MB (sampled)`}`,
    report.app
      ? `app with this workspace open (chronoscope serve, watcher on): peak ${report.app.peak_mb} MB, settled ${report.app.settled_mb} MB, with its git processes ${report.app.tree_peak_mb} MB`
      : 'app memory: not measured',
    ...(report.durability
      ? [
          `durability: a 10-file snapshot takes ${report.durability.with_fsync_ms.toFixed(1)} ms with its fsyncs (objects, folders, ref), ` +
            `${report.durability.without_fsync_ms.toFixed(1)} ms without (+${(report.durability.with_fsync_ms - report.durability.without_fsync_ms).toFixed(1)} ms: the price of surviving a power loss)`,
        ]
      : []),
    ...notes,
  ].join('\n');
}
