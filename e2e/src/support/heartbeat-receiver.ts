// Local receivers of Sluice's cloudext heartbeats (sluice.cloudext.v1.ReportRequest): over HTTP
// (`POST /v1/cloudext/report`, proto3 JSON) or gRPC (CloudExtensionService.Report). Each keeps
// what arrived with the `x-api-key` it carried and the time, can stop and start again on the same
// port (to see heartbeats resume), and is closed in t.after. Loopback only.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import { serviceClient, toProto3Json } from '@sluice/proto';

export interface ReceivedHeartbeat {
  atMs: number;
  apiKey: string | undefined;
  /** The heartbeat as proto3 JSON (the HTTP body, or the gRPC message turned into JSON). */
  report: Record<string, unknown>;
}

export interface HeartbeatReceiver {
  readonly port: number;
  /** `http://127.0.0.1:<port>` or `127.0.0.1:<port>`: the value of `cloudext.endpoint`. */
  readonly endpoint: string;
  readonly received: ReceivedHeartbeat[];
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  /** Resolves once `n` heartbeats have arrived in all; rejects after `ms`. */
  waitFor(n: number, ms?: number): Promise<ReceivedHeartbeat[]>;
}

const REPORT_TYPE = 'sluice.cloudext.v1.ReportRequest';

function waiter(received: ReceivedHeartbeat[]): { notify(): void; waitFor(n: number, ms?: number): Promise<ReceivedHeartbeat[]> } {
  const waiters = new Set<() => void>();
  return {
    notify: () => { for (const w of waiters) w(); },
    waitFor: (n, ms = 30_000) => new Promise((resolve, reject) => {
      const check = (): void => {
        if (received.length < n) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(received.slice());
      };
      const timer = setTimeout(() => { waiters.delete(check); reject(new Error(`${received.length} heartbeats within ${ms} ms, wanted ${n}`)); }, ms);
      waiters.add(check);
      check();
    }),
  };
}

export async function startHttpHeartbeatReceiver(t: TestContext): Promise<HeartbeatReceiver> {
  const received: ReceivedHeartbeat[] = [];
  const w = waiter(received);
  let server: Server | undefined;
  let port = 0;
  const listen = async (): Promise<void> => {
    const s = createServer((req, res) => {
      if (req.method !== 'POST' || req.url !== '/v1/cloudext/report') { res.writeHead(404).end(); return; }
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const key = req.headers['x-api-key'];
        received.push({ atMs: Date.now(), apiKey: Array.isArray(key) ? key[0] : key, report: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        w.notify();
      });
    });
    await new Promise<void>((resolve, reject) => { s.once('error', reject); s.listen(port, '127.0.0.1', () => resolve()); });
    port = (s.address() as AddressInfo).port;
    server = s;
  };
  const stop = async (): Promise<void> => {
    const s = server;
    server = undefined;
    if (s === undefined) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  };
  await listen();
  t.after(stop);
  return { port, endpoint: `http://127.0.0.1:${port}`, received, stop, start: listen, waitFor: w.waitFor };
}

export async function startGrpcHeartbeatReceiver(t: TestContext): Promise<HeartbeatReceiver> {
  const received: ReceivedHeartbeat[] = [];
  const w = waiter(received);
  let server: grpc.Server | undefined;
  let port = 0;
  const listen = async (): Promise<void> => {
    const s = new grpc.Server();
    s.addService(serviceClient('cloudExtension').service, {
      Report: (call: grpc.ServerUnaryCall<unknown, unknown>, cb: grpc.sendUnaryData<unknown>) => {
        const key = call.metadata.get('x-api-key')[0];
        received.push({ atMs: Date.now(), apiKey: key === undefined ? undefined : String(key), report: toProto3Json(REPORT_TYPE, call.request) });
        cb(null, {});
        w.notify();
      },
    });
    port = await new Promise<number>((resolve, reject) => s.bindAsync(`127.0.0.1:${port}`, grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))));
    server = s;
  };
  const stop = async (): Promise<void> => {
    const s = server;
    server = undefined;
    s?.forceShutdown();
  };
  await listen();
  t.after(stop);
  return { port, endpoint: `127.0.0.1:${port}`, received, stop, start: listen, waitFor: w.waitFor };
}
