import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { protoPath } from 'grpc-health-check';
import { healthGrpcService } from './health-grpc.js';
import { StatusRegistry } from './status-registry.js';

interface HealthClient extends grpc.Client {
  check(req: { service: string }, cb: (err: grpc.ServiceError | null, res?: { status: string }) => void): void;
  watch(req: { service: string }): grpc.ClientReadableStream<{ status: string }>;
}

async function start(registry: StatusRegistry) {
  const health = healthGrpcService(registry);
  const server = new grpc.Server();
  server.addService(health.definition, health.implementation);
  const port = await new Promise<number>((resolve, reject) => server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))));
  const pkg = grpc.loadPackageDefinition(protoLoader.loadSync(protoPath, { keepCase: true, enums: String, defaults: true })) as unknown as {
    grpc: { health: { v1: { Health: new (addr: string, creds: grpc.ChannelCredentials) => HealthClient } } };
  };
  const client = new pkg.grpc.health.v1.Health(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const check = (service: string) => new Promise<string>((resolve, reject) => client.check({ service }, (err, res) => (err ? reject(err) : resolve(res?.status ?? ''))));
  const stop = () => {
    client.close();
    void health.shutdown();
    server.forceShutdown();
  };
  return { health, client, check, stop };
}

test('the overall service follows liveness and readiness', async (t) => {
  const registry = new StatusRegistry();
  registry.set('liveness/service/event_loop', { healthy: true });
  const { check, stop } = await start(registry);
  t.after(stop);
  assert.equal(await check(''), 'SERVING');
  registry.set('readiness/service/listen', { healthy: false, message: 'not listening' });
  assert.equal(await check(''), 'NOT_SERVING');
  assert.equal(await check('readiness'), 'NOT_SERVING');
  assert.equal(await check('liveness'), 'SERVING');
  registry.set('readiness/service/listen', { healthy: true });
  assert.equal(await check(''), 'SERVING');
});

test('named services are set explicitly; unknown names are NOT_FOUND', async (t) => {
  const registry = new StatusRegistry();
  const { health, check, stop } = await start(registry);
  t.after(stop);
  await assert.rejects(check('sluice.Missing'), (err: grpc.ServiceError) => err.code === grpc.status.NOT_FOUND);
  health.setServingStatus('aperture.flowcontrol.check.v1.FlowControlService', true);
  assert.equal(await check('aperture.flowcontrol.check.v1.FlowControlService'), 'SERVING');
  health.setServingStatus('aperture.flowcontrol.check.v1.FlowControlService', 'NOT_SERVING');
  assert.equal(await check('aperture.flowcontrol.check.v1.FlowControlService'), 'NOT_SERVING');
  assert.throws(() => health.setServingStatus('', false), /follows the status registry/);
  assert.throws(() => health.setServingStatus('x', 'MAYBE' as 'SERVING'), /invalid serving status/);
});

test('Watch streams changes, and SERVICE_UNKNOWN for unknown names', async (t) => {
  const registry = new StatusRegistry();
  const { client, stop } = await start(registry);
  t.after(stop);
  const seen: string[] = [];
  const call = client.watch({ service: '' });
  t.after(() => call.cancel());
  call.on('error', () => undefined);
  const got = (n: number) => new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`saw ${JSON.stringify(seen)}`)), 2000);
    const onData = (msg: { status: string }) => {
      seen.push(msg.status);
      if (seen.length >= n) { clearTimeout(timer); call.off('data', onData); resolve(); }
    };
    call.on('data', onData);
  });
  const first = got(1);
  await first;
  const second = got(2);
  registry.set('liveness/watchdog/heap', { healthy: false });
  await second;
  assert.deepEqual(seen, ['SERVING', 'NOT_SERVING']);

  const unknown = client.watch({ service: 'nope' });
  t.after(() => unknown.cancel());
  unknown.on('error', () => undefined);
  const status = await new Promise<string>((resolve) => unknown.once('data', (m: { status: string }) => resolve(m.status)));
  assert.equal(status, 'SERVICE_UNKNOWN');
});

test('close reports NOT_SERVING everywhere', async (t) => {
  const registry = new StatusRegistry();
  const { health, check, stop } = await start(registry);
  t.after(stop);
  health.setServingStatus('svc', true);
  await health.shutdown();
  assert.equal(await check(''), 'NOT_SERVING');
  assert.equal(await check('svc'), 'NOT_SERVING');
  registry.set('liveness/x', { healthy: true });
  assert.equal(await check(''), 'NOT_SERVING', 'no longer follows the registry');
});
