// hooks install claude-code --mcp: our server entry lands in the project's
// .mcp.json beside any other server, and the entry as written really starts a
// working MCP server.
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeSandbox, type Sandbox } from '../cli/run-cli.js';

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox();
});
afterEach(() => sb.cleanup());

interface McpConfig {
  mcpServers: Record<string, { command: string; args: string[] }>;
}

it('registers the MCP server in .mcp.json, keeping other servers, and the entry starts a server', async () => {
  const configFile = path.join(sb.workspace, '.mcp.json');
  fs.writeFileSync(configFile, JSON.stringify({ mcpServers: { other: { command: 'other-server', args: [] } } }));
  const run = sb.cli(['hooks', 'install', 'claude-code', '--mcp', '--json']);
  expect(run.code, run.stderr).toBe(0);
  expect(JSON.parse(run.stdout).mcp).toEqual({ path: configFile, changed: true });
  const config = JSON.parse(fs.readFileSync(configFile, 'utf8')) as McpConfig;
  expect(config.mcpServers['other']).toEqual({ command: 'other-server', args: [] });
  const ours = config.mcpServers['chronoscope'];
  expect(ours?.args.slice(1)).toEqual(['mcp', '--workspace', sb.workspace]);
  // Installing again changes nothing.
  expect(JSON.parse(sb.cli(['hooks', 'install', 'claude-code', '--mcp', '--json']).stdout).mcp.changed).toBe(false);

  const client = new Client({ name: 'claude-code-like', version: '0' });
  await client.connect(new StdioClientTransport({ command: ours?.command === 'node' ? process.execPath : (ours?.command ?? ''), args: ours?.args ?? [], env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', CHRONOSCOPE_HOME: sb.home }, stderr: 'pipe' }));
  try {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('request_restore');
  } finally {
    await client.close();
  }
});

it('hooks uninstall claude-code --mcp takes out only our entry, keeping other servers and keys', () => {
  const configFile = path.join(sb.workspace, '.mcp.json');
  fs.writeFileSync(configFile, JSON.stringify({ note: 'mine', mcpServers: { other: { command: 'other-server', args: [] } } }));
  expect(sb.cli(['hooks', 'install', 'claude-code', '--mcp']).code).toBe(0);
  const run = sb.cli(['hooks', 'uninstall', 'claude-code', '--mcp', '--json']);
  expect(run.code, run.stderr).toBe(0);
  expect(JSON.parse(run.stdout).mcp).toEqual({ path: configFile, changed: true });
  expect(JSON.parse(fs.readFileSync(configFile, 'utf8'))).toEqual({ note: 'mine', mcpServers: { other: { command: 'other-server', args: [] } } });
  // Again: nothing of ours is left, nothing is written.
  const again = sb.cli(['hooks', 'uninstall', 'claude-code', '--mcp']);
  expect(again.stdout).toContain(`MCP server not registered: ${configFile}`);
  // A file that is not JSON is refused with one line; it and the hooks are left as they were.
  expect(sb.cli(['hooks', 'install', 'claude-code']).code).toBe(0);
  const settingsFile = path.join(sb.workspace, '.claude', 'settings.json');
  const hooksBefore = fs.readFileSync(settingsFile, 'utf8');
  fs.writeFileSync(configFile, '{ not json');
  const bad = sb.cli(['hooks', 'uninstall', 'claude-code', '--mcp']);
  expect(bad.code).toBe(1);
  expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  expect(fs.readFileSync(configFile, 'utf8')).toBe('{ not json');
  expect(fs.readFileSync(settingsFile, 'utf8')).toBe(hooksBefore);
});
