import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { serviceClient } from '@sluice/proto';
import { Engine } from '../check/engine.js';
import { PolicyClassifier } from '../classifiers/classifier.js';
import { registerEnvoyAuthorizationService } from './envoy-authz-service.js';
import { startTestServer } from '../testing/test-support.js';

interface Answer {
  status: { code: number };
  ok_response?: { headers: { header: { key: string; value: string }; append_action: string }[] } | null;
}

test('ext_authz over gRPC: classifier labels from the body come back as baggage in ok_response, the request\'s baggage kept', async (t) => {
  const engine = new Engine();
  engine.register(new PolicyClassifier({
    identity: { policy_name: 'p', policy_hash: 'h', classifier_index: 0 },
    rules: { tier: { extractor: { json: { from: 'request.http.body', pointer: '/tier' } } } },
  }), { control_point: 'shop' });
  const { server, grpcAddress } = await startTestServer((s) => registerEnvoyAuthorizationService(s, engine));
  t.after(() => server.shutdown({ deadlineMs: 2000 }));
  const Ctor = serviceClient('envoyAuthorization');
  const client = new Ctor(grpcAddress, grpc.credentials.createInsecure()) as unknown as grpc.Client & Record<string, (r: unknown, m: grpc.Metadata, o: grpc.CallOptions, cb: (e: grpc.ServiceError | null, r: Answer) => void) => void>;
  t.after(() => client.close());
  const ask = (body: string): Promise<Answer> => new Promise((resolve, reject) => {
    const req = { attributes: { request: { http: { method: 'POST', path: '/p', headers: { baggage: 'user=u1' }, body } }, context_extensions: { 'control-point': 'shop' } } };
    client.Check(req, new grpc.Metadata(), { deadline: Date.now() + 5000 }, (e, r) => (e ? reject(e) : resolve(r)));
  });
  const a = await ask('{"tier":"gold"}');
  assert.equal(a.status.code, 0);
  assert.deepEqual(a.ok_response?.headers.map((h) => [h.header.key, h.header.value, h.append_action]), [['baggage', 'user=u1,tier=gold', 'OVERWRITE_IF_EXISTS_OR_ADD']]);
  const none = await ask('not json');
  assert.deepEqual(none.ok_response?.headers, [], 'no label added: no header set');
});
