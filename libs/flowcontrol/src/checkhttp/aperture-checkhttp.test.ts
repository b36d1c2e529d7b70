import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { createStaticDiscovery } from '@sluice/discovery';
import { serviceClient, type ApertureCheckHTTPResponse__Output, type CheckResponse__Output } from '@sluice/proto';
import { Engine } from '../check/engine.js';
import { applyLocalLimiters } from '../local-limiters/apply-local-limiters.js';
import { loadLocalLimiters } from '../local-limiters/local-limiters-config.js';
import { registerFlowControlServices } from '../services/register-services.js';
import { startTestServer } from '../testing/test-support.js';

type Client = grpc.Client & { CheckHTTP(req: unknown, opts: grpc.CallOptions, cb: (err: grpc.ServiceError | null, res: ApertureCheckHTTPResponse__Output) => void): void };

async function setup(t: TestContext) {
  const engine = new Engine();
  applyLocalLimiters(engine, loadLocalLimiters(`
- { name: deny-all, control_point: deny, bucket_capacity: 1, fill_amount: 1, interval: 1m }
`));
  const discovery = createStaticDiscovery({ entities: [{ ip_address: '10.1.2.3', uid: 'web', services: ['web-svc'] }] });
  const s = await startTestServer((server) => registerFlowControlServices(server, engine, discovery));
  t.after(() => s.server.shutdown({ deadlineMs: 2000 }));
  const Ctor = serviceClient('apertureFlowControlHttp');
  const client = new Ctor(s.grpcAddress, grpc.credentials.createInsecure()) as unknown as Client;
  t.after(() => client.close());
  const check = (req: unknown) => new Promise<ApertureCheckHTTPResponse__Output>((resolve, reject) => {
    client.CheckHTTP(req, { deadline: Date.now() + 5000 }, (err, res) => (err ? reject(err) : resolve(res)));
  });
  return { ...s, check };
}

function checkResponseOf(r: ApertureCheckHTTPResponse__Output): CheckResponse__Output {
  const v = r.dynamic_metadata?.fields['aperture.check_response'];
  assert.ok(v !== undefined && typeof v.stringValue === 'string', 'dynamic_metadata carries aperture.check_response');
  return serviceClient('flowControl').service.Check.responseDeserialize(Buffer.from(v.stringValue, 'base64')) as CheckResponse__Output;
}

const request = (controlPoint: string, path: string) => ({
  control_point: controlPoint,
  source: { address: '10.9.9.9', port: 51000 },
  destination: { address: '10.1.2.3', port: 8080 },
  request: { method: 'GET', path, host: 'web', scheme: 'http', size: -1, protocol: 'HTTP/1.1', headers: { 'user-id': 'u1' } },
});

test('aperture.flowcontrol.checkhttp.v1 CheckHTTP (unary gRPC): allowed with a header map, denied with 429 and Retry-After', async (t) => {
  const { check } = await setup(t);
  const ok = await check(request('deny', '/a/./b/../c?x=1'));
  assert.equal(ok.http_response, 'ok_response');
  assert.deepEqual(ok.ok_response?.headers, {});
  assert.equal(ok.status?.code, 0);
  const c1 = checkResponseOf(ok);
  assert.equal(c1.decision_type, 'DECISION_TYPE_ACCEPTED');
  assert.deepEqual(c1.services, ['web-svc'], 'services from the destination address');
  assert.ok(c1.flow_label_keys.includes('http.request.header.user_id'), 'labels as the tap\'s CheckHTTP makes them');
  const denied = await check(request('deny', '/c'));
  assert.equal(denied.http_response, 'denied_response');
  assert.equal(denied.denied_response?.status, 429);
  assert.equal(denied.denied_response?.headers['retry-after'], '60');
  assert.equal(denied.status?.code, grpc.status.RESOURCE_EXHAUSTED);
  const c2 = checkResponseOf(denied);
  assert.equal(c2.reject_reason, 'REJECT_REASON_RATE_LIMITED');
  assert.equal(c2.limiter_decisions[0].component_id, 'deny-all');
});

test('CheckHTTP (Aperture) normalizes the request target as the tap\'s CheckHTTP does, refusing one that cannot be', async (t) => {
  const { check } = await setup(t);
  const refused = await check(request('ingress', '/a/%zz'));
  assert.equal(refused.denied_response?.status, 400);
  assert.match(refused.denied_response?.body ?? '', /BAD_REQUEST_TARGET/);
  assert.equal(checkResponseOf(refused).decision_type, 'DECISION_TYPE_REJECTED');
});

test('CheckHTTP (Aperture) refuses a request without a control point or without HTTP attributes: INVALID_ARGUMENT', async (t) => {
  const { check } = await setup(t);
  await assert.rejects(check({ ...request('x', '/'), control_point: '' }), (e: grpc.ServiceError) => e.code === grpc.status.INVALID_ARGUMENT);
  await assert.rejects(check({ control_point: 'x' }), (e: grpc.ServiceError) => e.code === grpc.status.INVALID_ARGUMENT && /request is required/.test(e.details));
});

/** The body Aperture's nginx/Kong Lua plugin (gateways/lua/aperture-plugin/access.lua) posts: cjson of ngx variables, ports and Content-Length as strings, no body field for a GET. */
const LUA_BODY = '{"source":{"protocol":"TCP","address":"10.9.9.9","port":"54321"},"destination":{"protocol":"TCP","address":"10.1.2.3","port":"80"},'
  + '"request":{"method":"POST","headers":{"host":"web","content-length":"11","user-id":"u7","content-type":"application/json"},"path":"/orders","host":"web",'
  + '"scheme":"http","size":"11","protocol":"HTTP/1.1","body":"{\\"qty\\": 2}"},"control_point":"deny"}';

test('POST /v1/flowcontrol/checkhttp with the Lua plugin\'s body: dynamic_metadata["aperture.check_response"] and header maps as it reads them', async (t) => {
  const { base } = await setup(t);
  const post = async () => {
    const r = await fetch(`${base}/v1/flowcontrol/checkhttp`, { method: 'POST', headers: { 'content-type': 'application/json', 'grpc-timeout': '250m' }, body: LUA_BODY });
    return { status: r.status, json: (await r.json()) as { ok_response?: { headers: Record<string, string> }; denied_response?: { status: number; headers: Record<string, string> }; dynamic_metadata: Record<string, string> } };
  };
  const ok = await post();
  assert.equal(ok.status, 200);
  assert.deepEqual(ok.json.ok_response, { headers: {} });
  const b64 = ok.json.dynamic_metadata['aperture.check_response'];
  const c = serviceClient('flowControl').service.Check.responseDeserialize(Buffer.from(b64, 'base64')) as CheckResponse__Output;
  assert.equal(c.control_point, 'deny');
  assert.deepEqual(c.services, ['web-svc']);
  assert.ok(c.flow_label_keys.includes('http.request_content_length'), 'the size given as a string was read');
  const denied = await post();
  assert.equal(denied.json.denied_response?.status, 429);
  assert.equal(denied.json.denied_response?.headers['retry-after'], '60', 'a map the plugin copies into ngx.header');
});
