// Clients for end-to-end tests: HTTP (fetch and raw sockets), gRPC unary
// calls on the Sluice services, the gRPC health service, and a workload.
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { protoPath as healthProtoPath } from 'grpc-health-check';
import http from 'node:http';
import net from 'node:net';
import type { TestContext } from 'node:test';
import { serviceClient, type ServiceKey } from '@sluice/proto';

export interface Reply { status: number; headers: Headers; text: string }

/** The gateway error shape. */
export interface GatewayError { code: number; message: string; details: unknown[] }

/** POST with a JSON content type (unless `headers` says otherwise); `body` undefined sends none. */
export async function post(url: string, body: string | undefined, headers: Record<string, string> = { 'content-type': 'application/json' }, signal?: AbortSignal): Promise<Reply> {
  const r = await fetch(url, { method: 'POST', headers, ...(body !== undefined ? { body } : {}), ...(signal ? { signal } : {}) });
  return { status: r.status, headers: r.headers, text: await r.text() };
}

export async function get(url: string, init: RequestInit = {}): Promise<Reply> {
  const r = await fetch(url, init);
  return { status: r.status, headers: r.headers, text: await r.text() };
}

/** Writes `data` on a fresh connection and collects what comes back until the peer closes or `ms` pass. */
export function rawExchange(port: number, data: string | Buffer, ms = 3000): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    const timer = setTimeout(() => { socket.destroy(); resolve({ text, closed: false }); }, ms);
    socket.on('data', (d: Buffer) => { text += d.toString('latin1'); });
    socket.on('error', () => undefined);
    socket.on('close', () => { clearTimeout(timer); resolve({ text, closed: true }); });
    socket.on('connect', () => socket.write(data));
    socket.once('error', (e) => { if (text === '') { clearTimeout(timer); reject(e); } });
  });
}

type Cb = (err: grpc.ServiceError | null, res: unknown) => void;
export type GrpcClient = grpc.Client & Record<string, (req: unknown, opts: grpc.CallOptions, cb: Cb) => grpc.ClientUnaryCall>;

/** A gRPC client of one Sluice service, closed in t.after. */
export function grpcClient(t: TestContext, key: ServiceKey, address: string): GrpcClient {
  const Ctor = serviceClient(key);
  const client = new Ctor(address, grpc.credentials.createInsecure()) as unknown as GrpcClient;
  t.after(() => client.close());
  return client;
}

export function unaryCall<T>(client: GrpcClient, rpc: string, req: unknown, timeoutMs = 5000): Promise<T> {
  return new Promise((resolve, reject) => {
    client[rpc](req, { deadline: Date.now() + timeoutMs }, (err, res) => (err ? reject(err) : resolve(res as T)));
  });
}

interface HealthClient extends grpc.Client {
  check(req: { service: string }, opts: grpc.CallOptions, cb: (err: grpc.ServiceError | null, res?: { status: string }) => void): void;
}

/** grpc.health.v1.Health/Check of `service` ('' is the whole process). */
export function grpcHealth(t: TestContext, address: string, service = ''): Promise<string> {
  const pkg = grpc.loadPackageDefinition(protoLoader.loadSync(healthProtoPath, { keepCase: true, enums: String, defaults: true })) as unknown as {
    grpc: { health: { v1: { Health: new (addr: string, creds: grpc.ChannelCredentials) => HealthClient } } };
  };
  const client = new pkg.grpc.health.v1.Health(address, grpc.credentials.createInsecure());
  t.after(() => client.close());
  return new Promise((resolve, reject) => client.check({ service }, { deadline: Date.now() + 5000 }, (err, res) => (err ? reject(err) : resolve(res?.status ?? ''))));
}

/** A CheckHTTP request as the tap sends it. */
export function checkHttpRequest(controlPoint: string, path: string, headers: Record<string, string> = {}, method = 'GET', body = ''): object {
  return {
    control_point: controlPoint,
    source: { address: '127.0.0.1', port: 40000 },
    destination: { address: '127.0.0.1', port: 8080 },
    request: { method, path, host: 'shop', scheme: 'http', size: body.length, protocol: 'HTTP/1.1', headers, body, truncated_body: false },
  };
}

/** An aperture.flowcontrol.checkhttp.v1 CheckHTTPRequest (what Aperture's middlewares and Lua plugin send). */
export function apertureCheckHttpRequest(controlPoint: string, path: string, headers: Record<string, string> = {}, method = 'GET', body = ''): object {
  const { request, ...rest } = checkHttpRequest(controlPoint, path, headers, method, body) as { request: Record<string, unknown> };
  const { truncated_body: _sluiceOnly, ...http } = request;
  return { ...rest, request: http };
}

export interface SeenRequest { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }

/** An in-process workload on 127.0.0.1 that answers every request with what it saw (JSON), closed in t.after. */
export async function startWorkload(t: TestContext): Promise<{ port: number; url: string; seen: SeenRequest[] }> {
  const seen: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => { body += c; });
    req.on('end', () => {
      const s = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      seen.push(s);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ method: s.method, url: s.url, body }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));
  const port = (server.address() as net.AddressInfo).port;
  return { port, url: `http://127.0.0.1:${port}`, seen };
}
