// Builds the commander program and runs it, mapping every outcome to the exit
// codes the CLI promises: 0 done, 1 error (one line on stderr), 2 usage.
import { Command, CommanderError } from 'commander';
import { loadCommands } from './commands/index.js';
import { ExitWith } from './context.js';
import { errorLine } from './output.js';

export const EXIT_OK = 0;
export const EXIT_ERROR = 1;
export const EXIT_USAGE = 2;

const VERSION = '0.1.0';

/** The program with the commands `argv` needs (its command's alone when it names one). */
export async function buildProgram(argv: readonly string[]): Promise<Command> {
  const program = new Command('chronoscope')
    .description('Checkpoints of a workspace in a private shadow git store: list, diff, restore.')
    .version(VERSION, '-V, --version')
    // Settings made here are inherited by every subcommand created with .command().
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureOutput({
      // Commander prefixes its messages with "error: " and puts "(Did you mean …?)" on a
      // line of its own; ours are one line starting "chronoscope: ".
      outputError: (message, write) =>
        write(`chronoscope: ${message.replace(/^error: /, '').trim().replace(/\s*\n\s*/g, ' ')}\n`),
    });
  for (const register of await loadCommands(argv[2])) register(program);
  // The hint names the subcommand that was used, so it goes on each one.
  for (const command of program.commands) {
    command.showHelpAfterError(`(run 'chronoscope ${command.name()} --help' for usage)`);
  }
  program.showHelpAfterError("(run 'chronoscope --help' for usage)");
  return program;
}

/** Runs the CLI and resolves to the exit code; never throws. */
export async function run(argv: readonly string[]): Promise<number> {
  if (argv.length <= 2) {
    // Commander would print the whole help to stderr; one line and a hint is kinder.
    process.stderr.write("chronoscope: missing command\n(run 'chronoscope --help' for usage)\n");
    return EXIT_USAGE;
  }
  const program = await buildProgram(argv);
  try {
    await program.parseAsync([...argv], { from: 'node' });
    return EXIT_OK;
  } catch (err) {
    if (err instanceof CommanderError) return commanderExitCode(err);
    if (err instanceof ExitWith) return err.exitCode;
    process.stderr.write(`${errorLine(err)}\n`);
    return EXIT_ERROR;
  }
}

function commanderExitCode(err: CommanderError): number {
  // Help and version were asked for and printed: success.
  if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return EXIT_OK;
  // Everything else commander raises (unknown option or command, missing or invalid
  // argument, no command at all) is a usage error; commander already printed it.
  return EXIT_USAGE;
}
