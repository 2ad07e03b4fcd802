// The synthetic workspace the benchmark measures: a deterministic, realistic
// mix — many small source files across nested folders, some medium data files,
// a few large binaries — with unique content per file (so git cannot dedupe
// blobs and flatter either side).
import { mkdirSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';

export interface WorkspaceSpec {
  files: number;
  bytes: number;
  seed?: number;
}

export interface GeneratedWorkspace {
  root: string;
  files: number;
  bytes: number;
  /** Small text files, workspace-relative: the ones edits go to. */
  textFiles: string[];
}

/** mulberry32: tiny, fast, deterministic. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'const', 'let', 'return', 'function', 'value', 'result', 'items', 'index', 'await', 'async', 'import', 'export',
  'config', 'options', 'handler', 'request', 'response', 'error', 'state', 'render', 'props', 'count', 'map', 'filter',
  'string', 'number', 'boolean', 'if', 'else', 'for', 'of', 'new', 'this', 'null', 'undefined', 'true', 'false',
];

/** A ~1 MB pool of plausible source lines; files are unique slices of it. */
function textPool(random: () => number): string {
  const lines: string[] = [];
  let size = 0;
  while (size < 1 << 20) {
    const indent = '  '.repeat(Math.floor(random() * 4));
    const n = 3 + Math.floor(random() * 9);
    const words: string[] = [];
    for (let i = 0; i < n; i++) words.push(WORDS[Math.floor(random() * WORDS.length)] ?? 'x');
    const line = `${indent}${words.join(' ')};`;
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

function textOf(pool: string, random: () => number, header: string, size: number): string {
  const start = Math.floor(random() * Math.max(1, pool.length - size));
  const lineStart = pool.lastIndexOf('\n', start) + 1;
  let body = pool.slice(lineStart, lineStart + Math.max(0, size - header.length));
  while (body.length < size - header.length) body += pool.slice(0, size - header.length - body.length);
  return header + body;
}

interface Planned {
  path: string;
  size: number;
  kind: 'text' | 'binary';
}

/** Sizes by category, scaled to the byte budget: ~50% small text, ~20% medium text, ~30% binaries. */
function plan(spec: WorkspaceSpec, random: () => number): Planned[] {
  const binaries = Math.max(1, Math.round(spec.files * 0.001));
  const medium = Math.max(1, Math.round(spec.files * 0.02));
  const small = Math.max(1, spec.files - binaries - medium - 1); // -1: the README
  const budget = { small: spec.bytes * 0.5, medium: spec.bytes * 0.2, binary: spec.bytes * 0.3 };

  const scaled = (raw: number[], total: number, min: number, max: number): number[] => {
    const sum = raw.reduce((a, b) => a + b, 0);
    return raw.map((r) => Math.round(Math.min(max, Math.max(min, (r / sum) * total))));
  };
  // Small source files are skewed towards the small end, like real code.
  const smallSizes = scaled(Array.from({ length: small }, () => 1 + 19 * random() ** 2), budget.small, 200, 20_480);
  const mediumSizes = scaled(Array.from({ length: medium }, () => 1 + random()), budget.medium, 1024, 400_000);
  const binarySizes = scaled(Array.from({ length: binaries }, () => 1 + 4 * random()), budget.binary, 1024, 5 << 20);

  const planned: Planned[] = [];
  smallSizes.forEach((size, i) => {
    const pkg = String(Math.floor(i / 400)).padStart(2, '0');
    const mod = String(Math.floor(i / 20) % 20).padStart(2, '0');
    const deep = i % 3 === 0 ? 'internal/' : '';
    const ext = ['ts', 'tsx', 'py', 'go', 'md'][i % 5] ?? 'ts';
    planned.push({ path: `src/pkg${pkg}/mod${mod}/${deep}file${String(i).padStart(5, '0')}.${ext}`, size, kind: 'text' });
  });
  mediumSizes.forEach((size, i) => {
    planned.push({ path: `data/set${String(i % 10).padStart(2, '0')}/table${String(i).padStart(4, '0')}.json`, size, kind: 'text' });
  });
  binarySizes.forEach((size, i) => {
    planned.push({ path: `assets/images/photo${String(i).padStart(3, '0')}.png`, size, kind: 'binary' });
  });
  return planned;
}

export function generateWorkspace(root: string, spec: WorkspaceSpec): GeneratedWorkspace {
  const random = prng(spec.seed ?? 42);
  const pool = textPool(random);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const made = new Set<string>();
  let bytes = 0;
  let count = 0;
  const textFiles: string[] = [];
  for (const file of plan(spec, random)) {
    const dir = dirname(join(root, file.path));
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    const content =
      file.kind === 'binary' ? randomBytes(file.size) : Buffer.from(textOf(pool, random, `// ${file.path}\n`, file.size));
    writeFileSync(join(root, file.path), content);
    bytes += content.length;
    count += 1;
    if (file.kind === 'text' && file.path.startsWith('src/')) textFiles.push(file.path);
  }
  const readme = '# synthetic workspace for the chronoscope benchmark\n';
  writeFileSync(join(root, 'README.md'), readme);
  bytes += readme.length;
  return { root, files: count + 1, bytes, textFiles };
}

/** Appends a line to each file: a real content change both sides must notice. */
export function editFiles(root: string, paths: readonly string[], tag: string): void {
  for (const path of paths) appendFileSync(join(root, path), `// edited: ${tag}\n`);
}

/** Picks `count` text files, a different slice each round, so edits don't pile on one file. */
export function pickFiles(workspace: GeneratedWorkspace, count: number, round: number): string[] {
  const files = workspace.textFiles;
  const picked: string[] = [];
  const stride = Math.max(1, Math.floor(files.length / count));
  for (let i = 0; i < count; i++) {
    const file = files[(i * stride + round * 7 + round * count) % files.length];
    if (file !== undefined && !picked.includes(file)) picked.push(file);
  }
  return picked;
}
