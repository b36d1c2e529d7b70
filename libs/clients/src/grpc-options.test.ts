import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import { DEFAULT_GRPC_CLIENT_CONFIG, type GRPCClientConfig } from './config.js';
import { grpcClientOptions } from './grpc-options.js';
import { connectWithBackoff } from './connect-with-backoff.js';
import { makeTestCerts, type TestCerts } from './fixture-certs.js';
import { startConnectProxy } from './fixture-proxy.js';

type After = { after: (fn: () => unknown) => void };
const raw = (b: Buffer) => b;
const echoService: grpc.ServiceDefinition = {
  echo: { path: '/sluice.test.Echo/Echo', requestStream: false, responseStream: false, requestSerialize: raw, requestDeserialize: raw, responseSerialize: raw, responseDeserialize: raw, originalName: 'echo' },
};
const EchoClient = grpc.makeGenericClientConstructor(echoService, 'Echo');
type Echo = grpc.Client & { echo(req: Buffer, opts: grpc.CallOptions, cb: (err: grpc.ServiceError | null, res?: Buffer) => void): void };

async function startServer(t: After, creds: grpc.ServerCredentials): Promise<number> {
  const server = new grpc.Server();
  server.addService(echoService, { echo: (call: grpc.ServerUnaryCall<Buffer, Buffer>, cb: grpc.sendUnaryData<Buffer>) => cb(null, call.request) });
  const port = await new Promise<number>((resolve, reject) => server.bindAsync('127.0.0.1:0', creds, (err, p) => (err ? reject(err) : resolve(p))));
  t.after(() => server.forceShutdown());
  return port;
}

function tlsServerCreds(certs: TestCerts): grpc.ServerCredentials {
  return grpc.ServerCredentials.createSsl(null, [{ cert_chain: readFileSync(certs.serverCert), private_key: readFileSync(certs.serverKey) }]);
}

function call(t: After, config: GRPCClientConfig, target: string, proxy = { http: '', https: '', no_proxy: [] as string[] }, env: Record<string, string> = {}): Promise<string> {
  const o = grpcClientOptions(config, target, proxy, env);
  const client = new EchoClient(o.target, o.credentials, o.options) as unknown as Echo;
  t.after(() => client.close());
  return new Promise((resolve, reject) => client.echo(Buffer.from('ping'), { deadline: Date.now() + 3000 }, (err, res) => (err ? reject(err) : resolve(res?.toString() ?? ''))));
}

const noTls = { ca_file: '', cert_file: '', key_file: '', insecure_skip_verify: false, key_log_file: '' };
const insecure: GRPCClientConfig = { ...DEFAULT_GRPC_CLIENT_CONFIG, insecure: true };

test('backoff settings become grpc-js reconnect options; use_proxy false turns env proxies off', () => {
  const o = grpcClientOptions({ ...insecure, backoff: { base_delay: '250ms', max_delay: '30s', multiplier: 1.6, jitter: 0.2 } }, '127.0.0.1:1');
  assert.equal(o.options['grpc.initial_reconnect_backoff_ms'], 250);
  assert.equal(o.options['grpc.max_reconnect_backoff_ms'], 30_000);
  assert.equal(o.options['grpc.enable_http_proxy'], 0);
  assert.equal(o.target, '127.0.0.1:1');
});

test('insecure talks plaintext to a real server', async (t) => {
  const port = await startServer(t, grpc.ServerCredentials.createInsecure());
  assert.equal(await call(t, insecure, `127.0.0.1:${port}`), 'ping');
});

test('TLS: ca_file verifies the server, an unknown CA fails, insecure_skip_verify accepts', async (t) => {
  const certs = makeTestCerts();
  t.after(() => certs.cleanup());
  const port = await startServer(t, tlsServerCreds(certs));
  const target = `127.0.0.1:${port}`;
  assert.equal(await call(t, { ...DEFAULT_GRPC_CLIENT_CONFIG, tls: { ...noTls, ca_file: certs.ca } }, target), 'ping');
  await assert.rejects(call(t, { ...DEFAULT_GRPC_CLIENT_CONFIG, tls: noTls }, target), (e: grpc.ServiceError) => e.code === grpc.status.UNAVAILABLE);
  assert.equal(await call(t, { ...DEFAULT_GRPC_CLIENT_CONFIG, tls: { ...noTls, insecure_skip_verify: true } }, target), 'ping');
});

