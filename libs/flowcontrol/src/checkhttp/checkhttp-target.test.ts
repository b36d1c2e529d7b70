import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import { serviceClient, type CheckHTTPRequest__Output, type CheckHTTPResponse__Output } from '@sluice/proto';
import type { CheckHTTPAnswer } from '../wire/check-response-wire.js';
import { decideCheckHttp } from './checkhttp-decide.js';
import type { FlowRequest } from '../check/flow-request.js';
import { Engine } from '../check/engine.js';
import { applyLocalLimiters } from '../local-limiters/apply-local-limiters.js';
import { loadLocalLimiters } from '../local-limiters/local-limiters-config.js';
import { registerFlowControlServices } from '../services/register-services.js';
import { startTestServer } from '../testing/test-support.js';

/** A limiter on /admin with one token per target and no refill within a test. */
const ADMIN_LIMITER = `
- control_point: ingress
  label_matcher: { expression: { label_matches: { label: http.target, regex: "^/admin" } } }
  bucket_capacity: 1
  fill_amount: 1
  interval: 1h
  continuous_fill: false
  label_key: http.target
`;

function engineWithAdminLimit(): Engine {
  const engine = new Engine();
  applyLocalLimiters(engine, loadLocalLimiters(ADMIN_LIMITER));
  return engine;
}

function req(path: string, host = 'web'): CheckHTTPRequest__Output {
  return {
    control_point: 'ingress',
    source: { protocol: 'TCP', address: '10.0.0.1', port: 1 },
    destination: { protocol: 'TCP', address: '10.0.0.2', port: 2 },
    request: { method: 'GET', path, host, scheme: 'http', size: 0, protocol: 'HTTP/1.1', headers: {}, body: '', truncated_body: false },
    ramp_mode: false,
  } as unknown as CheckHTTPRequest__Output;
}

async function decide(engine: Engine, path: string, host?: string): Promise<CheckHTTPAnswer> {
  return decideCheckHttp({ engine, discovery: undefined }, req(path, host));
}

test('CheckHTTP labels the normalized target: every spelling of /admin/... takes from the same bucket', async () => {
  const variants = ['//admin/u1', '/./admin/u2', '/x/../admin/u3', '/%61dmin/u4', 'http://api/admin/u5', '/admin/%2e/u6'];
  for (const [i, v] of variants.entries()) {
    const engine = engineWithAdminLimit();
    const plain = `/admin/u${i + 1}`;
    // Slashes are not merged at the agent: //admin is another path, and the only one not limited.
    if (v.startsWith('//')) {
      assert.ok((await decide(engine, v)).ok_response, v);
      assert.ok((await decide(engine, v)).ok_response, `${v}: not /admin to the agent`);
      continue;
    }
    assert.ok((await decide(engine, v)).ok_response, `${v}: the first of its bucket`);
    const again = await decide(engine, plain);
    assert.equal(again.denied_response?.status, 429, `${plain} after ${v}: the same bucket`);
    assert.equal((await decide(engine, v)).denied_response?.status, 429, `${v} again`);
  }
});

test('CheckHTTP: classifiers, previews and labels see the normalized target and the absolute-form host', async () => {
  const engine = new Engine();
  const seen: { path: string | undefined; host: string | undefined; labels: Readonly<Record<string, string>> }[] = [];
  const sink = { observe: (r: FlowRequest, labels: Readonly<Record<string, string>>) => { seen.push({ path: r.http?.request?.path, host: r.http?.request?.host, labels }); } };
  engine.addObserver({ sinkFor: () => sink });
  await decide(engine, 'http://api.example:8080/a/./b/../c?q=%2F', 'forged');
  await decide(engine, '/plain?x=1');
  assert.equal(seen[0]?.path, '/a/c?q=%2F');
  assert.equal(seen[0]?.host, 'api.example:8080');
  assert.equal(seen[0]?.labels['http.target'], '/a/c?q=%2F');
  assert.equal(seen[0]?.labels['http.host'], 'api.example:8080', 'the absolute URI names the host, not the Host field');
  assert.equal(seen[1]?.labels['http.target'], '/plain?x=1');
  assert.equal(seen[1]?.labels['http.host'], 'web');
});

test('CheckHTTP refuses ambiguous targets with 400 over gRPC, before any component', async (t) => {
  const engine = engineWithAdminLimit();
  const s = await startTestServer((server) => registerFlowControlServices(server, engine, undefined));
  t.after(() => s.server.shutdown({ deadlineMs: 2000 }));
  const Ctor = serviceClient('flowControlHttp');
  const client = new Ctor(s.grpcAddress, grpc.credentials.createInsecure()) as unknown as grpc.Client & Record<string, (r: unknown, o: grpc.CallOptions, cb: (e: grpc.ServiceError | null, v: CheckHTTPResponse__Output) => void) => void>;
  t.after(() => client.close());
  const call = (path: string): Promise<CheckHTTPResponse__Output> => new Promise((resolve, reject) => {
    client.CheckHTTP?.(req(path), { deadline: Date.now() + 5000 }, (e, v) => (e ? reject(e) : resolve(v)));
  });
  for (const [path, reason] of [['/admin%2Fusers', /%2F/], ['/x/%5c/admin', /%5C/], ['/../admin', /above the root/], ['/admin%00', /NUL/], ['ftp://h/admin', /scheme/]] as const) {
    const a = await call(path);
    assert.equal(a.denied_response?.status, 400, path);
    const body = JSON.parse(a.denied_response?.body ?? '{}') as { code: number; message: string; reason: string };
    assert.equal(body.code, 3, 'INVALID_ARGUMENT');
    assert.equal(body.reason, 'BAD_REQUEST_TARGET');
    assert.match(body.message, reason);
    assert.equal(a.check_response?.decision_type, 'DECISION_TYPE_REJECTED');
    assert.equal(a.check_response?.control_point, 'ingress');
  }
  assert.ok((await call('/admin/users')).ok_response, 'the refusals took no token');
});
