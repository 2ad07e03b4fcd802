// chronoscope hook <agent>: listed here for `--help`; main.ts sends `hook`
// to the lean entry (electron/agents/hook-entry.ts) before commander loads,
// so this action only runs if something calls the program another way.
import type { Command } from 'commander';

export function registerHook(program: Command): void {
  program
    .command('hook')
    .description('entry points for agent hooks (run by the agent, not by hand)')
    .argument('<agent>', 'claude-code')
    // Claude Code reads exit code 2 as "block the tool": a stray argument must never become a usage error.
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async (agent: string) => {
      const { runHookCommand } = await import('../../agents/hook-entry.js');
      await runHookCommand([agent]);
    });
}
