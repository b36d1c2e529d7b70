import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { HealthImplementation, protoPath } from 'grpc-health-check';
import { pruneEmptyWatchers } from './watch-pruning.js';

interface HealthClient extends grpc.Client {
  watch(req: { service: string }): grpc.ClientReadableStream<{ status: string }>;
}

test('Watch calls under many names leave no watcher sets behind once they end', async (t) => {
  const health = new HealthImplementation();
  health.setStatus('known', 'SERVING');
  const server = new grpc.Server();
  health.addToServer({
    addService(service, impl) {
      server.addService(service as unknown as grpc.ServiceDefinition, pruneEmptyWatchers(health, impl as unknown as grpc.UntypedServiceImplementation));
    },
  });
  const port = await new Promise<number>((resolve, reject) => server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))));
  const pkg = grpc.loadPackageDefinition(protoLoader.loadSync(protoPath, { keepCase: true, enums: String, defaults: true })) as unknown as {
    grpc: { health: { v1: { Health: new (addr: string, creds: grpc.ChannelCredentials) => HealthClient } } };
  };
  const client = new pkg.grpc.health.v1.Health(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  t.after(() => {
    client.close();
    server.forceShutdown();
  });
  const watchers = (health as unknown as { watchers: Map<string, Set<unknown>> }).watchers;

  const open = async (service: string): Promise<grpc.ClientReadableStream<{ status: string }>> => {
    const call = client.watch({ service });
    call.on('error', () => undefined);
    await new Promise((resolve) => call.once('data', resolve));
    return call;
  };
  const names = Array.from({ length: 40 }, (_, i) => `attacker-${i}`);
  const calls = await Promise.all(names.map(open));
  const keep = await open('known');
  assert.equal(watchers.size, names.length + 1);
  for (const call of calls) call.cancel();
  const deadline = Date.now() + 2000;
  while (watchers.size > 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.deepEqual([...watchers.keys()], ['known'], 'only the name with an open Watch call keeps a set');
  assert.equal(watchers.get('known')?.size, 1);
  keep.cancel();
});
