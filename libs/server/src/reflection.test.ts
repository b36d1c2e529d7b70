import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { ECHO_SERVICE, defaultConfig, startEchoServer } from './test-support.js';

const require = createRequire(import.meta.url);
const reflectionProto = join(dirname(require.resolve('@grpc/reflection/package.json')), 'build/proto/grpc/reflection/v1/reflection.proto');
const pkg = grpc.loadPackageDefinition(protoLoader.loadSync(reflectionProto, { keepCase: true })) as unknown as {
  grpc: { reflection: { v1: { ServerReflection: grpc.ServiceClientConstructor } } };
};

function listServices(port: number): Promise<string[]> {
  const client = new pkg.grpc.reflection.v1.ServerReflection(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  return new Promise<string[]>((resolve, reject) => {
    const call = (client as unknown as { ServerReflectionInfo: (o: grpc.CallOptions) => grpc.ClientDuplexStream<object, { list_services_response?: { service: { name: string }[] } }> })
      .ServerReflectionInfo({ deadline: Date.now() + 3000 });
    call.on('data', (msg) => {
      resolve((msg.list_services_response?.service ?? []).map((s: { name: string }) => s.name));
      call.end();
    });
    call.on('error', reject);
    call.write({ list_services: '' });
  }).finally(() => client.close());
}

test('reflection lists the registered services when enabled', async (t) => {
  const s = await startEchoServer(defaultConfig({ grpc: { enable_reflection: true } }));
  t.after(() => s.server.shutdown({ deadlineMs: 1000 }));
  const names = await listServices(s.port);
  assert.ok(names.includes(ECHO_SERVICE), names.join(','));
});

test('reflection is not served when disabled', async (t) => {
  const s = await startEchoServer(defaultConfig());
  t.after(() => s.server.shutdown({ deadlineMs: 1000 }));
  await assert.rejects(listServices(s.port), { code: grpc.status.UNIMPLEMENTED });
});
