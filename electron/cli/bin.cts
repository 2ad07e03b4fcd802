#!/usr/bin/env node
// The `chronoscope` command's entry, in CommonJS on purpose. An agent starts
// `chronoscope hook …` around every tool call, so its start-up is the
// product's hottest path: from a CommonJS entry the hook's CommonJS bundle
// loads without Node's ES module loader (~15 ms of every hook process:
// the loader itself, and a facade built for each of Node's modules it
// imports). Every other command goes on to the ES module CLI: its bundle
// (main-bundle.mjs, `npm run build:cli`: one file instead of ~590 modules,
// half the start-up), or main.js where no bundle was built. main.js also
// still runs hooks installed before this entry existed.

interface HookEntry {
  runHookCommand(args: readonly string[]): Promise<never>;
}

/** The hook's bundle (`npm run build:hook`); null when it was not built (main.js then loads the modules). */
function hookBundle(): HookEntry | null {
  try {
    return require('../agents/core/hook-bundle.cjs') as HookEntry;
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND' && String((err as Error).message).includes('hook-bundle.cjs');
    if (!missing) throw err;
    return null;
  }
}

const hook = process.argv[2] === 'hook' ? hookBundle() : null;
if (hook !== null) void hook.runHookCommand(process.argv.slice(3));
else void import(require('node:fs').existsSync(require('node:path').join(__dirname, 'main-bundle.mjs')) ? './main-bundle.mjs' : './main.js');
