// Ctrl-C during a long command (verify, bisect, a waiting MCP server) stops
// its child processes and cleans up instead of leaving them behind.
export function abortOnInterrupt(): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const onSignal = (): void => controller.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/**
 * Ctrl-C while a request waits on the running service (a snapshot): before it
 * is sent, leave at once (exit 130: nothing was asked); after, withdraw it
 * (`signal` aborts) and wait for the service to say whether it was in time —
 * so a checkpoint the person interrupted never appears later, and one written
 * before the interrupt is named. A second Ctrl-C leaves at once (the closed
 * connection withdraws it all the same).
 */
export function withdrawOnInterrupt(): { signal: AbortSignal; sent: () => void; dispose: () => void } {
  const controller = new AbortController();
  let sent = false;
  const onSignal = (): void => {
    if (!sent || controller.signal.aborted) process.exit(130);
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    sent: () => {
      sent = true;
    },
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
