// Every `chronoscope` command, one module each. To add a command, write its
// module and add one line here. A run loads only the module of the command it
// names (all of them for help, a typo's suggestion or no command): loading
// every command's code was most of the CLI's start (--version took ~680 ms).
import type { RegisterCommand } from '../context.js';

interface CommandModule {
  /** The top-level command names (and aliases) the module registers. */
  names: readonly string[];
  load: () => Promise<RegisterCommand>;
}

/** In the order `chronoscope --help` lists them. */
const COMMAND_MODULES: readonly CommandModule[] = [
  { names: ['snapshot'], load: async () => (await import('./snapshot.js')).registerSnapshot },
  { names: ['list', 'ls'], load: async () => (await import('./list.js')).registerList },
  { names: ['show'], load: async () => (await import('./show.js')).registerShow },
  { names: ['diff'], load: async () => (await import('./diff.js')).registerDiff },
  { names: ['restore'], load: async () => (await import('./restore.js')).registerRestore },
  { names: ['why'], load: async () => (await import('./why.js')).registerWhy },
  { names: ['status'], load: async () => (await import('./status.js')).registerStatus },
  { names: ['prune'], load: async () => (await import('./prune.js')).registerPrune },
  { names: ['pin', 'unpin'], load: async () => (await import('./pin.js')).registerPin },
  { names: ['serve'], load: async () => (await import('./serve.js')).registerServe },
  { names: ['daemon'], load: async () => (await import('./daemon.js')).registerDaemon },
  { names: ['effects'], load: async () => (await import('./effects.js')).registerEffects },
  { names: ['hook'], load: async () => (await import('./hook.js')).registerHook },
  { names: ['hooks'], load: async () => (await import('./hooks.js')).registerHooks },
  { names: ['fork'], load: async () => (await import('./fork.js')).registerFork },
  { names: ['verify'], load: async () => (await import('./verify.js')).registerVerify },
  { names: ['bisect'], load: async () => (await import('./bisect.js')).registerBisect },
  { names: ['approve', 'deny'], load: async () => (await import('./approve.js')).registerApprove },
  { names: ['mcp'], load: async () => (await import('./mcp.js')).registerMcp },
  { names: ['check'], load: async () => (await import('./check.js')).registerCheck },
  { names: ['upkeep'], load: async () => (await import('./upkeep.js')).registerUpkeep },
  // One `share` command, two modules: the push side (enable, status, disable, push) and pull.
  {
    names: ['share'],
    load: async () => {
      const [push, pull] = await Promise.all([import('./share.js'), import('./share-pull.js')]);
      return (program) => {
        push.registerShare(program);
        pull.registerSharePull(program);
      };
    },
  },
];

/** Every command name, for checks that the table and the modules agree. */
export const COMMAND_NAMES: readonly string[] = COMMAND_MODULES.flatMap((m) => m.names);

/** The commands a run needs: the one `name` names, else every one (help, a suggestion for a typo). */
export async function loadCommands(name: string | undefined): Promise<RegisterCommand[]> {
  const one = COMMAND_MODULES.find((m) => name !== undefined && m.names.includes(name));
  return Promise.all((one ? [one] : COMMAND_MODULES).map((m) => m.load()));
}
