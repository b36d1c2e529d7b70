// server.auth.token_file on a real controller: the policy API over HTTP and gRPC needs a bearer token
// of the file, the probes, /metrics, gRPC health and the admission webhook stay open, and a rewritten
// file rotates the tokens without a restart. With server.tls.client_ca_file the same API needs a client
// certificate with the allowed CN.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { join } from 'node:path';
import { test } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { jsonToStruct, LOADER_OPTIONS, PROTO_DIR } from '@sluice/proto';
import { createTestPki, type TestPki } from '@sluice/server/testing';
import { unaryCall, type GrpcClient } from './support/clients.js';
import { endpointsJson, startEtcd } from './support/etcd.js';
import { startController, tempDir, until } from './support/processes.js';

const pkg = grpc.loadPackageDefinition(protoLoader.loadSync(join(PROTO_DIR, 'sluice/policies/v1/policies.proto'), LOADER_OPTIONS)) as unknown as {
  sluice: { policies: { v1: { PolicyService: new (address: string, creds: grpc.ChannelCredentials) => GrpcClient } } };
};

const spec = {
  circuit: {
    components: [{ flow_control: { rate_limiter: {
      in_ports: { bucket_capacity: { constant_signal: { value: 5 } }, fill_amount: { constant_signal: { value: 1 } } },
      parameters: { interval: '1s' }, selectors: [{ control_point: 'ingress' }],
    } } }],
  },
};

function withToken(token: string | undefined): grpc.Metadata {
  const m = new grpc.Metadata();
  if (token !== undefined) m.set('authorization', `Bearer ${token}`);
  return m;
}

function grpcUpsert(client: GrpcClient, token: string | undefined): Promise<unknown> {
  return new Promise((resolve, reject) => {
    (client as unknown as { UpsertPolicy(req: unknown, md: grpc.Metadata, opts: grpc.CallOptions, cb: (e: grpc.ServiceError | null, r: unknown) => void): void })
      .UpsertPolicy({ name: 'g', policy: jsonToStruct(spec) }, withToken(token), { deadline: Date.now() + 10_000 }, (e, r) => (e ? reject(e) : resolve(r)));
  });
}

