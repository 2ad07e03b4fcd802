// Bundles the CLI (npm run build:cli) into one ES module beside its entry,
// dist/electron/cli/main-bundle.mjs, which bin.cjs runs when it is there. Node
// resolving, reading and linking the ~590 modules of the CLI and its packages
// one by one was most of every command's start (`--version` ~0.68 s, serve's
// URL ~0.6 s: the first page after serve starts waits for it).
//
// A module that finds a file next to itself (import.meta.url: the renderer,
// package.json, the hook's bundles, bin.cjs) must still find it from the
// bundle: each one's import.meta.url is rewritten to the URL its own compiled
// file has in dist/, so those relative paths resolve as before.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';

const outfile = 'dist/electron/cli/main-bundle.mjs';
const outDir = path.resolve(path.dirname(outfile));

const ownModuleUrls = {
  name: 'own-module-urls',
  setup(b) {
    b.onLoad({ filter: /[/\\](electron|shared)[/\\].*\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const compiled = path.resolve('dist', path.relative(process.cwd(), args.path)).replace(/\.ts$/, '.js');
      const relative = path.relative(outDir, compiled).split(path.sep).join('/');
      return { contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(relative)}, import.meta.url).href`), loader: 'ts' };
    });
  },
};

await build({
  entryPoints: ['electron/cli/main.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  // Packages written in CommonJS call require(); an ES module has none of its own.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  // Not a dependency of the CLI; the desktop shell loads it, never this bundle.
  external: ['electron'],
  // jsonc-parser's main is a UMD build whose require('./impl/…') a bundler cannot follow: its ES module build instead.
  alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
  plugins: [ownModuleUrls],
});
