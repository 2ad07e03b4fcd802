// chronoscope upkeep: delta-compress the store's objects when they are due
// (engine/upkeep.ts). CLI commands start `upkeep --background` detached after
// their work when it is due; a person may run it (or --force it) by hand.
import os from 'node:os';
import type { Command } from 'commander';
import { resolveStoreHome } from '../../engine/index.js';
import { storeLayout } from '../../engine/layout/paths.js';
import { loadSettings } from '../../engine/layout/settings-file.js';
import { upkeepIfDue } from '../../engine/upkeep.js';
import { formatBytes, printJson, printLine } from '../output.js';

interface UpkeepCommandOptions {
  json?: boolean;
  force?: boolean;
  background?: boolean;
}

export function registerUpkeep(program: Command): void {
  program
    .command('upkeep')
    .description("delta-compress the store's objects if enough have piled up (runs on its own in the background)")
    .option('--force', 'compress the whole store anew, even when not due')
    .option('--background', 'quiet, at the lowest priority (how commands start it)')
    .option('--json', 'print machine-readable JSON')
    .action(async (options: UpkeepCommandOptions) => {
      const home = await resolveStoreHome();
      if (options.background) {
        // Started by a command when due; the person may have turned it off since (settings: upkeep false).
        if (!(await loadSettings(storeLayout(home).configFile).catch(() => null))?.upkeep) return;
        try {
          // The whole process yields the CPU: its git children inherit the priority.
          os.setPriority(19);
        } catch {
          /* not allowed: git is still lowered (engine/upkeep.ts) */
        }
      }
      const controller = new AbortController();
      // Interrupted: git is stopped; the store stays as it was (every step keeps it whole).
      const stop = (): void => controller.abort();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      const result = await upkeepIfDue(home, { force: options.force === true, signal: controller.signal });
      if (options.background) return;
      if (options.json) {
        printJson(result);
        return;
      }
      const refs = result.refs_packed > 0 ? `; ${result.refs_packed} loose refs packed` : '';
      printLine(
        !result.ran
          ? `nothing done: ${result.reason}`
          : result.kind === null
            ? `refs packed (${result.reason}): ${result.refs_packed} loose refs into packed-refs, ${(result.duration_ms / 1000).toFixed(1)} s`
            : `compressed (${result.reason}): objects ${formatBytes(result.before.bytes)} in ${result.before.files} files → ${formatBytes(result.after.bytes)} in ${result.after.files} files${refs}, ${(result.duration_ms / 1000).toFixed(1)} s`,
      );
    });
}
