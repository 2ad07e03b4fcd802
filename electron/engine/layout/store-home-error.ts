// The one line a store folder that cannot be made gets. The common cause is a
// file where the folder should be (CHRONOSCOPE_HOME pointing at a file, or a
// file on its way): name that file and what to do, never mkdir's raw EEXIST.
import fs from 'node:fs/promises';
import path from 'node:path';
import { ChronoscopeError } from '../../../shared/errors.js';

const HOW = 'point CHRONOSCOPE_HOME at a folder, or move the file away';

export async function storeHomeError(requested: string, err: unknown): Promise<ChronoscopeError> {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EEXIST' || code === 'ENOTDIR') {
    const file = await firstNonFolder(requested);
    if (file === requested) return new ChronoscopeError('bad_input', `the store path ${requested} is a file, not a folder: ${HOW}`);
    if (file !== null) return new ChronoscopeError('bad_input', `the store folder ${requested} cannot be made: ${file} is a file, not a folder: ${HOW}`);
  }
  return new ChronoscopeError('bad_input', `cannot create the store folder ${requested}: ${err instanceof Error ? err.message : String(err)}`);
}

/** The path itself or its nearest ancestor that exists and is not a folder. */
async function firstNonFolder(target: string): Promise<string | null> {
  for (let at = target; ; at = path.dirname(at)) {
    const st = await fs.stat(at).catch(() => null);
    if (st !== null) return st.isDirectory() ? null : at;
    if (path.dirname(at) === at) return null;
  }
}
