// chronoscope verify <id>: run the person's verifier against a checkpoint in a
// scratch copy and record the outcome. Exit 0 passed, 3 failed, 1 error.
import type { Command } from 'commander';
import type { VerificationRecord } from '../../../shared/model.js';
import { verifyCheckpoint } from '../../verify/verify.js';
import { checkRef, ExitWith, openCliStore, openWorkspace, withCommonOptions, type CommonOptions, OWN_CHECKPOINT_ARG_HELP } from '../context.js';
import { abortOnInterrupt } from '../interrupt.js';
import { checkpointName } from '../format.js';
import { describeOne } from '../../engine/words.js';
import { printJson, printLines, style } from '../output.js';

export const EXIT_VERIFY_FAILED = 3;

export interface VerifierOptions extends CommonOptions {
  verifier?: string;
}

/** Notes (what was linked, what `auto` chose) go to stderr so --json stays clean. */
export function noteToStderr(line: string): void {
  process.stderr.write(`chronoscope: ${line}\n`);
}

type VerificationJson = Pick<VerificationRecord, 'id' | 'passed' | 'exit_code' | 'duration_ms' | 'command' | 'output_tail'> & {
  dependencies_changed: boolean;
  dependencies_changed_paths: string[];
};

/** The fixed JSON shape of a verification (issue 13's interface, and whether the verifier changed the workspace's dependencies). */
export function verificationJson(r: VerificationRecord): VerificationJson {
  return {
    id: r.id,
    passed: r.passed,
    exit_code: r.exit_code,
    duration_ms: r.duration_ms,
    command: r.command,
    output_tail: r.output_tail,
    dependencies_changed: r.dependencies_changed === true,
    dependencies_changed_paths: r.dependencies_changed_paths ?? [],
  };
}

/** `name`: the checkpoint by its title and time, the id second (format.ts checkpointName). */
export function verificationLines(r: VerificationRecord, name: string): string[] {
  const outcome = r.passed ? style.added('passed') : style.removed(r.timed_out ? 'failed (time limit)' : 'failed');
  const lines = [`${name} ${outcome} in ${(r.duration_ms / 1000).toFixed(1)} s: ${r.command}${r.exit_code === null ? '' : ` (exit ${r.exit_code})`}`];
  if (r.dependencies_changed) {
    const paths = r.dependencies_changed_paths ?? [];
    lines.push(style.removed(`warning: the verifier changed the workspace's dependencies: ${paths.slice(0, 5).join(', ')}${paths.length > 5 ? ', …' : ''}`));
  }
  if (!r.passed && r.output_tail !== '') lines.push(style.dim('--- last lines of output ---'), r.output_tail);
  lines.push(style.dim(`full output: ${r.log}`));
  return lines;
}

export function registerVerify(program: Command): void {
  withCommonOptions(
    program
      .command('verify')
      .description("run the workspace's verifier (its tests) against a checkpoint, in a scratch copy outside the workspace")
      .argument('<id>', OWN_CHECKPOINT_ARG_HELP)
      .option('--verifier <command>', "command line to run (platform shell, in the copy's root), or 'auto'; default: the workspace's verifier setting"),
  ).action(async (id: string, options: VerifierOptions) => {
    const ref = checkRef(id);
    const workspace = await openWorkspace(options);
    const store = await openCliStore();
    const interrupt = abortOnInterrupt();
    let record: VerificationRecord;
    try {
      record = await verifyCheckpoint(store, workspace, ref, {
        ...(options.verifier !== undefined ? { verifier: options.verifier } : {}),
        signal: interrupt.signal,
        onNote: noteToStderr,
      });
    } finally {
      interrupt.dispose();
    }
    if (options.json) printJson(verificationJson(record));
    else {
      const cp = await workspace.resolve(record.id);
      printLines(verificationLines(record, checkpointName(cp, (await describeOne(workspace, cp)).title)));
    }
    if (!record.passed) throw new ExitWith(EXIT_VERIFY_FAILED);
  });
}
