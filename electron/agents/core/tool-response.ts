// What a finished tool call said, read from the response an agent hands its
// after-hook: whether it succeeded, and the text it printed (a push that says
// "Everything up-to-date" sent nothing). Agents spell responses differently —
// text, content blocks, {stdout, stderr, exit_code} — so this reads them all.

/** Failed when interrupted, marked unsuccessful, or carrying a non-zero exit code; otherwise succeeded. */
export function responseSucceeded(response: unknown): boolean {
  if (typeof response !== 'object' || response === null) return true;
  const o = response as Record<string, unknown>;
  if (o['interrupted'] === true) return false;
  if (o['success'] === false) return false;
  for (const key of ['exit_code', 'exitCode', 'returncode', 'returnCode', 'code']) {
    const v = o[key];
    if (typeof v === 'number' && v !== 0) return false;
  }
  return true;
}

/** A response that is text already, the text blocks of a content-block list, or stdout, stderr and output. */
export function responseText(response: unknown): string {
  if (typeof response === 'string') return response;
  if (Array.isArray(response)) return response.map((b) => (typeof b === 'object' && b !== null && typeof (b as Record<string, unknown>)['text'] === 'string' ? (b as Record<string, string>)['text'] : '')).join('\n');
  if (typeof response !== 'object' || response === null) return '';
  const o = response as Record<string, unknown>;
  return ['stdout', 'stderr', 'output', 'llmContent', 'returnDisplay'].flatMap((key) => (typeof o[key] === 'string' ? [o[key]] : [])).join('\n');
}

/** The files an apply_patch-style patch (`*** Update|Add|Delete File: …`, `*** Move to: …`) changes. */
export function patchFilePaths(patch: string): string[] {
  const paths: string[] = [];
  for (const m of patch.matchAll(/^\*\*\* (?:Update|Add|Delete) File: (.+)$|^\*\*\* Move to: (.+)$/gm)) {
    const p = (m[1] ?? m[2] ?? '').trim();
    if (p !== '') paths.push(p);
  }
  return paths;
}

/** A finished call's exit code: a field of its response, or its text ("Exit code 1", Gemini's "Exit Code: 1"); null when not given. */
export function responseExitCode(response: unknown, ...texts: (string | undefined)[]): number | null {
  if (typeof response === 'object' && response !== null && !Array.isArray(response)) {
    const o = response as Record<string, unknown>;
    for (const key of ['exit_code', 'exitCode', 'returncode', 'returnCode', 'code']) {
      const v = o[key];
      if (typeof v === 'number' && Number.isInteger(v)) return v;
    }
  }
  for (const text of [responseText(response), ...texts]) {
    const m = text === undefined ? null : /^(?:Error: )?Exit [Cc]ode:? (-?\d+)\b/m.exec(text);
    if (m !== null) return Number(m[1]);
  }
  return null;
}
