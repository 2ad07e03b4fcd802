#!/usr/bin/env node
// The `chronoscope` command. All the work is in program.ts; this file only
// runs it and exits once stdout has been flushed. `chronoscope hook …` (run
// by agents around every tool call) goes to its own lean entry before the
// command parser and the commands are even loaded.
if (process.argv[2] === 'hook') {
  // `npm run build:node` also bundles that entry into one file (one module to load instead of ~16);
  // without the bundle the entry's modules load as they are.
  const bundle = '../agents/core/hook-bundle.js';
  const entry = (await import(bundle).catch(() => import('../agents/hook-entry.js'))) as typeof import('../agents/hook-entry.js');
  await entry.runHookCommand(process.argv.slice(3));
}
const { errorLine } = await import('./output.js');
const { run } = await import('./program.js');
const { settleAllIndexes } = await import('../engine/index-sync.js');
const { settlePackMerges } = await import('../engine/pack-merge.js');

// Whatever escapes the command's promise still gets exactly one line and exit 1.
const crash = (err: unknown): void => {
  process.stderr.write(`${errorLine(err)}\n`);
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
// Exit explicitly (a lock-refresh timer or a child must not keep the CLI alive),
// but only after what was written to stdout is flushed.
process.stdout.write('', () => process.exit(code));
