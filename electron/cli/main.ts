#!/usr/bin/env node
// The `chronoscope` command. All the work is in program.ts; this file only
// runs it and exits once stdout has been flushed. The package's entry is
// bin.cts, which sends `chronoscope hook …` straight to the hook's bundle; a
// hook that reaches this file (installed before bin.cts existed, or no
// bundle built) still goes to its lean entry before the command parser and
// the commands are even loaded.
if (process.argv[2] === 'hook') {
  // The bundle (`npm run build:hook`) is CommonJS: required, its Node modules load without ESM facades.
  // Without it the entry's modules load as they are.
  const entry = await import('node:module')
    .then(({ createRequire }) => createRequire(import.meta.url)('../agents/core/hook-bundle.cjs') as typeof import('../agents/hook-entry.js'))
    .catch(() => import('../agents/hook-entry.js'));
  await entry.runHookCommand(process.argv.slice(3));
}
const { printError, wantsJson } = await import('./output.js');
const { run } = await import('./program.js');
const { settleAllIndexes } = await import('../engine/index-sync.js');
const { settlePackMerges } = await import('../engine/objects/pack-merge.js');

// Whatever escapes the command's promise still gets exactly one line (or JSON object) and exit 1.
const crash = (err: unknown): void => {
  printError(err, 1, wantsJson(process.argv));
  process.exit(1);
};
process.on('uncaughtException', crash);
process.on('unhandledRejection', crash);

// `chronoscope list | head` closes the pipe early: that is not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

const code = await run(process.argv);
// A snapshot's private index catches up after the result is out (engine/index-sync.ts):
// let it finish, so the next full scan does not re-read those files.
await settleAllIndexes();
await settlePackMerges();
// Commands that write objects start the store's upkeep (engine/upkeep.ts) when
// it is due: detached and after their own work, so it never delays them.
if (code === 0 && ['snapshot', 'restore', 'prune', 'fork'].includes(process.argv[2] ?? '')) {
  const [{ startUpkeepIfDue }, { resolveStoreHome }] = await Promise.all([import('../engine/upkeep.js'), import('../engine/store.js')]);
  await startUpkeepIfDue(await resolveStoreHome(), { node: process.execPath, cli: process.argv[1] ?? '' });
}
// Exit explicitly (a lock-refresh timer or a child must not keep the CLI alive),
// but only after what was written to stdout is flushed.
process.stdout.write('', () => process.exit(code));