test('use_proxy dials the CONNECT proxy from client.proxy; no_proxy bypasses it', async (t) => {
  const proxy = await startConnectProxy();
  t.after(() => proxy.close());
  const port = await startServer(t, grpc.ServerCredentials.createInsecure());
  const target = `127.0.0.1:${port}`;
  const viaProxy = grpcClientOptions({ ...insecure, use_proxy: true }, target, { http: '', https: proxy.url, no_proxy: [] }, {});
  assert.equal(viaProxy.target, `127.0.0.1:${proxy.port}`);
  assert.equal(viaProxy.options['grpc.http_connect_target'], `dns:///${target}`);
  assert.equal(await call(t, { ...insecure, use_proxy: true }, target, { http: '', https: proxy.url, no_proxy: [] }), 'ping');
  assert.deepEqual(proxy.connects.map((c) => c.target), [target]);
  assert.equal(await call(t, { ...insecure, use_proxy: true }, target, { http: '', https: proxy.url, no_proxy: ['127.0.0.1'] }), 'ping');
  assert.equal(await call(t, insecure, target, { http: '', https: proxy.url, no_proxy: [] }, { https_proxy: proxy.url, grpc_proxy: proxy.url }), 'ping');
  assert.equal(proxy.connects.length, 1, 'no_proxy and use_proxy false connect directly');
  assert.throws(() => grpcClientOptions({ ...insecure, use_proxy: true }, target, { http: '', https: 'https://p:1', no_proxy: [] }, {}), /plain HTTP CONNECT/);
});

test('bad settings are refused with the field', () => {
  assert.throws(() => grpcClientOptions({ ...insecure, min_connection_timeout: 'x' }, 'a:1'), (e: Error & { field?: string }) => e.field === 'min_connection_timeout');
  assert.throws(() => grpcClientOptions({ ...insecure, backoff: { ...insecure.backoff, base_delay: '1' } }, 'a:1'), (e: Error & { field?: string }) => e.field === 'backoff.base_delay');
  assert.throws(() => grpcClientOptions({ ...DEFAULT_GRPC_CLIENT_CONFIG, tls: { ...noTls, ca_file: '/nonexistent/ca.pem' } }, 'a:1'), (e: Error & { field?: string }) => e.field === 'tls.ca_file');
  assert.throws(() => grpcClientOptions({ ...insecure, use_proxy: true }, 'a:b:c', { http: '', https: 'p:1', no_proxy: [] }, {}), /invalid gRPC target/);
});

test('connectWithBackoff retries until the server is up and stops when aborted', async (t) => {
  const config: GRPCClientConfig = { ...insecure, min_connection_timeout: '50ms', backoff: { base_delay: '20ms', max_delay: '40ms', multiplier: 1.6, jitter: 0.2 } };
  const port = await startServer(t, grpc.ServerCredentials.createInsecure());
  const o = grpcClientOptions(config, `127.0.0.1:${port}`);
  const up = new EchoClient(o.target, o.credentials, o.options);
  t.after(() => up.close());
  await connectWithBackoff(up, config);

  const closed = new grpc.Server();
  const deadPort = await new Promise<number>((resolve, reject) => closed.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))));
  closed.forceShutdown();
  const d = grpcClientOptions(config, `127.0.0.1:${deadPort}`);
  const down = new EchoClient(d.target, d.credentials, d.options);
  t.after(() => down.close());
  const retries: number[] = [];
  await assert.rejects(connectWithBackoff(down, config, AbortSignal.timeout(400), (attempt) => retries.push(attempt)), (e: Error) => e.name === 'TimeoutError' || e.name === 'AbortError');
  assert.ok(retries.length >= 2, `retried ${retries.length} times`);
});
