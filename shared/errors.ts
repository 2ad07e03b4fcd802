// One error type crosses every boundary (engine → CLI exit code, engine → IPC
// typed error), so the person always gets one clear line and a stable code.

export const ERROR_CODES = [
  'bad_input', // validation failed; nothing was changed
  'not_found', // no such checkpoint, workspace or file
  'refused', // a safety rule said no (/, home, the store, …)
  'locked', // another writer held the workspace lock for too long
  'conflict', // the workspace changed under us
  'internal', // our bug or git failing: still one line
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export class ChronoscopeError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ChronoscopeError';
  }
}

/**
 * Input that can never be valid whatever the store holds (a malformed id or
 * path, options that exclude each other): the CLI's usage error, exit 2. It
 * crosses IPC as any other bad_input.
 */
export class UsageError extends ChronoscopeError {
  constructor(message: string) {
    super('bad_input', message);
    this.name = 'UsageError';
  }
}

/** A folder the store has no record of, asked for by a reader (which must not register it). */
export class UnknownWorkspaceError extends ChronoscopeError {
  constructor(readonly folder: string) {
    super('not_found', `${folder} is not a workspace Chronoscope has recorded`);
  }
}

export interface SerializedError {
  code: ErrorCode;
  message: string;
}

export function toSerializedError(err: unknown): SerializedError {
  if (err instanceof ChronoscopeError) return { code: err.code, message: err.message };
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'internal', message: message.split('\n')[0] ?? 'unknown error' };
}
