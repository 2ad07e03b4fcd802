// chronoscope bisect --good <id> --bad <id>: verify as few checkpoints between
// the two as it takes to name the first failing one. Progress on stderr, the
// answer on stdout; both ends are trusted, not re-run.
import type { Command } from 'commander';
import type { BisectResult } from '../../../shared/model.js';
import type { Workspace } from '../../engine/api.js';
import { bisect, type BisectProgress } from '../../verify/bisect.js';
import { verifyCheckpoint } from '../../verify/verify.js';
import { checkRef, openCliStore, openWorkspace, withCommonOptions } from '../context.js';
import { changeList, checkpointName, checkpointSummary } from '../format.js';
import { describeOne } from '../../engine/words.js';
import { abortOnInterrupt } from '../interrupt.js';
import { printJson, printLines, shellQuote, shortId, style } from '../output.js';
import { noteToStderr, type VerifierOptions } from './verify.js';

interface BisectOptions extends VerifierOptions {
  good: string;
  bad: string;
}

function progressLine(p: BisectProgress): string {
  if (p.passed === undefined) return `verifying ${shortId(p.id)} (run ${p.done + 1}, at most ${p.done + p.remaining_at_most + 1} in all)`;
  return `${shortId(p.id)} ${p.passed ? 'passed' : 'failed'}; at most ${p.remaining_at_most} more run${p.remaining_at_most === 1 ? '' : 's'}`;
}

async function resultLines(workspace: Workspace, result: BisectResult): Promise<string[]> {
  const [bad, good, diff] = await Promise.all([workspace.resolve(result.first_bad), workspace.resolve(result.last_good), workspace.diff(result.last_good, result.first_bad)]);
  const [badWords, goodWords] = await Promise.all([describeOne(workspace, bad), describeOne(workspace, good)]);
  const where = shellQuote(workspace.root);
  return [
    `It broke at ${checkpointName(bad, badWords.title)}; the last passing checkpoint is ${checkpointName(good, goodWords.title)}.`,
    `first failing: ${checkpointSummary(bad)}`,
    `last passing:  ${checkpointSummary(good)}`,
    style.dim(`${result.runs.length} verifier run${result.runs.length === 1 ? '' : 's'}; what changed between them:`),
    ...changeList(diff.files),
    style.dim(`restore either (preview first): chronoscope restore ${shortId(good.id)} --workspace ${where}   |   chronoscope restore ${shortId(bad.id)} --workspace ${where}`),
  ];
}

export function registerBisect(program: Command): void {
  withCommonOptions(
    program
      .command('bisect')
      .description('find the first checkpoint where the verifier fails, between a passing and a failing one')
      .requiredOption('--good <id>', 'a checkpoint that passes (trusted, not re-run)')
      .requiredOption('--bad <id>', 'a later checkpoint that fails (trusted, not re-run)')
      .option('--verifier <command>', "command line to run, or 'auto'; default: the workspace's verifier setting"),
  ).action(async (options: BisectOptions) => {
    const good = checkRef(options.good);
    const bad = checkRef(options.bad);
    const workspace = await openWorkspace(options);
    const store = await openCliStore();
    const interrupt = abortOnInterrupt();
    let result: BisectResult;
    try {
      result = await bisect(
        workspace,
        good,
        bad,
        (id, signal) =>
          verifyCheckpoint(store, workspace, id, {
            ...(options.verifier !== undefined ? { verifier: options.verifier } : {}),
            ...(signal ? { signal } : {}),
            onNote: noteToStderr,
          }),
        { signal: interrupt.signal, onProgress: (p) => noteToStderr(progressLine(p)) },
      );
    } finally {
      interrupt.dispose();
    }
    if (options.json) printJson(result);
    else printLines(await resultLines(workspace, result));
  });
}
