// What the redaction costs a checkpoint message (docs/design.md, "Secrets in
// what is kept"): redactSecrets over five typical reasons, beside a baseline
// of the same loop doing nothing, in the same run. Needs `npm run build:node`.
// Run: node scripts/bench-redact.mjs
import { redactSecrets } from '../dist/shared/redact.js';

const REASONS = [
  'Edit src/components/app.tsx',
  'auto: 3 files changed (src/a.ts, src/b.ts, docs/x.md)',
  'Bash: npm test -- --run tests/shared/redact.test.ts',
  'before restore of 1a2b3c4d5e6f',
  'Fix the login bug and add a test for the session expiry',
];
const SECRET = 'Bash: GITHUB_TOKEN=ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8 npm publish';
const CALLS = 200_000;

function perCallUs(f, texts) {
  let n = 0;
  const start = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) n += f(texts[i % texts.length]).length;
  if (n === 0) throw new Error('unreachable');
  return Number(process.hrtime.bigint() - start) / 1e3 / CALLS;
}

perCallUs(redactSecrets, REASONS); // warm-up
console.log(`baseline (identity), typical reasons: ${perCallUs((s) => s, REASONS).toFixed(2)} µs/call`);
console.log(`redactSecrets, typical reasons:       ${perCallUs(redactSecrets, REASONS).toFixed(2)} µs/call`);
console.log(`redactSecrets, a reason with a token: ${perCallUs(redactSecrets, [SECRET]).toFixed(2)} µs/call`);
