// The policy API over gRPC (sluice.policies.v1.PolicyService), as gRPC clients call it.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { jsonToStruct, structToJson, LOADER_OPTIONS, PROTO_DIR, type ProtoStruct } from '@sluice/proto';
import type { GrpcClient } from './support/clients.js';
import { unaryCall } from './support/clients.js';
import { endpointsJson, startEtcd } from './support/etcd.js';
import { startController } from './support/processes.js';

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

test('PolicyService over gRPC: upsert, get, list decisions, errors with their codes and field violations', async (t) => {
  const etcd = await startEtcd(t);
  const c = await startController(t, { env: { SLUICE_CONTROLLER_ETCD_ENDPOINTS: endpointsJson(etcd), SLUICE_CONTROLLER_PROMETHEUS_ADDRESS: '127.0.0.1:9' } });
  const client = new pkg.sluice.policies.v1.PolicyService(c.address, grpc.credentials.createInsecure());
  t.after(() => client.close());

  const up = await unaryCall<{ policy: { name: string; status: string; hash: string; spec: ProtoStruct } }>(client, 'UpsertPolicy', { name: 'grpc-policy', policy: jsonToStruct(spec) });
  assert.equal(up.policy.name, 'grpc-policy');
  assert.equal(up.policy.status, 'running');
  assert.deepEqual(structToJson(up.policy.spec), spec);
  const got = await unaryCall<{ policy: { hash: string } }>(client, 'GetPolicy', { name: 'grpc-policy' });
  assert.equal(got.policy.hash, up.policy.hash);
  const decisions = await unaryCall<{ decisions: { policy_name: string; decision: ProtoStruct }[] }>(client, 'ListDecisions', { type: 'rate_limiter' });
  assert.deepEqual(decisions.decisions.map((d) => [d.policy_name, structToJson(d.decision).bucket_capacity]), [['grpc-policy', 5]]);

  const bad = structuredClone(spec);
  (bad.circuit.components[0].flow_control.rate_limiter.in_ports.bucket_capacity.constant_signal as { value: number }).value = -3;
  await assert.rejects(unaryCall(client, 'UpsertPolicy', { name: 'grpc-policy', policy: jsonToStruct(bad) }), (err: grpc.ServiceError) => {
    assert.equal(err.code, grpc.status.INVALID_ARGUMENT);
    assert.match(err.details, /bucket_capacity/);
    assert.ok(err.metadata.get('grpc-status-details-bin').length === 1, 'field violations travel in the status details');
    return true;
  });
  await assert.rejects(unaryCall(client, 'UpsertPolicy', { name: 'grpc-policy' }), { code: grpc.status.INVALID_ARGUMENT });
  await assert.rejects(unaryCall(client, 'UpsertPolicy', { name: 'Bad Name', policy: jsonToStruct(spec) }), { code: grpc.status.INVALID_ARGUMENT });
  await assert.rejects(unaryCall(client, 'GetPolicy', { name: 'nope' }), { code: grpc.status.NOT_FOUND });
  await assert.rejects(unaryCall(client, 'ListDecisions', { type: 'x' }), { code: grpc.status.INVALID_ARGUMENT });
  await assert.rejects(unaryCall(client, 'SetVariable', { name: 'grpc-policy', signal: 'NOPE', value: 1 }), { code: grpc.status.NOT_FOUND });
  assert.equal((await unaryCall<{ decisions: unknown[] }>(client, 'ListDecisions', { type: 'rate_limiter' })).decisions.length, 1, 'the bad upsert changed nothing');
  await unaryCall(client, 'DeletePolicy', { name: 'grpc-policy' });
  assert.deepEqual((await unaryCall<{ policies: unknown[] }>(client, 'ListPolicies', {})).policies, []);
});

test('PolicyService over gRPC: a policy\'s dynamic configuration is posted, read back, refused with its field, and deleted', async (t) => {
  const etcd = await startEtcd(t);
  const c = await startController(t, { env: { SLUICE_CONTROLLER_ETCD_ENDPOINTS: endpointsJson(etcd), SLUICE_CONTROLLER_PROMETHEUS_ADDRESS: '127.0.0.1:9' } });
  const client = new pkg.sluice.policies.v1.PolicyService(c.address, grpc.credentials.createInsecure());
  t.after(() => client.close());
  const keyed = structuredClone(spec) as { circuit: { components: Record<string, unknown>[] } };
  keyed.circuit.components.push({ variable: { constant_output: { value: 1 }, config_key: 'fill', out_ports: { output: { signal_name: 'FILL' } } } });
  (keyed.circuit.components[0].flow_control as { rate_limiter: { in_ports: Record<string, unknown> } }).rate_limiter.in_ports.fill_amount = { signal_name: 'FILL' };
  await unaryCall(client, 'UpsertPolicy', { name: 'dyn', policy: jsonToStruct(keyed) });

  const posted = await unaryCall<{ policy_name: string; dynamic_config: ProtoStruct }>(client, 'PostDynamicConfig', { name: 'dyn', dynamic_config: jsonToStruct({ fill: '3' }) });
  assert.deepEqual([posted.policy_name, structToJson(posted.dynamic_config)], ['dyn', { fill: '3' }]);
  const got = await unaryCall<{ dynamic_config: ProtoStruct }>(client, 'GetDynamicConfig', { name: 'dyn' });
  assert.deepEqual(structToJson(got.dynamic_config), { fill: '3' });
  const decisions = await unaryCall<{ decisions: { decision: ProtoStruct }[] }>(client, 'ListDecisions', { type: 'rate_limiter' });
  assert.equal(structToJson(decisions.decisions[0].decision).fill_amount, 3);
  await assert.rejects(unaryCall(client, 'PostDynamicConfig', { name: 'dyn', dynamic_config: jsonToStruct({ fil: 3 }) }), (err: grpc.ServiceError) => {
    assert.equal(err.code, grpc.status.INVALID_ARGUMENT);
    assert.match(err.details, /dynamic_config\.fil: unknown key/);
    return true;
  });
  await assert.rejects(unaryCall(client, 'PostDynamicConfig', { name: 'dyn' }), { code: grpc.status.INVALID_ARGUMENT });
  await assert.rejects(unaryCall(client, 'PostDynamicConfig', { name: 'nope', dynamic_config: jsonToStruct({}) }), { code: grpc.status.NOT_FOUND });
  await unaryCall(client, 'DeleteDynamicConfig', { name: 'dyn' });
  await assert.rejects(unaryCall(client, 'GetDynamicConfig', { name: 'dyn' }), { code: grpc.status.NOT_FOUND });
});
