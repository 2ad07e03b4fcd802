// Which effects a call's output shows sent nothing: git push's "Everything up-to-date".
import { describe, expect, it } from 'vitest';
import { classifyCommand } from '../../electron/effects/classify.js';
import { kindsThatSentNothing } from '../../electron/effects/sent-nothing.js';

const judge = (command: string, output: string) => kindsThatSentNothing(classifyCommand(command), output);

describe('kindsThatSentNothing', () => {
  it('a push that said "Everything up-to-date" sent nothing, however many refs it named', () => {
    expect(judge('git push origin main', 'Everything up-to-date\n')).toEqual(['git_push']);
    expect(judge('git push origin main dev', 'Everything up-to-date\r\n')).toEqual(['git_push']);
  });

  it('counts each run of git push: one up to date and one that sent is not nothing', () => {
    expect(judge('git push origin main && git push origin main', 'Everything up-to-date\nTo ../r.git\n   1234567..89abcde  main -> main\n')).toEqual([]);
    expect(judge('git push origin main; git push origin main', 'Everything up-to-date\nEverything up-to-date\n')).toEqual(['git_push']);
  });

  it('without the words (a push that sent, git push -q, no push at all) nothing is claimed', () => {
    expect(judge('git push origin main', 'To ../r.git\n * [new branch]      main -> main\n')).toEqual([]);
    expect(judge('git push -q origin main', '')).toEqual([]);
    expect(judge('npm publish', 'Everything up-to-date\n')).toEqual([]);
    expect(judge('git push origin main', 'echo: not Everything up-to-date\n')).toEqual([]);
  });
});
