// Time labels: "4 min ago" beside the absolute time, both from one clock.

const UNITS: [limitSeconds: number, divisor: number, unit: string][] = [
  [60, 1, 's'],
  [3600, 60, 'min'],
  [86_400, 3600, 'h'],
  [86_400 * 30, 86_400, 'd'],
  [86_400 * 365, 86_400 * 30, 'mo'],
  [Number.POSITIVE_INFINITY, 86_400 * 365, 'y'],
];

export function relativeTime(timeMs: number, nowMs: number): string {
  const seconds = Math.round((nowMs - timeMs) / 1000);
  if (seconds < 0) return 'just now';
  if (seconds < 10) return 'just now';
  for (const [limit, divisor, unit] of UNITS) {
    if (seconds < limit) return `${Math.floor(seconds / divisor)} ${unit} ago`;
  }
  return 'long ago';
}

const sameDayFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
const fullFormat = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

const preciseFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * absoluteTime with tenths or thousandths of a second: the axis' two ends when
 * the view spans only seconds, so they never read the same.
 */
export function absoluteTimePrecise(timeMs: number, nowMs: number, fractionDigits: 0 | 1 | 2 | 3): string {
  if (fractionDigits === 0) return absoluteTime(timeMs, nowMs);
  const today = new Date(timeMs).toDateString() === new Date(nowMs).toDateString();
  const key = `${today}${fractionDigits}`;
  let format = preciseFormats.get(key);
  if (!format) {
    const time = { hour: '2-digit', minute: '2-digit', second: '2-digit', fractionalSecondDigits: fractionDigits } as const;
    format = new Intl.DateTimeFormat(undefined, today ? time : { year: 'numeric', month: 'short', day: 'numeric', ...time });
    preciseFormats.set(key, format);
  }
  const text = format.format(new Date(timeMs));
  return today ? `Today ${text}` : text;
}

export function absoluteTime(timeMs: number, nowMs: number = Date.now()): string {
  const date = new Date(timeMs);
  const now = new Date(nowMs);
  if (date.toDateString() === now.toDateString()) return `Today ${sameDayFormat.format(date)}`;
  return fullFormat.format(date);
}

export function shortId(id: string): string {
  return id.slice(0, 8);
}

const timeOfDayFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const dayFormat = new Intl.DateTimeFormat(undefined, { weekday: 'long', month: 'short', day: 'numeric' });
const dayYearFormat = new Intl.DateTimeFormat(undefined, { weekday: 'long', year: 'numeric', month: 'short', day: 'numeric' });

/** "14:05": the list's rows, under a day header. */
export function timeOfDay(timeMs: number): string {
  return timeOfDayFormat.format(new Date(timeMs));
}

/** The local day a time falls on, as a key. */
export function dayKey(timeMs: number): string {
  const d = new Date(timeMs);
  return `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;
}

/** "Today", "Yesterday", "Monday, Nov 9" (the year only when not this one). */
export function dayLabel(timeMs: number, nowMs: number): string {
  if (dayKey(timeMs) === dayKey(nowMs)) return 'Today';
  const yesterday = new Date(nowMs);
  yesterday.setDate(yesterday.getDate() - 1);
  if (dayKey(timeMs) === dayKey(yesterday.getTime())) return 'Yesterday';
  const date = new Date(timeMs);
  return (date.getFullYear() === new Date(nowMs).getFullYear() ? dayFormat : dayYearFormat).format(date);
}
