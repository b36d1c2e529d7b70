/**
 * The baseline proxy of tap-h2-overhead, run as its own process: a bare node:http2 proxy
 * (h2c in, one h2c connection out) that relays each stream as it is, head, body both ways and
 * trailers, with no check and none of the tap's refusals. Prints `PORT <n>` once listening on
 * 127.0.0.1; exits on SIGTERM/SIGINT.
 *
 *   node bench/dist/servers/bare-h2-proxy.js <upstream-port>
 */
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';

const upstreamPort = Number(process.argv[2]);
if (!Number.isInteger(upstreamPort) || upstreamPort <= 0) {
  console.error('usage: bare-h2-proxy <upstream-port>');
  process.exit(2);
}

let upstream: http2.ClientHttp2Session | undefined;
function session(): http2.ClientHttp2Session {
  if (upstream === undefined || upstream.closed || upstream.destroyed) {
    const s = http2.connect(`http://127.0.0.1:${upstreamPort}`);
    s.on('error', () => undefined);
    s.on('close', () => { if (upstream === s) upstream = undefined; });
    upstream = s;
  }
  return upstream;
}

/** Fields of a header block without the pseudo-headers (`:status` kept when asked). */
function fields(h: http2.IncomingHttpHeaders, status: boolean): http2.OutgoingHttpHeaders {
  const out: http2.OutgoingHttpHeaders = {};
  for (const k of Object.keys(h)) if (!k.startsWith(':') || (status && k === ':status')) out[k] = h[k];
  return out;
}

const server = http2.createServer();
server.on('stream', (stream, headers, flags) => {
  const ended = (flags & http2.constants.NGHTTP2_FLAG_END_STREAM) !== 0;
  const up = session().request({ ...fields(headers, false), ':method': headers[':method'], ':path': headers[':path'], ':authority': headers[':authority'] }, { endStream: ended });
  let trailers: http2.OutgoingHttpHeaders = {};
  stream.on('error', () => up.close(http2.constants.NGHTTP2_CANCEL));
  up.on('error', () => { if (!stream.destroyed) stream.close(http2.constants.NGHTTP2_INTERNAL_ERROR); });
  up.on('response', (h, f) => {
    if ((f & http2.constants.NGHTTP2_FLAG_END_STREAM) !== 0) { stream.respond(fields(h, true), { endStream: true }); return; }
    stream.respond(fields(h, true), { waitForTrailers: true });
    up.pipe(stream);
  });
  up.on('trailers', (h) => { trailers = fields(h, false); });
  stream.on('wantTrailers', () => stream.sendTrailers(trailers));
  if (!ended) stream.pipe(up);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`PORT ${(server.address() as AddressInfo).port}\n`));
const stop = (): void => { server.close(); upstream?.destroy(); process.exit(0); };
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
