// The CLI loads only the module of the command it is given (commands/index.ts):
// a name missing from that table, or filed under the wrong module, would turn a
// working command into "unknown command". Both directions are checked here.
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../electron/cli/program.js';
import { COMMAND_NAMES } from '../../electron/cli/commands/index.js';

const namesOf = (command: { name(): string; aliases(): string[] }): string[] => [command.name(), ...command.aliases()];

describe('the command table', () => {
  it('names every command and alias the modules register, and nothing else', async () => {
    const all = await buildProgram(['node', 'chronoscope', '--help']);
    const registered = all.commands.flatMap(namesOf);
    expect([...registered].sort()).toEqual([...COMMAND_NAMES].sort());
  });

  it.each(COMMAND_NAMES)('loads the module that registers %s when it is the command given', async (name) => {
    const program = await buildProgram(['node', 'chronoscope', name]);
    expect(program.commands.flatMap(namesOf)).toContain(name);
    expect(program.commands.length).toBeLessThan(COMMAND_NAMES.length);
  });
});
