// What the fake model APIs share: an HTTP server on 127.0.0.1 (a free port)
// that reads each request's whole body before handing it to the fake's own
// protocol logic, and closes when the test is done.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeServer {
  /** http://127.0.0.1:<port>, with no path. */
  url: string;
  close(): Promise<void>;
}

/** A request's whole body, as UTF-8 text. */
function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** A request body parsed as JSON; {} where it is not JSON. */
export function parseBody(body: string): Record<string, unknown> {
  try {
    return JSON.parse(body) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** Serves each request with `handle`, once its body has been read. */
export async function startFakeServer(handle: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<FakeServer> {
  const server: Server = createServer((req, res) => {
    void readBody(req).then((body) => handle(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