test('server.auth.token_file: policy API over HTTP and gRPC needs a token; probes, metrics, health and the webhook stay open; rotation', { timeout: 120_000 }, async (t) => {
  const etcd = await startEtcd(t);
  const tokenFile = join(tempDir(t), 'tokens');
  writeFileSync(tokenFile, '# operators\nfirst-token\n\n  second-token  \n');
  const c = await startController(t, {
    ready: 'live',
    env: { SLUICE_CONTROLLER_ETCD_ENDPOINTS: endpointsJson(etcd), SLUICE_CONTROLLER_PROMETHEUS_ADDRESS: '127.0.0.1:9', SLUICE_CONTROLLER_SERVER_AUTH_TOKEN_FILE: tokenFile },
  });
  const http = (path: string, token?: string, init: RequestInit = {}): Promise<Response> => fetch(`${c.base}${path}`, {
    ...init, headers: { 'content-type': 'application/json', ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
  });
  const body = JSON.stringify({ policy: spec });

  // HTTP: no token, a wrong one, a malformed header: 401 in the gateway's error shape.
  for (const [token, what] of [[undefined, 'none'], ['wrong', 'wrong'], ['first-token x', 'malformed']] as const) {
    const res = await http('/v1/policies/h', token, { method: 'POST', body });
    assert.equal(res.status, 401, what);
    assert.equal(res.headers.get('www-authenticate'), 'Bearer');
    assert.equal(((await res.json()) as { code: number }).code, grpc.status.UNAUTHENTICATED);
  }
  assert.equal((await http('/v1/policies', undefined)).status, 401, 'reads are protected too');
  assert.equal((await http('/debug/pprof', undefined)).status, 401, 'profilers are protected');
  assert.equal((await http('/v1/policies/h', 'first-token', { method: 'POST', body })).status, 200);
  assert.equal((await http('/v1/policies/h', 'second-token')).status, 200, 'every token of the file works');
  // Open: probes, metrics, and the webhook (authenticated by client certificate when configured).
  assert.equal((await http('/v1/status/system/liveness')).status, 200);
  assert.equal((await http('/metrics')).status, 200);
  assert.notEqual((await http('/v1/admission/inject', undefined, { method: 'POST', body: '{}' })).status, 401);

  // gRPC: the same tokens; the standard health service stays open.
  const client = new pkg.sluice.policies.v1.PolicyService(c.address, grpc.credentials.createInsecure());
  t.after(() => client.close());
  await assert.rejects(grpcUpsert(client, undefined), (e: grpc.ServiceError) => e.code === grpc.status.UNAUTHENTICATED);
  await assert.rejects(grpcUpsert(client, 'wrong'), (e: grpc.ServiceError) => e.code === grpc.status.UNAUTHENTICATED);
  await grpcUpsert(client, 'second-token');
  const health = new (grpc.makeGenericClientConstructor({
    Check: { path: '/grpc.health.v1.Health/Check', requestStream: false, responseStream: false, requestSerialize: (b: Buffer) => b, requestDeserialize: (b: Buffer) => b, responseSerialize: (b: Buffer) => b, responseDeserialize: (b: Buffer) => b },
  }, 'Health'))(c.address, grpc.credentials.createInsecure()) as unknown as GrpcClient;
  t.after(() => health.close());
  const healthErr = await unaryCall(health, 'Check', Buffer.alloc(0)).then(() => undefined, (e: grpc.ServiceError) => e);
  assert.notEqual(healthErr?.code, grpc.status.UNAUTHENTICATED, 'gRPC health is open');

  // Rotation: the file rewritten; the removed token stops working, the new one works, no restart.
  writeFileSync(tokenFile, 'third-token\n');
  await until(async () => (await http('/v1/policies', 'first-token')).status === 401, 10_000, 'the removed token refused');
  assert.equal((await http('/v1/policies', 'third-token')).status, 200);
  await assert.rejects(grpcUpsert(client, 'second-token'), (e: grpc.ServiceError) => e.code === grpc.status.UNAUTHENTICATED);
  await grpcUpsert(client, 'third-token');
});

test('server.auth.token_file that cannot be read: the controller does not start', { timeout: 60_000 }, async (t) => {
  await assert.rejects(startController(t, { ready: false, startMs: 15_000, env: { SLUICE_CONTROLLER_SERVER_AUTH_TOKEN_FILE: '/nonexistent/tokens' } }));
});

function httpsRequest(port: number, pki: TestPki, cn: string | undefined, method: string, path: string, body?: string): Promise<number> {
  const client = cn === undefined ? {} : { cert: readFileSync(pki.client(cn).cert), key: readFileSync(pki.client(cn).key) };
  return new Promise((resolve, reject) => {
    const req = https.request({ host: '127.0.0.1', port, path, method, ca: readFileSync(pki.caCert), agent: false, headers: { 'content-type': 'application/json' }, ...client }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.setTimeout(5000, () => req.destroy(new Error('timeout')));
    req.end(body);
  });
}

test('server.tls.client_ca_file and allowed_cn: the policy API over HTTP and gRPC needs a client certificate with the allowed CN', { timeout: 120_000 }, async (t) => {
  const etcd = await startEtcd(t);
  const pki = createTestPki(['operator.sluice.test', 'intruder.sluice.test']);
  t.after(() => pki.cleanup());
  const c = await startController(t, {
    ready: false,
    env: {
      SLUICE_CONTROLLER_ETCD_ENDPOINTS: endpointsJson(etcd), SLUICE_CONTROLLER_PROMETHEUS_ADDRESS: '127.0.0.1:9',
      SLUICE_CONTROLLER_SERVER_TLS_ENABLED: 'true', SLUICE_CONTROLLER_SERVER_TLS_CERT_FILE: pki.serverCert, SLUICE_CONTROLLER_SERVER_TLS_KEY_FILE: pki.serverKey,
      SLUICE_CONTROLLER_SERVER_TLS_CLIENT_CA_FILE: pki.caCert, SLUICE_CONTROLLER_SERVER_TLS_ALLOWED_CN: 'operator.sluice.test',
    },
  });
  const body = JSON.stringify({ policy: spec });
  await until(async () => (await httpsRequest(c.port, pki, 'operator.sluice.test', 'GET', '/v1/status/system/liveness').catch(() => 0)) === 200, 30_000, 'liveness over mTLS');
  assert.equal(await httpsRequest(c.port, pki, 'operator.sluice.test', 'POST', '/v1/policies/m', body), 200);
  await assert.rejects(httpsRequest(c.port, pki, 'intruder.sluice.test', 'POST', '/v1/policies/m', body), 'a certificate with another CN is refused');
  await assert.rejects(httpsRequest(c.port, pki, undefined, 'GET', '/v1/policies'), 'no certificate is refused');

  const creds = (cn: string | undefined): grpc.ChannelCredentials => (cn === undefined
    ? grpc.credentials.createSsl(readFileSync(pki.caCert))
    : grpc.credentials.createSsl(readFileSync(pki.caCert), readFileSync(pki.client(cn).key), readFileSync(pki.client(cn).cert)));
  const clients: grpc.Client[] = [];
  t.after(() => clients.forEach((cl) => cl.close()));
  const upsert = (cn: string | undefined): Promise<unknown> => {
    const client = new pkg.sluice.policies.v1.PolicyService(c.address, creds(cn));
    clients.push(client);
    return grpcUpsert(client, undefined);
  };
  await upsert('operator.sluice.test');
  await assert.rejects(upsert('intruder.sluice.test'), (e: grpc.ServiceError) => e.code === grpc.status.UNAVAILABLE);
  await assert.rejects(upsert(undefined), (e: grpc.ServiceError) => e.code === grpc.status.UNAVAILABLE);
});
