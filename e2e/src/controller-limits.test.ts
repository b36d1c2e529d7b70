// The policy API refuses what is too big or too deep with 400 / INVALID_ARGUMENT at once, over HTTP and
// gRPC: a Struct nested past the limit (and past what the protobuf decoder reads), a signal name of
// 20 000 characters and a cycle of 5 000 components (answers bounded to fit gRPC trailers).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { jsonToStruct, LOADER_OPTIONS, PROTO_DIR } from '@sluice/proto';
import { unaryCall, type GrpcClient } from './support/clients.js';
import { endpointsJson, startEtcd } from './support/etcd.js';
import { startController } from './support/processes.js';

const pkg = grpc.loadPackageDefinition(protoLoader.loadSync(join(PROTO_DIR, 'sluice/policies/v1/policies.proto'), LOADER_OPTIONS)) as unknown as {
  sluice: { policies: { v1: { PolicyService: new (address: string, creds: grpc.ChannelCredentials) => GrpcClient } } };
};

function nested(depth: number): Record<string, unknown> {
  let v: Record<string, unknown> = { x: 1 };
  for (let i = 1; i < depth; i++) v = { a: v };
  return v;
}

/** Protobuf length-delimited field `n`. */
function field(n: number, bytes: Buffer): Buffer {
  const tag = Buffer.from([(n << 3) | 2]);
  const len: number[] = [];
  let v = bytes.length;
  while (v > 0x7f) { len.push((v & 0x7f) | 0x80); v >>>= 7; }
  len.push(v);
  return Buffer.concat([tag, Buffer.from(len), bytes]);
}

/**
 * UpsertPolicyRequest{name, policy: {a: {a: ... {}}}} encoded by hand: a grpc-js client refuses to
 * encode a Struct this deep itself, a client in another language does not.
 */
function deepRequest(depth: number): Buffer {
  let struct: Buffer = Buffer.alloc(0);
  for (let i = 0; i < depth; i++) struct = field(1, Buffer.concat([field(1, Buffer.from('a')), field(2, field(5, struct))]));
  return Buffer.concat([field(1, Buffer.from('p')), field(2, struct)]);
}

function rawUpsert(address: string, bytes: Buffer): Promise<unknown> {
  const raw = new grpc.Client(address, grpc.credentials.createInsecure());
  return new Promise<unknown>((resolve, reject) => {
    raw.makeUnaryRequest('/sluice.policies.v1.PolicyService/UpsertPolicy', (b: Buffer) => b, (b: Buffer) => b, bytes, { deadline: Date.now() + 10_000 }, (e, r) => (e ? reject(e) : resolve(r)));
  }).finally(() => raw.close());
}

const longSignal = 'S'.repeat(20_000);
const cycle = (n: number): Record<string, unknown> => ({
  circuit: {
    components: Array.from({ length: n }, (_, i) => ({
      arithmetic_combinator: { operator: 'add', in_ports: { lhs: { signal_name: `s${i}` }, rhs: { constant_signal: { value: 1 } } }, out_ports: { output: { signal_name: `s${(i + 1) % n}` } } },
    })),
  },
});
const danglingLong = { circuit: { components: [{ arithmetic_combinator: { operator: 'add', in_ports: { lhs: { signal_name: longSignal }, rhs: { signal_name: longSignal } }, out_ports: { output: { signal_name: 'OUT' } } } }] } };

test('too deep, too long, too many problems: 400 / INVALID_ARGUMENT at once over HTTP and gRPC', { timeout: 120_000 }, async (t) => {
  const etcd = await startEtcd(t);
  const c = await startController(t, { env: { SLUICE_CONTROLLER_ETCD_ENDPOINTS: endpointsJson(etcd), SLUICE_CONTROLLER_PROMETHEUS_ADDRESS: '127.0.0.1:9' } });
  const client = new pkg.sluice.policies.v1.PolicyService(c.address, grpc.credentials.createInsecure());
  t.after(() => client.close());

  const cases: [string, Record<string, unknown>][] = [
    ['nested 33 levels', { circuit: nested(32) }],
    ['a 20 000-character signal name', danglingLong],
    ['a cycle of 5 000 components', cycle(5000)],
  ];
  for (const [what, policy] of cases) {
    const res = await fetch(`${c.base}/v1/policies/p`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ policy }), signal: AbortSignal.timeout(10_000),
    });
    assert.equal(res.status, 400, `HTTP: ${what}`);
    const body = await res.json() as { code: number; message: string };
    assert.equal(body.code, grpc.status.INVALID_ARGUMENT, what);
    assert.ok(body.message.length <= 600, `HTTP: ${what}: message of ${body.message.length} characters`);
    await assert.rejects(unaryCall(client, 'UpsertPolicy', { name: 'p', policy: jsonToStruct(policy, 1000) }, 10_000), (err: grpc.ServiceError) => {
      assert.equal(err.code, grpc.status.INVALID_ARGUMENT, `gRPC: ${what}: ${err.message.slice(0, 200)}`);
      return true;
    });
  }
  // Past what the protobuf decoder reads (grpc-js alone would answer INTERNAL).
  const res = await fetch(`${c.base}/v1/policies/p`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ policy: { circuit: nested(200) } }), signal: AbortSignal.timeout(10_000),
  });
  assert.equal(res.status, 400, 'HTTP: nested 200 levels');
  for (const depth of [60, 200]) {
    await assert.rejects(rawUpsert(c.address, deepRequest(depth)), (err: grpc.ServiceError) => {
      assert.equal(err.code, grpc.status.INVALID_ARGUMENT, `gRPC: nested ${depth} levels: ${err.message}`);
      return true;
    });
  }
  const ok = await fetch(`${c.base}/v1/policies/p`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ policy: { circuit: { components: [] } } }) });
  assert.equal(ok.status, 200, 'the controller still serves');
});
