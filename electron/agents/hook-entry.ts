// `chronoscope hook <agent>`: the process an agent starts around its tool
// calls, so the product's hottest path. The CLI's main dispatches here before
// loading anything else (no command parser, no UI, no engine unless the hook
// must work alone). It reads one JSON object on stdin, prints at most one,
// and always exits 0 (fail open): Claude Code reads exit 2 as "block the tool".
// Which agent's protocol it speaks is its adapter's (hook-adapters.ts).
import { HOOK_ADAPTERS, hookAdapter } from './hook-adapters.js';

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

function warn(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** Runs `chronoscope hook <args…>` and exits the process. */
export async function runHookCommand(args: readonly string[]): Promise<never> {
  const failOpen = (err: unknown): void => {
    warn(`chronoscope: hook failed open: ${err instanceof Error ? (err.message.split('\n')[0] ?? '') : String(err)}`);
    process.exit(0);
  };
  process.on('uncaughtException', failOpen);
  process.on('unhandledRejection', failOpen);
  const agent = args[0];
  const override = budgetOverride();
  const env = {
    ...(override === undefined ? {} : { budgetOverrideMs: override }),
    local: process.env['CHRONOSCOPE_NO_DELEGATE'] === '1',
    warn,
  };
  const adapter = hookAdapter(agent ?? '');
  if (adapter !== undefined) {
    const output = await adapter.run(readStdin(), env);
    if (output !== null) process.stdout.write(`${JSON.stringify(output)}\n`);
  } else {
    warn(`chronoscope: hook: unknown agent ${JSON.stringify(agent ?? '')} (known: ${HOOK_ADAPTERS.map((a) => a.id).join(', ')}); ignored`);
  }
  // Exit now: abandoned work (a snapshot past the budget) must not keep the agent waiting.
  // The engine moves a checkpoint's ref last, so a snapshot cut short leaves no half checkpoint.
  return new Promise<never>(() => process.stdout.write('', () => process.exit(0)));
}
