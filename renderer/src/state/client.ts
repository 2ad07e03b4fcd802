// The one client, set once at start by main.tsx. Stores reach the host only
// through it; components reach the host only through stores.
import type { AppClient } from '../client/create-client.js';

let current: AppClient | null = null;

export function setClient(client: AppClient): void {
  current = client;
}

export function client(): AppClient {
  if (!current) throw new Error('Chronoscope client used before start');
  return current;
}
