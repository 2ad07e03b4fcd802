// How many checkpoints the default retention keeps for a heavy user after 30,
// 90 and 365 days (docs/store-health.md). The user is a model, stated below;
// the selection is the engine's own (electron/engine/retention/select.ts), run
// as the service runs it: a pass every 30 minutes would leave the same set as
// one pass at the end, because thinning keeps the newest of each bucket and
// a kept checkpoint stays kept as it ages (the newest of a day is the newest
// of its last hour).
//
//   npm run build:node && node dist/scripts/retention-arithmetic.js
import { selectRemovals, type Selectable } from '../electron/engine/retention/select.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The heavy user: every day of the year, 3 agent sessions of 2 hours (09–11, 12–14, 15–17 UTC). */
const SESSIONS_PER_DAY = 3;
const SESSION_HOURS = 2;
/** One checkpoint per agent tool call: 50 an hour (one every 72 s). */
const AGENT_PER_HOUR = 50;
/** The watcher records edits made by hand between tool calls: 10 an hour while the person works. */
const WATCHER_PER_HOUR = 10;
/** And one manual checkpoint a day. */
const MANUAL_PER_DAY = 1;

function history(days: number, end: number): Selectable[] {
  const out: Selectable[] = [];
  const start = Math.floor(end / DAY) * DAY - (days - 1) * DAY; // the last day is today
  for (let d = 0; d < days; d++) {
    const day = start + d * DAY;
    for (let s = 0; s < SESSIONS_PER_DAY; s++) {
      const from = day + (9 + s * 3) * HOUR;
      const session = `day${d}-session${s}`;
      for (let h = 0; h < SESSION_HOURS; h++) {
        for (let i = 0; i < AGENT_PER_HOUR; i++) {
          const t = from + h * HOUR + Math.floor((i * HOUR) / AGENT_PER_HOUR);
          out.push({ id: `a${t}`, time_ms: t, fields: { trigger: 'hook', agent: 'claude-code', session } });
        }
        for (let i = 0; i < WATCHER_PER_HOUR; i++) {
          const t = from + h * HOUR + Math.floor((i * HOUR) / WATCHER_PER_HOUR) + 7_000;
          out.push({ id: `w${t}`, time_ms: t, fields: { trigger: 'auto' } });
        }
      }
    }
    for (let i = 0; i < MANUAL_PER_DAY; i++) out.push({ id: `m${day}`, time_ms: day + 17 * HOUR + 30 * 60_000, fields: { trigger: 'manual' } });
  }
  return out.sort((a, b) => b.time_ms - a.time_ms);
}

const end = Date.UTC(2026, 11, 6, 18, 0, 0);
const perDay = SESSIONS_PER_DAY * SESSION_HOURS * (AGENT_PER_HOUR + WATCHER_PER_HOUR) + MANUAL_PER_DAY;
console.log(`heavy user: ${perDay} checkpoints a day (${SESSIONS_PER_DAY} agent sessions of ${SESSION_HOURS} h at ${AGENT_PER_HOUR}/h, the watcher at ${WATCHER_PER_HOUR}/h, ${MANUAL_PER_DAY} manual), every day`);
console.log('| after | taken | kept by default | kept share |');
console.log('|---|---|---|---|');
for (const days of [30, 90, 365]) {
  const items = history(days, end);
  const removed = selectRemovals(items, new Set(), { maxCheckpoints: null, maxAgeDays: null }, end).size;
  const kept = items.length - removed;
  console.log(`| ${days} days | ${items.length.toLocaleString('en-US')} | ${kept.toLocaleString('en-US')} | ${((100 * kept) / items.length).toFixed(1)} % |`);
}
