// The workspaces one MCP server serves, fixed by the person when it starts
// (`chronoscope mcp --workspace W …`). An agent names one of them, never a
// new one: a tool call cannot make the server register or touch any other folder.
import fs from 'node:fs/promises';
import path from 'node:path';
import { ChronoscopeError } from '../../shared/errors.js';
import type { Store, Workspace } from '../engine/api.js';
import { openStore } from '../engine/index.js';

export class ServedWorkspaces {
  private constructor(
    readonly storeHome: string,
    readonly roots: readonly string[],
  ) {}

  static async open(dirs: readonly string[], storeHome?: string): Promise<ServedWorkspaces> {
    const store = await openStore(storeHome !== undefined ? { home: storeHome } : {});
    const roots: string[] = [];
    for (const dir of dirs) roots.push((await store.workspace(dir)).root);
    return new ServedWorkspaces(store.home, [...new Set(roots)]);
  }

  get many(): boolean {
    return this.roots.length > 1;
  }

  /** The real root of the workspace the agent named (optional when only one is served). */
  async root(requested: string | undefined): Promise<string> {
    if (requested === undefined) {
      if (this.roots.length === 1) return this.roots[0] as string;
      throw new ChronoscopeError('bad_input', `name a workspace: this server serves ${this.roots.join(', ')}`);
    }
    const real = await fs.realpath(path.resolve(requested)).catch(() => path.resolve(requested));
    if (!this.roots.includes(real)) throw new ChronoscopeError('refused', `${requested} is not served here (served: ${this.roots.join(', ')})`);
    return real;
  }

  /**
   * The store and the workspace, opened fresh for each call so that settings the
   * person changed meanwhile (the verifier) are the ones used.
   */
  async open(requested: string | undefined): Promise<{ store: Store; workspace: Workspace }> {
    const root = await this.root(requested);
    const store = await openStore({ home: this.storeHome });
    return { store, workspace: await store.workspace(root) };
  }
}
