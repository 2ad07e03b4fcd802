// The command line an agent runs to reach Chronoscope: the absolute path of
// the Node binary that ran the installer and of the built CLI, quoted for
// spaces. Agents start hooks with a PATH of their own (Claude Code's native
// binary needs no `node` on it), so `node …` alone may not exist there.
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
}

export function currentNodeCli(): NodeCli {
  return { node: process.execPath, cli: cliEntryPath() };
}

/**
 * What a hook command sets for its own process. NODE_EXTRA_CA_CERTS, which many shells set (a
 * company's certificate authority), makes Node read that file before any of our code runs: ~40 ms
 * of every hook process, which opens no TLS connection. Emptied, Node reads nothing.
 */
export const HOOK_ENV: Readonly<Record<string, string>> = { NODE_EXTRA_CA_CERTS: '' };

/** HOOK_ENV as assignments in front of a shell command: `NODE_EXTRA_CA_CERTS= `. */
export function hookEnvAssignments(): string {
  return Object.entries(HOOK_ENV)
    .map(([name, value]) => `${name}=${value === '' ? '' : shellQuote(value)} `)
    .join('');
}

/** `'/usr/bin/node' '/x/dist/electron/cli/bin.cjs'`: the prefix every installed command starts with. */
export function cliPrefix(paths: NodeCli = currentNodeCli()): string {
  return `${shellQuote(paths.node)} ${shellQuote(paths.cli)}`;
}

/** Splits a prefix written by cliPrefix back into its two paths (for `hooks status`), past any `NAME=value` in front; null if it is not one. */
export function parseCliPrefix(command: string): NodeCli | null {
  const words: string[] = [];
  const re = /'((?:[^']|'\\'')*)'|(\S+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(command)) !== null && words.length < 2) {
    if (words.length === 0 && m[2] !== undefined && /^[A-Za-z_][A-Za-z0-9_]*=/.test(m[2])) continue;
    words.push(m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : (m[2] ?? ''));
  }
  const [node, cli] = words;
  return node === undefined || cli === undefined ? null : { node, cli };
}
