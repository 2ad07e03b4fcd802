// chronoscope mcp: a Model Context Protocol server on stdin/stdout for agents.
// stdout carries the protocol and nothing else: errors before it starts go to
// stderr as one line, like every command.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Command } from 'commander';
import { createMcpServer } from '../../mcp/server.js';
import { ServedWorkspaces } from '../../mcp/workspaces.js';
import { checkWorkspaceDir, resolveStoreHome } from '../../engine/index.js';
import { collect, workspaceDir } from '../context.js';

interface McpOptions {
  workspace?: string[];
}

export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description('serve checkpoints to agents over the Model Context Protocol (stdio)')
    .option('-w, --workspace <dir>', 'a workspace to serve (repeatable; default: the current directory)', collect)
    .action(async (options: McpOptions) => {
      const dirs = (options.workspace ?? [undefined]).map((w) => workspaceDir(w === undefined ? {} : { workspace: w }));
      const storeHome = await resolveStoreHome();
      for (const dir of dirs) await checkWorkspaceDir(dir, storeHome);
      const server = createMcpServer(await ServedWorkspaces.open(dirs));
      const closed = new Promise<void>((resolve) => {
        server.server.onclose = () => resolve();
      });
      await server.connect(new StdioServerTransport());
      // The client closing its end of stdin is the end of the session.
      process.stdin.once('end', () => void server.close());
      await closed;
    });
}
