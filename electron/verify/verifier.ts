// Which command verifies a checkpoint. The person names it: `--verifier` on the
// command line, else the `verifier` setting for this workspace (config.json in
// the store). Never an agent, never a file in the workspace. The literal
// `auto` picks one of four well-known test commands from what the checkpoint
// contains, and says which and why.
import fs from 'node:fs/promises';
import path from 'node:path';
import { ChronoscopeError } from '../../shared/errors.js';
import type { Settings } from '../../shared/settings.js';

export const AUTO = 'auto';

/** What the person set: the option wins over the setting. */
export function configuredVerifier(settings: Settings, workspaceRoot: string, option?: string): { command: string; source: 'option' | 'settings' } {
  if (option !== undefined) {
    const command = option.trim();
    if (command === '') throw new ChronoscopeError('bad_input', '--verifier is empty');
    return { command, source: 'option' };
  }
  const fromSettings = settings.verifier[workspaceRoot];
  if (fromSettings === undefined) {
    throw new ChronoscopeError(
      'bad_input',
      `no verifier is set for ${workspaceRoot}: pass --verifier "<command>" (or --verifier auto), or set "verifier": {"${workspaceRoot}": "<command>"} in the settings`,
    );
  }
  return { command: fromSettings, source: 'settings' };
}

async function isFile(file: string): Promise<boolean> {
  return fs.stat(file).then(
    (s) => s.isFile(),
    () => false,
  );
}

/** npm's placeholder script when `npm init` made the package: it always fails. */
const NPM_PLACEHOLDER = /no test specified/;

async function npmTestScript(dir: string): Promise<boolean> {
  try {
    const pkg = JSON.parse(await fs.readFile(path.join(dir, 'package.json'), 'utf8')) as { scripts?: Record<string, unknown> };
    const test = pkg.scripts?.['test'];
    return typeof test === 'string' && test.trim() !== '' && !NPM_PLACEHOLDER.test(test);
  } catch {
    return false;
  }
}

const PYTEST_MARKERS = ['pytest.ini', 'conftest.py', 'pyproject.toml', 'setup.cfg', 'tox.ini', 'setup.py'];

/** For `auto`: the first of npm test, cargo test, go test, pytest the checkpoint's files call for. */
export async function detectVerifier(dir: string): Promise<{ command: string; why: string }> {
  if (await npmTestScript(dir)) return { command: 'npm test', why: 'package.json has a test script' };
  if (await isFile(path.join(dir, 'Cargo.toml'))) return { command: 'cargo test', why: 'Cargo.toml is present' };
  if (await isFile(path.join(dir, 'go.mod'))) return { command: 'go test ./...', why: 'go.mod is present' };
  for (const marker of PYTEST_MARKERS) {
    if (await isFile(path.join(dir, marker))) return { command: 'python -m pytest', why: `${marker} is present` };
  }
  throw new ChronoscopeError('bad_input', 'auto found no test command in this checkpoint (looked for a package.json test script, Cargo.toml, go.mod, pytest files); set the verifier yourself');
}
