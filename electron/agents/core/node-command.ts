// The command line an agent runs to reach Chronoscope: the absolute path of
// the Node binary that ran the installer and of the built CLI, quoted for
// spaces. Agents start hooks with a PATH of their own (Claude Code's native
// binary needs no `node` on it), so `node …` alone may not exist there.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** POSIX shell quoting (Claude Code runs hook commands through a POSIX shell, also on Windows). */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The built CLI's entry, the package's bin (this file is dist/electron/agents/core/node-command.js). */
export function cliEntryPath(): string {
  return fileURLToPath(new URL('../../cli/bin.cjs', import.meta.url));
}

export interface NodeCli {
  node: string;
  cli: string;
  /**
   * The store the hook writes to: CHRONOSCOPE_HOME as it was set when the hook was installed
   * (absolute). Written into the installed command, since the agent that runs the hook may not
   * have the variable, and would then make a second store in the default place. Absent: the default.
   */
  store?: string;
}

export function currentNodeCli(env: NodeJS.ProcessEnv = process.env): NodeCli {
  const store = env['CHRONOSCOPE_HOME'];
  return { node: process.execPath, cli: cliEntryPath(), ...(store ? { store: path.resolve(store) } : {}) };
}

/**
 * What a hook command sets for its own process. NODE_EXTRA_CA_CERTS, which many shells set (a
 * company's certificate authority), makes Node read that file before any of our code runs: ~40 ms
 * of every hook process, which opens no TLS connection. Emptied, Node reads nothing.
 */
export const HOOK_ENV: Readonly<Record<string, string>> = { NODE_EXTRA_CA_CERTS: '' };

/** What a hook installed for `paths` sets for its process: HOOK_ENV, and the store it was installed for. */
export function hookEnv(paths: Pick<NodeCli, 'store'>): Record<string, string> {
  return { ...HOOK_ENV, ...(paths.store === undefined ? {} : { CHRONOSCOPE_HOME: paths.store }) };
}

/** hookEnv as assignments in front of a shell command: `NODE_EXTRA_CA_CERTS= CHRONOSCOPE_HOME=/a `. */
export function hookEnvAssignments(paths: Pick<NodeCli, 'store'>): string {
  return Object.entries(hookEnv(paths))
    .map(([name, value]) => `${name}=${value === '' ? '' : shellQuote(value)} `)
    .join('');
}

/** `'/usr/bin/node' '/x/dist/electron/cli/bin.cjs'`: the prefix every installed command starts with. */
export function cliPrefix(paths: NodeCli = currentNodeCli()): string {
  return `${shellQuote(paths.node)} ${shellQuote(paths.cli)}`;
}

/** A command line split into words as a POSIX shell would for what shellQuote writes (quotes and backslashes). */
function shellWords(command: string): string[] {
  return (command.match(/(?:'[^']*'|\\.|[^\s'\\])+/g) ?? []).map((w) => w.replace(/'([^']*)'|\\(.)/g, (_m, quoted: string | undefined, escaped: string | undefined) => quoted ?? escaped ?? ''));
}

/**
 * Splits a command written by hookEnvAssignments + cliPrefix back into its two paths and the store
 * it names (for `hooks status`), past the `NAME=value` words in front; null if it is not one.
 */
export function parseCliPrefix(command: string): NodeCli | null {
  const words = shellWords(command);
  let store: string | undefined;
  while (words[0] !== undefined && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0])) {
    const word = words.shift()!;
    if (word.startsWith('CHRONOSCOPE_HOME=')) store = word.slice('CHRONOSCOPE_HOME='.length) || undefined;
  }
  const [node, cli] = words;
  return node === undefined || cli === undefined ? null : { node, cli, ...(store === undefined ? {} : { store }) };
}
