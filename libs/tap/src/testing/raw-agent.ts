import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { checkProtos } from '../check/check-protos.js';
import { FrameReader, frameOf } from '../check/grpc-frames.js';
import { GrpcCode } from '@sluice/errors';

const PACKAGE = 'sluice.flowcontrol.checkhttp.v1';

/** A stream the raw agent holds: the request headers, the ids received, and ways to answer. */
export interface RawCall {
  readonly headers: http2.IncomingHttpHeaders;
  readonly stream: http2.ServerHttp2Stream;
  readonly ids: number[];
  /** Request paths received (of the HTTP requests being checked). */
  readonly paths: string[];
}

export interface RawAgent {
  readonly address: string;
  readonly port: number;
  readonly calls: RawCall[];
  /** Sessions the agent accepted. */
  readonly sessions: http2.ServerHttp2Session[];
  close(): Promise<void>;
}

/** An accepting answer for `id` as CheckHTTPStreamResponse bytes (encoded by the .proto's type), framed. */
export function okAnswerFrame(id: number, header = 'ok'): Buffer {
  const type = checkProtos().lookupType(`${PACKAGE}.CheckHTTPStreamResponse`);
  return frameOf(type.encode({ id, response: { ok_response: { headers: [{ key: 'x-answer', value: header }] } }, code: GrpcCode.OK, message: '' }).finish());
}

/**
 * A gRPC server written on node:http2, for what grpc-js's server does not
 * let a test do: answer in chosen DATA frame cuts, end streams with any
 * status, send GOAWAY. `onMessage` is called for each CheckHTTPStreamRequest
 * (or unary CheckHTTPRequest) received; the test writes the answers.
 */
export async function startRawAgent(onMessage: (call: RawCall, id: number) => void, opts: { port?: number; refuseStream?: boolean; tls?: { key: string; cert: string }; neverRead?: boolean } = {}): Promise<RawAgent> {
  const streamType = checkProtos().lookupType(`${PACKAGE}.CheckHTTPStreamRequest`);
  const unaryType = checkProtos().lookupType(`${PACKAGE}.CheckHTTPRequest`);
  const calls: RawCall[] = [];
  const sessions: http2.ServerHttp2Session[] = [];
  const server = opts.tls === undefined ? http2.createServer() : http2.createSecureServer({ ...opts.tls, allowHTTP1: false });
  server.on('session', (s) => sessions.push(s));
  server.on('stream', (stream, headers) => {
    const call: RawCall = { headers, stream, ids: [], paths: [] };
    calls.push(call);
    stream.on('error', () => undefined);
    const unary = !String(headers[':path']).endsWith('Stream');
    if (!unary && opts.refuseStream === true) {
      // As an agent without the method answers: trailers only.
      stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': String(GrpcCode.UNIMPLEMENTED), 'grpc-message': 'unknown method' }, { endStream: true });
      return;
    }
    stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
    if (opts.neverRead === true) {
      // Reads nothing: no flow-control window comes back to the client.
      stream.pause();
      return;
    }
    const reader = new FrameReader();
    stream.on('data', (chunk: Buffer) => reader.push(chunk, (body) => {
      const m = (unary ? { id: 0, request: unaryType.decode(body) } : streamType.decode(body)) as unknown as { id: number | { toNumber(): number }; request: { request: { path: string } } };
      const id = typeof m.id === 'number' ? m.id : m.id.toNumber();
      call.ids.push(id);
      call.paths.push(m.request.request.path);
      onMessage(call, id);
    }));
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    address: `127.0.0.1:${bound}`,
    port: bound,
    calls,
    sessions,
    close: () => new Promise<void>((resolve) => {
      for (const s of sessions) s.destroy();
      server.close(() => resolve());
    }),
  };
}

/** Ends `call` with trailers carrying `code` and `message`. */
export function endWithStatus(call: RawCall, code: number, message = ''): void {
  call.stream.once('wantTrailers', () => call.stream.sendTrailers({ 'grpc-status': String(code), 'grpc-message': encodeURIComponent(message) }));
  call.stream.end();
}
