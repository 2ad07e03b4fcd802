// Which checkpoint references are accepted from outside (CLI, IPC, hooks),
// stated once so the validation in the renderer and in the engine agree.
// A full id, a unique hex prefix (≥ 4), a 1-based index from the newest (1–999; four or more
// digits read as a hex prefix), or
// 'latest'. Anything else — '-x', 'HEAD~1', '@{…}', ':path' — never reaches git.
export const CHECKPOINT_REF_PATTERN = /^(?:latest|[1-9][0-9]{0,2}|[0-9a-f]{4,64})$/;

export function isCheckpointRef(value: string): boolean {
  return CHECKPOINT_REF_PATTERN.test(value);
}
