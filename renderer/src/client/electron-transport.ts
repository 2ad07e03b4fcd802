// The Electron transport: window.chronoscope (the preload's PreloadApi) with
// the InvokeResult envelopes unwrapped into values or thrown ClientErrors.
import type {
  ChronoscopeClient,
  EventChannel,
  EventMap,
  InvokeChannel,
  InvokeRequest,
  InvokeResponse,
  PreloadApi,
} from '../../../shared/ipc.js';
import { ClientError } from './client-error.js';
import type { TransportInfo } from './connection.js';

export function createElectronClient(api: PreloadApi): ChronoscopeClient & TransportInfo {
  return {
    kind: 'electron',
    async invoke<C extends InvokeChannel>(channel: C, request: InvokeRequest<C>): Promise<InvokeResponse<C>> {
      const result = await api.invoke(channel, request);
      if (result.ok) return result.value as InvokeResponse<C>;
      throw ClientError.from(result.error);
    },
    on<E extends EventChannel>(event: E, listener: (payload: EventMap[E]) => void): () => void {
      return api.on(event, (payload) => listener(payload as EventMap[E]));
    },
    // IPC inside one process does not drop: always open.
    onStatus(listener) {
      listener({ state: 'open' });
      return () => {};
    },
    onReconnect() {
      return () => {};
    },
    close() {},
  };
}
