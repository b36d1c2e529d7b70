import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** What a raw connection received, and whether the peer closed it within the wait. */
export interface RawExchange {
  text: string;
  closed: boolean;
}

/**
 * Writes `chunks` on a fresh connection to 127.0.0.1:`port` (one after the
 * other, waiting for each write to be taken), then waits until the peer
 * closes or `until(text)` holds, at most `waitMs`. Always destroys the socket.
 */
export async function rawExchange(port: number, chunks: ReadonlyArray<string | Buffer>, opts: { waitMs?: number; until?: (text: string) => boolean } = {}): Promise<RawExchange> {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => {});
  let text = '';
  let done: () => void = () => {};
  const finished = new Promise<void>((resolve) => { done = resolve; });
  let closed = false;
  socket.on('data', (d: Buffer) => {
    text += d.toString('latin1');
    if (opts.until?.(text) === true) done();
  });
  socket.once('close', () => { closed = true; done(); });
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  for (const chunk of chunks) {
    if (socket.destroyed) break;
    await new Promise<void>((resolve) => socket.write(chunk, () => resolve()));
  }
  await Promise.race([finished, sleep(opts.waitMs ?? 3000)]);
  socket.destroy();
  return { text, closed };
}

/** The status codes of every response head in `text`, in order. */
export function statusesIn(text: string): number[] {
  return [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));
}

/** A raw HTTP server on 127.0.0.1 whose handler gets each connection (the test answers by hand). */
export async function startRawServer(onConnection: (socket: net.Socket) => void): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    onConnection(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}
