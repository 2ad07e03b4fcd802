// Builds the commander program and runs it, mapping every outcome to the exit
// codes the CLI promises: 0 done, 1 error (one line on stderr), 2 usage
// (unknown option or command, malformed id or path), 3 a check that found
// something (thrown by the command as ExitWith). With --json the error is one
// JSON object on stderr instead of the line.
import { Command, CommanderError } from 'commander';
import { UsageError } from '../../shared/errors.js';
import { loadCommands } from './commands/index.js';
import { ExitWith } from './context.js';
import { printError, usageText, wantsJson } from './output.js';

export const EXIT_OK = 0;
export const EXIT_ERROR = 1;
export const EXIT_USAGE = 2;

const VERSION = '0.1.0';

/** The program with the commands `argv` needs (its command's alone when it names one). */
export async function buildProgram(argv: readonly string[]): Promise<Command> {
  const json = wantsJson(argv);
  const program = new Command('chronoscope')
    .description('Checkpoints of a workspace in a private shadow git store: list, diff, restore.')
    .version(VERSION, '-V, --version')
    // Settings made here are inherited by every subcommand created with .command().
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureOutput({
      // Commander prefixes its messages with "error: " and puts "(Did you mean …?)" and the help
      // hint on lines of their own; ours are one line starting "chronoscope: ", the hint at its end.
      outputError: (message) => void process.stderr.write(`${usageText(message, json)}${json ? '' : ` ${helpHint(program, argv[2])}`}\n`),
    });
  for (const register of await loadCommands(argv[2])) register(program);
  return program;
}

/** The hint names the subcommand that was used, when one was. */
function helpHint(program: Command, name: string | undefined): string {
  const used = program.commands.find((command) => command.name() === name);
  return `(run 'chronoscope ${used ? `${used.name()} ` : ''}--help' for usage)`;
}

/** Runs the CLI and resolves to the exit code; never throws. */
export async function run(argv: readonly string[]): Promise<number> {
  if (argv.length <= 2) {
    // Commander would print the whole help to stderr; one line and a hint is kinder.
    process.stderr.write("chronoscope: missing command (run 'chronoscope --help' for usage)\n");
    return EXIT_USAGE;
  }
  const program = await buildProgram(argv);
  try {
    await program.parseAsync([...argv], { from: 'node' });
    return EXIT_OK;
  } catch (err) {
    if (err instanceof CommanderError) return commanderExitCode(err);
    if (err instanceof ExitWith) return err.exitCode;
    const code = exitCodeOf(err);
    printError(err, code, wantsJson(argv));
    return code;
  }
}

/** A malformed request is a usage error (2); anything else that failed is 1. */
export function exitCodeOf(err: unknown): number {
  return err instanceof UsageError ? EXIT_USAGE : EXIT_ERROR;
}

function commanderExitCode(err: CommanderError): number {
  // Help and version were asked for and printed: success.
  if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return EXIT_OK;
  // Everything else commander raises (unknown option or command, missing or invalid
  // argument, no command at all) is a usage error; commander already printed it.
  return EXIT_USAGE;
}
