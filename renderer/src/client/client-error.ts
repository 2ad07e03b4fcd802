// The one error type the renderer sees from any transport: the host's
// ChronoscopeError code and one-line message, or 'disconnected' when the
// socket dropped before an answer came back.
import type { ErrorCode, SerializedError } from '../../../shared/errors.js';

export type ClientErrorCode = ErrorCode | 'disconnected';

export class ClientError extends Error {
  constructor(
    readonly code: ClientErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ClientError';
  }

  static from(error: SerializedError): ClientError {
    return new ClientError(error.code, error.message);
  }
}

/** One line for a banner, whatever was thrown. */
export function errorLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n')[0] ?? 'unknown error';
}

export function errorCode(err: unknown): ClientErrorCode {
  return err instanceof ClientError ? err.code : 'internal';
}
