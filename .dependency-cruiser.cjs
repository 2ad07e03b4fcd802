// The import rules of the source tree, checked by tests/architecture/layers.test.ts
// (and `npm run layers`). Layers, lowest first:
//   shared/ (the contract with the renderer) · electron/fs/ · electron/effects/ ·
//   electron/engine/ · approvals, verify, watcher · agents · app · daemon, mcp,
//   router, server, cli, shell.  renderer/ sees shared/ only.
// Inside electron/engine/ the rooms sit below the verbs at its top, in this
// order: support < git < layout < objects < trees < index < scan; foreign/
// (checkpoints that are not ours) sits beside the verbs.
const ROOMS = ['support', 'git', 'layout', 'objects', 'trees', 'index', 'scan'];
const above = (room) => ROOMS.slice(ROOMS.indexOf(room) + 1).concat('foreign');

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Two modules that import each other (directly or around a loop) cannot be read, tested or moved one at a time.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'shared-is-the-floor',
      comment: 'shared/ is the contract both sides derive from: it imports nothing of theirs.',
      severity: 'error',
      from: { path: '^shared/' },
      to: { path: '^(electron|renderer|scripts)/' },
    },
    {
      name: 'renderer-sees-shared-only',
      comment: 'The renderer only shows: it talks to the main process over the IPC contract in shared/.',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { path: '^(electron|scripts)/' },
    },
    {
      name: 'fs-and-effects-are-libraries',
      comment: 'electron/fs and electron/effects know nothing of the engine or the app.',
      severity: 'error',
      from: { path: '^electron/(fs|effects)/' },
      to: { path: '^electron/(?!fs/|effects/)' },
    },
    {
      name: 'engine-below-its-users',
      comment: 'The engine is what the CLI, the hooks, the app and MCP call; it never calls them.',
      severity: 'error',
      from: { path: '^electron/engine/' },
      to: { path: '^electron/(agents|app|approvals|cli|daemon|mcp|router|server|shell|verify|watcher)/' },
    },
    {
      name: 'mcp-is-not-the-cli',
      comment: 'MCP and the CLI are two front doors; what both need lives below them.',
      severity: 'error',
      from: { path: '^electron/mcp/' },
      to: { path: '^electron/cli/' },
    },
    {
      name: 'agents-below-the-app',
      comment: 'Agent integrations are called by the app, the daemon and the CLI, never the other way round.',
      severity: 'error',
      from: { path: '^electron/agents/' },
      to: { path: '^electron/(app|cli|daemon|mcp|router|server|shell)/' },
    },
    {
      name: 'share-below-the-app',
      comment: "Sharing over the team's git remote (issue 43) is called by the engine's lanes, the app and the CLI, never the other way round.",
      severity: 'error',
      from: { path: '^electron/share/' },
      to: { path: '^electron/(app|cli|daemon|mcp|router|server|shell)/' },
    },
    {
      name: 'engine-rooms-below-the-verbs',
      comment: "A room of the engine (objects/, trees/, ...) serves the verbs at engine/'s top; it may name their types, not call them.",
      severity: 'error',
      from: { path: '^electron/engine/(?!foreign/)[^/]+/' },
      to: { path: '^electron/engine/[^/]+$', dependencyTypesNot: ['type-only'] },
    },
    ...ROOMS.map((room) => ({
      name: `engine-${room}-order`,
      comment: `engine/${room}/ imports only the rooms below it (${ROOMS.slice(0, ROOMS.indexOf(room)).join(', ') || 'none'}).`,
      severity: 'error',
      from: { path: `^electron/engine/${room}/` },
      to: { path: `^electron/engine/(${above(room).join('|')})/` },
    })),
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
  },
};
