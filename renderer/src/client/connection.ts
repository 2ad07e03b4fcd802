// Connection state a transport reports, so the UI can show "disconnected —
// reconnecting" without knowing which transport it runs on.
export type ConnectionStatus =
  | { state: 'connecting'; attempt: number }
  | { state: 'open' }
  | { state: 'reconnecting'; attempt: number; retryInMs: number; everConnected: boolean }
  /** The host no longer accepts this page (it restarted with a new token): only its new URL works. */
  | { state: 'expired' };

export type ConnectionListener = (status: ConnectionStatus) => void;

/** A ChronoscopeClient plus what the app shell needs to know about the link. */
export interface TransportInfo {
  kind: 'electron' | 'websocket';
  onStatus(listener: ConnectionListener): () => void;
  /** Fires after a dropped connection came back (events may have been missed). */
  onReconnect(listener: () => void): () => void;
  /** Stops the transport for good (no more reconnects); pending invokes are rejected. */
  close(): void;
}
