import http from 'node:http';
import type { AddressInfo } from 'node:net';
import snappy from 'snappyjs';
import { decodeWriteRequest, type RwWriteRequest } from './remote-write-proto.js';
import type { RemoteWriteHttp } from './remote-write-exporter.js';

/** A loopback remote write receiver for tests: answers `statuses` in turn (then 204), decodes what it gets. */
export async function startTestReceiver(statuses: number[] = []): Promise<{
  url: string;
  requests: { headers: http.IncomingHttpHeaders; body: RwWriteRequest | undefined }[];
  close(): Promise<void>;
}> {
  const requests: { headers: http.IncomingHttpHeaders; body: RwWriteRequest | undefined }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: RwWriteRequest | undefined;
      try { body = decodeWriteRequest(snappy.uncompress(Buffer.concat(chunks))); } catch { body = undefined; }
      requests.push({ headers: req.headers, body });
      const status = statuses.shift() ?? 204;
      res.writeHead(status).end(status >= 300 ? 'no thanks' : '');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/v1/write`,
    requests,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

/** RemoteWriteHttp over fetch, for tests. */
export const fetchHttp: RemoteWriteHttp = {
  async request(url, o) {
    const r = await fetch(url, { method: o.method, headers: o.headers, body: o.body, ...(o.signal ? { signal: o.signal } : {}) });
    return { statusCode: r.status, body: Buffer.from(await r.arrayBuffer()) };
  },
};
