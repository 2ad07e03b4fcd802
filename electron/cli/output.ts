// Everything the CLI writes goes through here: JSON for machines, compact
// aligned text for people (colour only on a terminal, and never when NO_COLOR
// is set, per no-color.org), and the single error line on stderr (with
// --json, one JSON object there instead).
import { escapeControlChars, hasControlChars } from '../../shared/control-chars.js';
import { ChronoscopeError, UsageError, type ErrorCode } from '../../shared/errors.js';

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * An array printed as printJson prints it, byte for byte, an element at a time: `list --all --json`
 * of 100,000 checkpoints is ~100 MB of text, which as one string (and its copy on the way out)
 * was most of the command's memory. Waits for stdout to drain between batches.
 */
export async function printJsonArray(items: readonly unknown[]): Promise<void> {
  if (items.length === 0) return printJson(items);
  const BATCH = 500;
  let out = '[\n';
  for (let i = 0; i < items.length; i++) {
    out += `  ${JSON.stringify(items[i], null, 2).replace(/\n/g, '\n  ')}${i < items.length - 1 ? ',' : ''}\n`;
    if ((i + 1) % BATCH === 0) {
      if (!process.stdout.write(out)) await new Promise<void>((resolve) => process.stdout.once('drain', () => resolve()));
      out = '';
    }
  }
  process.stdout.write(`${out}]\n`);
}

export function printLine(text = ''): void {
  process.stdout.write(`${text}\n`);
}

export function printLines(lines: readonly string[]): void {
  if (lines.length > 0) process.stdout.write(`${lines.join('\n')}\n`);
}

/** The one line an error gets on stderr; nothing goes to stdout. */
export function errorLine(err: unknown): string {
  return `chronoscope: ${errorMessage(err)}`;
}

function errorMessage(err: unknown): string {
  if (err instanceof ChronoscopeError) return oneLine(err.message);
  const message = err instanceof Error ? err.message : String(err);
  return `internal error: ${oneLine(message)}`;
}

/** What `--json` prints for an error: one object on stderr, so stdout only ever holds answers. */
export interface JsonError {
  error: { code: ErrorCode | 'usage'; message: string; exit_code: number };
}

/** Whether this run asked for JSON (`--json` before a `--`): its errors are JSON too. */
export function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}

export function errorText(err: unknown, exitCode: number, json: boolean): string {
  if (!json) return errorLine(err);
  // A malformed request says `usage`, as commander's own parse errors do: the code matches exit 2.
  const code = err instanceof UsageError ? 'usage' : err instanceof ChronoscopeError ? err.code : 'internal';
  const body: JsonError = { error: { code, message: errorMessage(err), exit_code: exitCode } };
  return JSON.stringify(body);
}

/** Commander's own messages ("unknown option '--x'") as one line, or as the JSON error object. */
export function usageText(message: string, json: boolean): string {
  const line = oneLine(message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' '));
  if (!json) return `chronoscope: ${line}`;
  const body: JsonError = { error: { code: 'usage', message: line, exit_code: 2 } };
  return JSON.stringify(body);
}

export function printError(err: unknown, exitCode: number, json: boolean): void {
  process.stderr.write(`${errorText(err, exitCode, json)}\n`);
}

function oneLine(message: string): string {
  const first = message.split('\n').find((line) => line.trim() !== '') ?? 'unknown error';
  // Messages quote paths and names as given: no control character reaches the terminal.
  return escapeControlChars(first.trim());
}

// ---- colour ----

function colourEnabled(): boolean {
  const noColor = process.env['NO_COLOR'];
  return process.stdout.isTTY === true && (noColor === undefined || noColor === '');
}

function sgr(code: string): (text: string) => string {
  return (text) => (colourEnabled() ? `\u001b[${code}m${text}\u001b[0m` : text);
}

export const style = {
  id: sgr('33'), // yellow, like git's commit ids
  dim: sgr('2'),
  bold: sgr('1'),
  added: sgr('32'),
  removed: sgr('31'),
  warn: sgr('35'),
};

// ---- text helpers ----

export function shortId(id: string): string {
  return id.slice(0, 8);
}

/** "just now", "42 s ago", "3 min ago", "5 h ago", "2 days ago", then the date. */
export function relativeTime(timeMs: number, nowMs: number = Date.now()): string {
  const seconds = Math.round((nowMs - timeMs) / 1000);
  if (seconds < 0) return new Date(timeMs).toISOString().slice(0, 16).replace('T', ' ');
  if (seconds < 5) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  if (days < 30) return `${days} day${days === 1 ? '' : 's'} ago`;
  return new Date(timeMs).toISOString().slice(0, 10);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

export function plural(n: number, word: string, pluralWord = `${word}s`): string {
  return `${n} ${n === 1 ? word : pluralWord}`;
}

/** Paths can hold newlines and control characters (C0 and C1); never let them break a line of output or reach the terminal. */
export function safeText(text: string): string {
  return hasControlChars(text) ? escapeControlChars(JSON.stringify(text)) : text;
}

export type Align = 'left' | 'right';

export interface Column {
  header: string;
  align?: Align;
}

// Visible width of a cell, ignoring colour escapes.
function visibleLength(text: string): number {
  // eslint-disable-next-line no-control-regex
  return [...text.replace(/\u001b\[[0-9;]*m/g, '')].length;
}

function pad(text: string, width: number, align: Align): string {
  const gap = ' '.repeat(Math.max(0, width - visibleLength(text)));
  return align === 'right' ? gap + text : text + gap;
}

/** Aligned columns, two spaces apart; the last column is not padded. */
export function table(columns: readonly Column[], rows: readonly (readonly string[])[]): string[] {
  const widths = columns.map((column, i) =>
    Math.max(visibleLength(column.header), ...rows.map((row) => visibleLength(row[i] ?? ''))),
  );
  const render = (cells: readonly string[], header: boolean): string =>
    columns
      .map((column, i) => {
        const cell = cells[i] ?? '';
        const text = header ? style.dim(cell) : cell;
        return i === columns.length - 1 ? text : pad(text, widths[i] ?? 0, column.align ?? 'left');
      })
      .join('  ')
      .trimEnd();
  return [render(columns.map((c) => c.header), true), ...rows.map((row) => render(row, false))];
}

/** Quote an argument for a command line the person can paste into a POSIX shell. */
export function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
