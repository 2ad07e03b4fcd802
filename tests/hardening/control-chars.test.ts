// C1 control characters (U+0080–U+009F) are replaced wherever C0 ones are:
// U+009B is CSI to a terminal that takes 8-bit controls, so a reason holding
// it could drive the terminal of whoever lists the checkpoints.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { controlChars } from '../../shared/control-chars.js';
import { sanitizeLine } from '../../electron/engine/layout/message.js';
import { safeText } from '../../electron/cli/output.js';
import { promptLabel } from '../../electron/agents/core/session-prompt.js';
import { promptLine } from '../../electron/cli/prompt-format.js';
import { makeSandbox, type Sandbox } from '../cli/run-cli.js';

const C1 = /[\u0080-\u009f]/;
const CSI = '\u009b';

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox();
});
afterEach(() => sb.cleanup());

describe('C1 control characters', () => {
  it('never reach the terminal through a reason: snapshot -m, then list and show', () => {
    fs.writeFileSync(path.join(sb.workspace, 'a.txt'), 'one\n');
    const r = sb.cli(['snapshot', '-m', `clear${CSI}2J${CSI}31mred \u001b[0m\u0085next`]);
    expect(r.code, r.stderr).toBe(0);
    for (const args of [['list'], ['show', '1'], ['list', '--json']]) {
      const out = sb.cli(args);
      expect(out.code, out.stderr).toBe(0);
      expect(out.stdout).not.toMatch(C1);
      expect(out.stdout).not.toContain('\u001b');
      expect(out.stdout).toContain('clear');
    }
  });

  it('are replaced like C0 in every function that replaces C0', () => {
    expect(sanitizeLine(`a${CSI}b\u001bc\u009fd`)).toBe('a b c d');
    expect(promptLabel(`deploy${CSI}31m now`)).toBe('deploy 31m now');
    expect(safeText(`x${CSI}y`)).not.toMatch(C1);
    expect(safeText(`x${CSI}y`)).toBe('"x\\u009by"');
    expect(safeText('x\u007fy')).toBe('"x\\u007fy"');
    expect(safeText('plain é ü ✓')).toBe('plain é ü ✓'); // printable non-ASCII stays
    expect(`${CSI}\u0080\u0000\u007f`.replace(controlChars(), '?')).toBe('????');
  });

  it("a prompt's one-line label and the CLI's prompt line never carry a direction override or a line separator, and are never quoted twice", () => {
    const typed = 'Fix \u202eevil\u202c the\u2028bug \u2066here\u2069 \u001b[31mnow';
    for (const line of [promptLabel(typed), promptLine(typed)]) {
      expect(line).not.toMatch(/[\u2028\u2029\u202a-\u202e\u2066-\u2069\u0000-\u001f\u007f-\u009f]/);
      expect(line.startsWith('Fix  evil  the bug')).toBe(true);
    }
    expect(promptLine('"quoted" and \u0007 a bell')).toBe('"quoted" and   a bell');
    // Paths keep theirs (a name may hold them): only one-line labels replace them.
    expect('a\u202eb'.replace(controlChars(), '?')).toBe('a\u202eb');
  });

  it('a path holding C1 is echoed with it replaced in a refusal', () => {
    const r = sb.cli(['restore', '1', '--path', `../x${CSI}y`, '--yes']);
    expect(r.code).toBe(2); // a refused path is a usage error
    expect(r.stderr).not.toMatch(C1);
  });
});
