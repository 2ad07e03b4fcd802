// Bundles the agent hook's code (npm run build:hook), so a hook process loads
// a few files instead of ~80 modules. All CommonJS: required from the CLI's
// CommonJS entry (electron/cli/bin.cts), they load without Node's ES module
// loader (~10 ms of its start-up, and a facade for every Node module imported).
// - hook-bundle.cjs: the lean entry (read stdin, classify, hand the work to the
//   running app over its socket); no engine in it;
// - local-bundle/local.cjs: the engine for when no app runs, loaded only then;
//   what a snapshot does not need stays out of it, in files required only when
//   used: zod (settings.cjs, for a settings file only the schema can judge)
//   and simple-git (from node_modules, for store-wide commands).
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

// graceful-fs (proper-lockfile's fs) patches and clones Node's fs when loaded, ~6 ms of a hook's
// start for retries on EMFILE that a hook's handful of lock calls (mkdir, stat, utimes, rmdir)
// never meets: the bundles take Node's own fs in its place.
const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  logLevel: 'warning',
  alias: { 'graceful-fs': 'node:fs' },
  // CommonJS has no import.meta: its url is the bundle's own (each sits where the modules that ask
  // for it did, at the same depth, so their relative URLs still resolve).
  define: { 'import.meta.url': '__bundleUrl' },
  banner: { js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
};
const outdir = 'dist/electron/agents/core/local-bundle';

/** Dynamic imports the engine makes only off the snapshot path: left to files of their own. */
const requiredWhenUsed = {
  name: 'required-when-used',
  setup(b) {
    b.onResolve({ filter: /shared\/settings\.js$/ }, () => ({ path: './settings.cjs', external: true }));
    b.onResolve({ filter: /^simple-git$/ }, () => ({ path: 'simple-git', external: true }));
  },
};

await build({ ...common, entryPoints: ['electron/agents/hook-entry.ts'], outfile: 'dist/electron/agents/core/hook-bundle.cjs' });
rmSync('dist/electron/agents/core/hook-bundle.js', { force: true }); // the ES module bundle of earlier builds
rmSync(outdir, { recursive: true, force: true }); // no file of an earlier build stays behind
await build({ ...common, plugins: [requiredWhenUsed], entryPoints: ['electron/agents/core/local.ts'], outfile: `${outdir}/local.cjs` });
await build({ ...common, entryPoints: ['shared/settings.ts'], outfile: `${outdir}/settings.cjs` });
