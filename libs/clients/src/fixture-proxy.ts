import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TestProxy {
  url: string;
  port: number;
  /** Every CONNECT seen: target and request headers. */
  connects: Array<{ target: string; headers: http.IncomingHttpHeaders }>;
  close(): Promise<void>;
}

/** A real HTTP CONNECT proxy on 127.0.0.1 that tunnels to loopback targets only. */
export async function startConnectProxy(): Promise<TestProxy> {
  const connects: TestProxy['connects'] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((_req, res) => res.writeHead(405).end('CONNECT only'));
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const target = req.url ?? '';
    connects.push({ target, headers: req.headers });
    const [host, port] = [target.slice(0, target.lastIndexOf(':')), Number(target.slice(target.lastIndexOf(':') + 1))];
    if (!['127.0.0.1', 'localhost', '[::1]'].includes(host)) {
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const upstream = net.connect(port, host === 'localhost' ? '127.0.0.1' : host.replace(/^\[|\]$/g, ''));
    sockets.add(client).add(upstream);
    upstream.once('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    const drop = () => { upstream.destroy(); client.destroy(); };
    upstream.on('error', drop);
    client.on('error', drop);
    upstream.on('close', () => sockets.delete(upstream));
    client.on('close', () => sockets.delete(client));
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    connects,
    close: () => {
      for (const s of sockets) s.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
