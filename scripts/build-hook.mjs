// Bundles the agent hook's code (npm run build:hook), so a hook process loads
// a few files instead of ~80 modules:
// - hook-bundle.cjs: the lean entry (read stdin, classify, hand the work to the
//   running app over its socket); no engine in it. CommonJS, required by the
//   CLI's CommonJS entry (electron/cli/bin.cts): Node's ES module loader is
//   never started for a hook that hands its work over;
// - local-bundle/: the engine for when no app runs, loaded only then. Split at
//   its dynamic imports, so what a snapshot does not need (zod for a settings
//   file only the schema can judge, simple-git for store-wide commands) stays
//   in chunks that are loaded only when used. (As one CommonJS file it loaded
//   no faster: splitting needs ES modules.)
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

// graceful-fs (proper-lockfile's fs) patches and clones Node's fs when loaded, ~6 ms of a hook's
// start for retries on EMFILE that a hook's handful of lock calls (mkdir, stat, utimes, rmdir)
// never meets: the bundles take Node's own fs in its place.
const common = { bundle: true, platform: 'node', format: 'esm', logLevel: 'warning', alias: { 'graceful-fs': 'node:fs' } };
const outdir = 'dist/electron/agents/core/local-bundle';

await build({
  ...common,
  format: 'cjs',
  entryPoints: ['electron/agents/hook-entry.ts'],
  outfile: 'dist/electron/agents/core/hook-bundle.cjs',
  // CommonJS has no import.meta: its url is this file's (the bundle sits in agents/core/, as the
  // modules that ask for it do, so their relative URLs still resolve).
  define: { 'import.meta.url': '__bundleUrl' },
  banner: { js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
});
rmSync('dist/electron/agents/core/hook-bundle.js', { force: true }); // the ES module bundle of earlier builds
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
