/**
 * Load-generator side of a gRPC unary call with a fixed request, in three flavours:
 *  - `raw-h2`: HTTP/2 frames encoded once and written straight to the socket (see
 *    raw-h2-caller.ts), a few microseconds of CPU per call, so the server under test,
 *    not the generator, is what saturates on a small machine;
 *  - `node-h2`: node:http2 with the request frame encoded once; checks `grpc-status: 0`
 *    and a non-empty reply on every call;
 *  - `grpc-js`: a grpc-js client, what a Node application would use.
 * All speak the same wire protocol to the server, over `connections` HTTP/2 connections.
 */
import http2 from 'node:http2';
import * as grpc from '@grpc/grpc-js';
import { connectRawH2 } from './raw-h2-caller.js';

export type ClientKind = 'raw-h2' | 'node-h2' | 'grpc-js';
export const CLIENT_KINDS: readonly ClientKind[] = ['raw-h2', 'node-h2', 'grpc-js'];

export interface UnaryCaller {
  /** Starts one call; `done` gets null on grpc-status 0. */
  call(done: (err: Error | null) => void): void;
  close(): void;
}

export interface UnaryTarget {
  port: number;
  path: string;
  /** The serialized request message. */
  message: Buffer;
  /** HTTP/2 connections the calls are spread over, round robin. */
  connections: number;
  /** Connect over TLS (node-h2 only), trusting this CA. */
  tlsCa?: Buffer;
}

function frame(message: Buffer): Buffer {
  const f = Buffer.alloc(5 + message.length);
  f.writeUInt8(0, 0);
  f.writeUInt32BE(message.length, 1);
  message.copy(f, 5);
  return f;
}

function connectH2(port: number, ca?: Buffer): Promise<http2.ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    const s = ca === undefined ? http2.connect(`http://127.0.0.1:${port}`) : http2.connect(`https://127.0.0.1:${port}`, { ca, ALPNProtocols: ['h2'] });
    s.once('connect', () => { s.off('error', reject); resolve(s); });
    s.once('error', reject);
  });
}

async function h2Caller(t: UnaryTarget): Promise<UnaryCaller> {
  const sessions = await Promise.all(Array.from({ length: t.connections }, () => connectH2(t.port, t.tlsCa)));
  for (const s of sessions) s.on('error', () => undefined);
  const body = frame(t.message);
  const headers: http2.OutgoingHttpHeaders = {
    ':method': 'POST', ':path': t.path, ':scheme': t.tlsCa === undefined ? 'http' : 'https', ':authority': `127.0.0.1:${t.port}`,
    'content-type': 'application/grpc', te: 'trailers', 'grpc-accept-encoding': 'identity', 'user-agent': 'sluice-bench',
  };
  let next = 0;
  return {
    call(done) {
      const session = sessions[next];
      next = (next + 1) % sessions.length;
      let status: string | undefined;
      let bytes = 0;
      let message = '';
      const req = session.request(headers);
      req.on('response', (h) => { if (h['grpc-status'] !== undefined) { status = String(h['grpc-status']); message = String(h['grpc-message'] ?? ''); } });
      req.on('trailers', (h) => { status = String(h['grpc-status']); message = String(h['grpc-message'] ?? ''); });
      req.on('data', (d: Buffer) => { bytes += d.length; });
      req.on('error', () => undefined);
      req.on('close', () => done(status === '0' && bytes > 5 ? null : new Error(`grpc-status ${status ?? 'none'} ${message}, ${bytes} bytes`)));
      req.end(body);
    },
    close() { for (const s of sessions) s.destroy(); },
  };
}

async function grpcJsCaller(t: UnaryTarget): Promise<UnaryCaller> {
  const identity = (b: Buffer): Buffer => b;
  // Distinct channel options keep grpc-js from sharing one subchannel between the clients.
  const clients = Array.from({ length: t.connections }, (_, i) =>
    new grpc.Client(`127.0.0.1:${t.port}`, grpc.credentials.createInsecure(), { 'grpc.bench_connection': i }));
  await Promise.all(clients.map((c) => new Promise<void>((resolve, reject) =>
    c.waitForReady(Date.now() + 5000, (e) => (e ? reject(e) : resolve())))));
  let next = 0;
  return {
    call(done) {
      const c = clients[next];
      next = (next + 1) % clients.length;
      c.makeUnaryRequest(t.path, identity, identity, t.message, (err, reply) =>
        done(err ? err : reply !== undefined && reply.length > 0 ? null : new Error('empty reply')));
    },
    close() { for (const c of clients) c.close(); },
  };
}

async function rawH2Caller(t: UnaryTarget): Promise<UnaryCaller> {
  const conns = await Promise.all(Array.from({ length: t.connections }, () => connectRawH2(t.port, t.path, t.message)));
  let next = 0;
  return {
    call(done) {
      const c = conns[next];
      next = (next + 1) % conns.length;
      c.call(done);
    },
    close() { for (const c of conns) c.close(); },
  };
}

export function unaryCaller(kind: ClientKind, target: UnaryTarget): Promise<UnaryCaller> {
  switch (kind) {
    case 'raw-h2': return rawH2Caller(target);
    case 'node-h2': return h2Caller(target);
    case 'grpc-js': return grpcJsCaller(target);
  }
}

/** One call through node:http2, which checks grpc-status 0 and a reply: a target answers right. */
export async function verifyUnary(target: UnaryTarget): Promise<void> {
  const c = await h2Caller({ ...target, connections: 1 });
  try {
    await new Promise<void>((resolve, reject) => c.call((err) => (err ? reject(err) : resolve())));
  } finally {
    c.close();
  }
}
