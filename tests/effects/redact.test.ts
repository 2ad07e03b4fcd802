// Secrets masked in command lines before they are stored or shown (effects/redact.ts).
import { describe, expect, it } from 'vitest';
import { redactCommand } from '../../electron/effects/redact.js';

describe('redactCommand', () => {
  it("drops a URL's user-info wherever the URL sits, and masks tokens and passwords", () => {
    expect(redactCommand('git push https://me:tok3n@github.com/o/r.git main')).toBe('git push https://github.com/o/r.git main');
    expect(redactCommand("git remote add o 'ssh://git:pw@host:22/r' && git push o")).toBe("git remote add o 'ssh://host:22/r' && git push o");
    expect(redactCommand('X=git+https://u:p@h/x npm i')).toBe('X=git+https://h/x npm i');
    // A scheme glued to digits or dots in front: stripped from its first letter, as before.
    expect(redactCommand('echo 12.svn+ssh://u@h/r')).toBe('echo 12.svn+ssh://h/r');
    expect(redactCommand('curl -H "Authorization: Bearer abc.def" -u bob:hunter2 https://x')).toBe('curl -H "Authorization: Bearer ***" -u *** https://x');
    expect(redactCommand('npm publish --otp 123456')).toBe('npm publish --otp ***');
    expect(redactCommand('mysql -psecret db')).toBe('mysql -p*** db');
    expect(redactCommand('ls -la src/ && echo done')).toBe('ls -la src/ && echo done');
  });

  // Not a speed measurement: read once, a million characters take milliseconds; read once per
  // letter (as before), 200,000 took 10.6 s here and a million would take minutes, past this limit.
  it('reads a long unbroken run of characters once (a hex dump in a command), not once per letter', { timeout: 20_000 }, () => {
    const hex = 'a1'.repeat(500_000);
    const command = `echo '${hex}' | xxd -r -p > blob.bin && git push https://me:secret@example.com/r.git main`;
    expect(redactCommand(command)).toBe(`echo '${hex}' | xxd -r -p > blob.bin && git push https://example.com/r.git main`);
    expect(redactCommand(`${'x'.repeat(1_000_000)}://u:p@host`)).toBe(`${'x'.repeat(1_000_000)}://host`);
  });
});
