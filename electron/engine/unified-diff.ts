// A small line diff for `chronoscope diff --file`: Myers' O(ND) shortest edit
// script, printed as unified-diff hunks with 3 lines of context. When the two
// sides differ too much for that to stay cheap, it falls back to "all old
// lines out, all new lines in", which is still a correct diff.

export type LineOp = { kind: ' ' | '-' | '+'; line: string; oldNo: number; newNo: number };
type Op = LineOp;

const MAX_EDIT_DISTANCE = 4000;

export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The edit script from `a` to `b`, or null when it would need more than `maxD` edits. */
function myers(a: readonly string[], b: readonly string[], maxD: number): Op[] | null {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, maxD);
  const offset = max + 1;
  let v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    const next = v.slice();
    for (let k = -d; k <= d; k += 2) {
      let x: number;
      if (k === -d || (k !== d && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0))) x = v[offset + k + 1] ?? 0;
      else x = (v[offset + k - 1] ?? 0) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      next[offset + k] = x;
      if (x >= n && y >= m) return backtrack(a, b, trace, offset, d, k);
    }
    v = next;
  }
  return null;
}

function backtrack(a: readonly string[], b: readonly string[], trace: Int32Array[], offset: number, dEnd: number, kEnd: number): Op[] {
  const ops: Op[] = [];
  let x = a.length;
  let y = b.length;
  let k = kEnd;
  for (let d = dEnd; d > 0; d--) {
    const v = trace[d];
    if (!v) break;
    const down = k === -d || (k !== d && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0));
    const prevK = down ? k + 1 : k - 1;
    const prevX = v[offset + prevK] ?? 0;
    const prevY = prevX - prevK;
    while (x > prevX + (down ? 0 : 1) && y > prevY + (down ? 1 : 0)) {
      x--;
      y--;
      ops.push({ kind: ' ', line: a[x] ?? '', oldNo: x, newNo: y });
    }
    if (down) {
      y--;
      ops.push({ kind: '+', line: b[y] ?? '', oldNo: x, newNo: y });
    } else {
      x--;
      ops.push({ kind: '-', line: a[x] ?? '', oldNo: x, newNo: y });
    }
    k = prevK;
  }
  while (x > 0 && y > 0) {
    x--;
    y--;
    ops.push({ kind: ' ', line: a[x] ?? '', oldNo: x, newNo: y });
  }
  return ops.reverse();
}

function replaceAll(a: readonly string[], b: readonly string[]): Op[] {
  return [
    ...a.map((line, i): Op => ({ kind: '-', line, oldNo: i, newNo: 0 })),
    ...b.map((line, i): Op => ({ kind: '+', line, oldNo: a.length, newNo: i })),
  ];
}

/** The edit script from lines `a` to lines `b` (also `chronoscope why`'s blame, electron/prompts/blame.ts). */
export function lineEdits(a: readonly string[], b: readonly string[]): LineOp[] {
  return myers(a, b, MAX_EDIT_DISTANCE) ?? replaceAll(a, b);
}

/** Unified-diff hunks (without the ---/+++ header) from old text to new text. */
export function unifiedHunks(oldText: string, newText: string, context = 3): string[] {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  const ops = lineEdits(a, b);
  const changed = ops.map((op, i) => (op.kind === ' ' ? -1 : i)).filter((i) => i >= 0);
  const out: string[] = [];
  let i = 0;
  while (i < changed.length) {
    // Grow a hunk while the next change is within 2×context lines of the last one.
    const first = changed[i] ?? 0;
    let last = first;
    while (i + 1 < changed.length && (changed[i + 1] ?? 0) - last <= 2 * context) last = changed[++i] ?? last;
    i++;
    const start = Math.max(0, first - context);
    const end = Math.min(ops.length, last + context + 1);
    const hunk = ops.slice(start, end);
    const head = hunk[0];
    if (!head) continue;
    const oldCount = hunk.filter((op) => op.kind !== '+').length;
    const newCount = hunk.filter((op) => op.kind !== '-').length;
    const oldStart = oldCount === 0 ? head.oldNo : head.oldNo + 1;
    const newStart = newCount === 0 ? head.newNo : head.newNo + 1;
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`);
    for (const op of hunk) out.push(`${op.kind}${op.line}`);
  }
  return out;
}
