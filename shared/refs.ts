// Which checkpoint references are accepted from outside (CLI, IPC, hooks),
// stated once so the validation in the renderer and in the engine agree.
// A full id, a unique hex prefix (≥ 4), a 1-based index from the newest (1–999; four or more
// digits read as a hex prefix), 'latest', or a checkpoint of Hermes Agent's own
// /rollback store: 'h' + its 16 hex digits (or a prefix of 4+ of them). 'h' is not a
// hex digit, so the forms never overlap. Anything else — '-x', 'HEAD~1', '@{…}',
// ':path' — never reaches git; a Hermes id never reaches git at all (the engine
// looks it up in its own listing of Hermes' commits).
export const CHECKPOINT_REF_PATTERN = /^(?:latest|[1-9][0-9]{0,2}|[0-9a-f]{4,64}|h[0-9a-f]{4,16})$/;

/** A (prefix of a) Hermes checkpoint id: 'h' + hex digits. */
export const HERMES_REF_PATTERN = /^h[0-9a-f]{4,16}$/;

export function isCheckpointRef(value: string): boolean {
  return CHECKPOINT_REF_PATTERN.test(value);
}

export function isHermesRef(value: string): boolean {
  return HERMES_REF_PATTERN.test(value);
}
