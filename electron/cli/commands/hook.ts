// chronoscope hook claude-code: the command Claude Code runs around its tools.
// It reads one JSON object on stdin and prints at most one JSON object. Every
// outcome is exit 0 (fail open): the agent is never held up by our failure.
import type { Command } from 'commander';
import { openStore } from '../../engine/index.js';
import { runClaudeCodeHook } from '../../hooks/claude-code.js';

/** Reads stdin to its end; gives '' for a terminal (nobody is piping a payload). */
function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return Promise.resolve('');
  return new Promise((resolveText, reject) => {
    const chunks: Buffer[] = [];
    process.stdin.on('data', (chunk: Buffer) => chunks.push(chunk));
    process.stdin.on('end', () => resolveText(Buffer.concat(chunks).toString('utf8')));
    process.stdin.on('error', reject);
  });
}

function budgetOverride(): number | undefined {
  const raw = process.env['CHRONOSCOPE_HOOK_BUDGET_MS'];
  if (raw === undefined || !/^[0-9]+$/.test(raw)) return undefined;
  const ms = Number(raw);
  return ms > 0 ? ms : undefined;
}

export function registerHook(program: Command): void {
  const hook = program.command('hook').description('entry points for agent hooks (run by the agent, not by hand)');
  hook
    .command('claude-code')
    .description("Claude Code's PreToolUse/PostToolUse hook: checkpoint first, ask before irreversible effects")
    // Claude Code reads exit code 2 as "block the tool": a stray argument must never become a usage error.
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async () => {
      const warn = (line: string): void => {
        process.stderr.write(`${line}\n`);
      };
      const failOpen = (err: unknown): void => {
        warn(`chronoscope: hook failed open: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
        process.exit(0);
      };
      process.on('uncaughtException', failOpen);
      process.on('unhandledRejection', failOpen);
      try {
        const override = budgetOverride();
        const answer = await runClaudeCodeHook(readStdin(), {
          openStore: () => openStore(),
          ...(override === undefined ? {} : { budgetOverrideMs: override }),
          warn,
        });
        if (answer.output !== null) process.stdout.write(`${JSON.stringify(answer.output)}\n`);
      } catch (err) {
        failOpen(err);
      }
      // Exit now: abandoned work (a snapshot past the budget) must not keep the agent waiting.
      // The engine moves a checkpoint's ref last, so a snapshot cut short leaves no half checkpoint.
      process.stdout.write('', () => process.exit(0));
    });
}
