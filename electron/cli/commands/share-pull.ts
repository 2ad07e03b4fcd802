// chronoscope share pull: teammates' checkpoints from the team's git remote
// (electron/share/pull.ts). Registered under `share`, which the push side
// (enable, disable, status, push) shares: whichever module runs first makes it.
import type { Command } from 'commander';
import { checkedWorkspaceDir, openCliStore, withCommonOptions, type CommonOptions } from '../context.js';
import { formatBytes, plural, printJson, printLine } from '../output.js';
import { pullTarget, sharePull } from '../../share/pull.js';

interface PullCommandOptions extends CommonOptions {
  remote?: string;
}

/** The `share` command, made once whichever of its subcommands' modules registers first. */
export function shareCommand(program: Command): Command {
  return program.commands.find((c) => c.name() === 'share') ?? program.command('share').description("share this workspace's checkpoints with your team over its own git remote");
}

export function registerSharePull(program: Command): void {
  withCommonOptions(
    shareCommand(program)
      .command('pull')
      .description("fetch your teammates' checkpoints from the git remote (file contents come when a diff or restore needs them)")
      .option('--remote <name>', "the git remote to read (default: the current branch's upstream remote, else the only remote)"),
  ).action(async (options: PullCommandOptions) => {
    const { dir } = await checkedWorkspaceDir(options);
    const store = await openCliStore();
    const workspace = await store.workspace(dir);
    const target = pullTarget(store.home, workspace.meta.id, workspace.root);
    const progress = options.json ? undefined : (line: string): void => void process.stderr.write(`chronoscope: ${line}\n`);
    const result = await sharePull(target, { ...(options.remote !== undefined ? { remote: options.remote } : {}), ...(progress ? { onProgress: progress } : {}) });
    const shared = (await workspace.list({ lanes: true })).filter((c) => c.shared).length;
    if (options.json) {
      printJson({ ...result, shared_checkpoints: shared });
      return;
    }
    const how = result.filtered ? 'file contents come when needed' : 'the remote cannot filter: file contents came too';
    const removed = result.removed === 0 ? '' : `; ${plural(result.removed, 'ref')} the remote no longer has removed`;
    printLine(`pulled from ${result.remote}: ${plural(result.clones, "teammate's clone", "teammates' clones")}, ${plural(shared, 'shared checkpoint')} (${result.updated === 0 ? 'nothing new' : `${plural(result.updated, 'ref')} updated, ${formatBytes(result.bytes)}`}${removed}; ${how})`);
  });
}
