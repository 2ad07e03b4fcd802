// `share pull` at scale (issue 43): a remote holding N shared checkpoints
// from M machines (default 10,000 from 5), written with git fast-import in
// the contract's layout (share-contract.md: a share log per clone, one
// share-log commit per push of 100 checkpoints). A fresh clone then pulls
// and lists them; figures beside a baseline in the same run: the same pull
// from a copy of the remote that cannot filter (what the checkpoints hold,
// as git sends it whole).
// Never fails; prints figures.
//   npm run build:node && node scripts/bench-share-pull.mjs [checkpoints=10000] [machines=5] [files=100] [blobKB=4]
// Files sit in 10 folders (src/d0…d9): a checkpoint that changes one file has a new root and one new folder tree.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { encodeMessage } from '../dist/electron/engine/layout/message.js';

const total = Number(process.argv[2] ?? 10_000);
const machines = Number(process.argv[3] ?? 5);
const files = Number(process.argv[4] ?? 100);
const blobKB = Number(process.argv[5] ?? 4);
const perPush = 100;
const cli = path.resolve('dist/electron/cli/bin.cjs');
const base = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-bench-pull-'));
const gitEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: os.devNull, CHRONOSCOPE_DAEMON: '0' };
const git = (cwd, args, input) => execFileSync('git', args, { cwd, env: gitEnv, encoding: 'utf8', input, maxBuffer: 1 << 30, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const dirBytes = (dir) => fs.readdirSync(dir).reduce((sum, n) => sum + fs.statSync(path.join(dir, n)).size, 0);

/** The fast-import stream: a main branch, then per machine `total / machines` parentless checkpoints and their share log. */
function stream(out) {
  const w = (s) => fs.writeSync(out, s);
  const blob = (mark, data) => {
    w(`blob\nmark :${mark}\ndata ${data.length}\n`);
    fs.writeSync(out, data);
    w('\n');
  };
  let mark = 1;
  const content = (i) => Buffer.from(randomBytes((blobKB * 1024) / 2).toString('hex') + `\n${i}\n`);
  const readme = mark++;
  blob(readme, Buffer.from('bench project\n'));
  w(`commit refs/heads/main\ncommitter Bench <bench@example.com> 1700000000 +0000\ndata 5\nstart\nM 100644 :${readme} README.md\n\n`);
  const perMachine = Math.floor(total / machines);
  const t0 = Date.UTC(2026, 0, 1);
  for (let m = 0; m < machines; m++) {
    const current = [];
    for (let f = 0; f < files; f++) {
      current.push(mark);
      blob(mark++, content(f));
    }
    const checkpoints = [];
    for (let i = 0; i < perMachine; i++) {
      const f = (i * 7) % files;
      current[f] = mark;
      blob(mark++, content(i));
      const time_ms = t0 + m * 1000 + i * 60_000;
      const msg = encodeMessage(`edit f${f}.txt`, { v: 1, trigger: 'agent', time_ms, agent: 'claude-code', session: `s${m}-${Math.floor(i / 50)}`, tool: 'Edit', stats: { files: 1, insertions: 1, deletions: 1 }, skipped: [], paths: [`src/d${f % 10}/f${f}.txt`] });
      const cm = mark++;
      checkpoints.push(cm);
      w(`commit refs/bench/cp\nmark :${cm}\ncommitter Chronoscope <chronoscope@localhost> ${Math.floor(time_ms / 1000)} +0000\ndata ${Buffer.byteLength(msg)}\n${msg}\ndeleteall\n`);
      for (let k = 0; k < files; k++) w(`M 100644 :${current[k]} src/d${k % 10}/f${k}.txt\n`);
      w('\n');
      // fast-import's next commit on the same ref would take this one as its parent: start the ref anew.
      w(`reset refs/bench/cp\n\n`);
    }
    let log = null;
    const email = `dev${m}@example.com`;
    for (let p = 0; p < checkpoints.length; p += perPush) {
      const part = checkpoints.slice(p, p + perPush);
      const msg = `chronoscope share log\n\n${JSON.stringify({ v: 1, person: `Dev ${m}`, email, machine: `laptop-${m}`, workspace: 'bench', prompts: [], calls: [] })}\n`;
      const lm = mark++;
      const parents = log === null ? part : [log, ...part];
      w(`commit refs/chronoscope/${email.replace(/[^a-z0-9._-]/g, '-')}/laptop-${m}/w000000000${m}/log\nmark :${lm}\ncommitter Dev <${email}> 1700000000 +0000\ndata ${Buffer.byteLength(msg)}\n${msg}from :${parents[0]}\n`);
      for (const extra of parents.slice(1)) w(`merge :${extra}\n`);
      w('deleteall\n\n');
      log = lm;
    }
  }
}

try {
  const remote = path.join(base, 'remote.git');
  git(base, ['init', '-q', '--bare', '-b', 'main', remote]);
  const started = Date.now();
  const file = path.join(base, 'stream');
  const fd = fs.openSync(file, 'w');
  stream(fd);
  fs.closeSync(fd);
  execFileSync('git', ['fast-import', '--quiet'], { cwd: remote, env: gitEnv, stdio: [fs.openSync(file, 'r'), 'ignore', 'inherit'] });
  fs.rmSync(file);
  git(remote, ['update-ref', '-d', 'refs/bench/cp']);
  // As a server's gc leaves it: deltas searched anew (fast-import wrote each checkpoint's trees whole).
  git(remote, ['repack', '-a', '-d', '-f', '-q', '--window=50']);
  git(remote, ['config', 'uploadpack.allowFilter', 'true']);
  const plain = path.join(base, 'plain.git');
  git(base, ['clone', '-q', '--bare', '--mirror', remote, plain]);
  git(plain, ['config', 'uploadpack.allowFilter', 'false']);
  console.log(`remote: ${total} checkpoints from ${machines} machines, ${files} files of ${blobKB} KB each, a push per ${perPush}; pack ${mb(dirBytes(path.join(remote, 'objects', 'pack')))} (built in ${((Date.now() - started) / 1000).toFixed(1)} s)`);

  const run = (name, url) => {
    const dir = path.join(base, name);
    git(base, ['clone', '-q', url, dir]);
    git(dir, ['config', 'user.email', `${name}@example.com`]);
    const env = { ...gitEnv, CHRONOSCOPE_HOME: path.join(base, `${name}-store`), NO_COLOR: '1' };
    // Wall time, and CPU time of the process and its children (git) from bash's `times`: on a loaded machine the second is the steadier figure.
    const time = (args) => {
      const t = performance.now();
      const script = `${[process.execPath, cli, ...args].map((a) => `'${a}'`).join(' ')} > "$OUT"; code=$?; times >&2; exit $code`;
      const outFile = path.join(base, 'out.json');
      const r = spawnSync('bash', ['-c', script], { cwd: dir, env: { ...env, OUT: outFile }, encoding: 'utf8', maxBuffer: 1 << 30 });
      if (r.status !== 0) throw new Error(`${args.join(' ')}: ${r.stderr}`);
      const secs = [...r.stderr.trim().split('\n').pop().matchAll(/(\d+)m([\d.]+)s/g)].reduce((sum, m) => sum + Number(m[1]) * 60 + Number(m[2]), 0);
      return { ms: performance.now() - t, cpu: secs * 1000, out: fs.readFileSync(outFile, 'utf8') };
    };
    const start = time(['--version']);
    const pull = time(['share', 'pull', '--json']);
    const list = time(['list', '--all', '--json']);
    const listed = JSON.parse(list.out).filter((c) => c.shared).length;
    return { start, pull, list, listed, bytes: JSON.parse(pull.out).bytes };
  };
  const filtered = run('fresh', remote);
  const whole = run('baseline', plain);
  const s = (x) => `${(x.ms / 1000).toFixed(2)} s wall, ${(x.cpu / 1000).toFixed(2)} s CPU`;
  console.log(`load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`);
  console.log(`baseline: chronoscope --version : ${s(filtered.start)}`);
  console.log(`share pull (blob-less)          : ${s(filtered.pull)}, ${mb(filtered.bytes)} fetched`);
  console.log(`list --all --json               : ${s(filtered.list)}, ${filtered.listed} shared checkpoints listed`);
  console.log(`pull + list                     : ${((filtered.pull.ms + filtered.list.ms) / 1000).toFixed(2)} s wall, ${((filtered.pull.cpu + filtered.list.cpu) / 1000).toFixed(2)} s CPU (target < 5 s)`);
  console.log(`baseline: pull, no filter       : ${s(whole.pull)}, ${mb(whole.bytes)} fetched; list ${s(whole.list)}, ${whole.listed} listed`);
  console.log(`downloaded                      : ${((100 * filtered.bytes) / whole.bytes).toFixed(1)} % of what the checkpoints hold (target < 10 %)`);
} finally {
  fs.rmSync(base, { recursive: true, force: true });
}
