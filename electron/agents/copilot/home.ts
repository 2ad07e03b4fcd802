// Copilot CLI's own folder: $COPILOT_HOME, else ~/.copilot (as Copilot
// resolves it: its configDir option, then COPILOT_HOME, then the home).
import path from 'node:path';

export function copilotHome(home: string, env: NodeJS.ProcessEnv = process.env): string {
  const own = env['COPILOT_HOME'];
  return own !== undefined && own !== '' ? own : path.join(home, '.copilot');
}
