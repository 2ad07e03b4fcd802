// Where in the store a new checkpoint of a workspace shows up on disk (the
// engine's layout: <home>/git is the shared bare repository; each checkpoint is
// a loose ref refs/chronoscope/<workspace id>/cp/<time>-<seq>; prune may pack
// them into packed-refs). Used only as a cheap "look now" signal.
import path from 'node:path';

export function checkpointSignal(storeHome: string, workspaceId: string): { signalDirs: string[]; signalFiles: string[] } {
  const gitDir = path.join(storeHome, 'git');
  return {
    signalDirs: [path.join(gitDir, 'refs', 'chronoscope', workspaceId, 'cp')],
    signalFiles: [path.join(gitDir, 'packed-refs')],
  };
}
