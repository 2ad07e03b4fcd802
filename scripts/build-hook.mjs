// Bundles the agent hook's code (npm run build:hook), so a hook process loads
// a few files instead of ~80 modules:
// - hook-bundle.js: the lean entry (read stdin, classify, hand the work to the
//   running app over its socket); no engine in it;
// - local-bundle/: the engine for when no app runs, loaded only then. Split at
//   its dynamic imports, so what a snapshot does not need (zod for a settings
//   file only the schema can judge, simple-git for store-wide commands) stays
//   in chunks that are loaded only when used.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

// graceful-fs (proper-lockfile's fs) patches and clones Node's fs when loaded, ~6 ms of a hook's
// start for retries on EMFILE that a hook's handful of lock calls (mkdir, stat, utimes, rmdir)
// never meets: the bundles take Node's own fs in its place.
const common = { bundle: true, platform: 'node', format: 'esm', logLevel: 'warning', alias: { 'graceful-fs': 'node:fs' } };
const outdir = 'dist/electron/agents/core/local-bundle';

await build({ ...common, entryPoints: ['electron/agents/hook-entry.ts'], outfile: 'dist/electron/agents/core/hook-bundle.js' });
rmSync(outdir, { recursive: true, force: true }); // chunk names carry hashes: no stale chunk stays behind
await build({
  ...common,
  entryPoints: ['electron/agents/core/local.ts'],
  outdir,
  splitting: true,
  chunkNames: '[name]-[hash]',
  // CommonJS dependencies (proper-lockfile) call require() for Node's modules.
  banner: { js: "import { createRequire as __cjsRequire } from 'node:module'; const require = __cjsRequire(import.meta.url);" },
});
