import { test } from 'node:test';
import { deadlineMarginMs } from './preview-grpc.js';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { Registry } from 'prom-client';
import { createServer, type SluiceServer } from '@sluice/server';
import { Engine, registerFlowControlServices } from '@sluice/flowcontrol';
import { createStaticDiscovery } from '@sluice/discovery';
import { jsonToStruct, serviceClient, type CheckHTTPRequest } from '@sluice/proto';
import { registerPreviewService, PREVIEW_DISABLED_MESSAGE, PREVIEW_STRUCT_MAX_DEPTH, type FlowPreviewConfig } from './index.js';

const DISABLED_PREFIX = PREVIEW_DISABLED_MESSAGE.slice(0, 24);

type Cb = (err: grpc.ServiceError | null, res: unknown) => void;
type Client = grpc.Client & Record<string, (req: unknown, opts: grpc.CallOptions, cb: Cb) => void>;

function call<T>(client: Client, rpc: string, req: unknown, timeoutMs = 5000): Promise<T> {
  return new Promise((resolve, reject) => {
    client[rpc](req, { deadline: Date.now() + timeoutMs }, (err, res) => (err ? reject(err) : resolve(res as T)));
  });
}

async function start(t: import('node:test').TestContext, config: FlowPreviewConfig = { enabled: true }, maxWaitMs = 3000) {
  const engine = new Engine();
  const metrics = new Registry();
  const server: SluiceServer = createServer({
    listener: { addr: '127.0.0.1:0', keep_alive: '180s', network: 'tcp' },
    grpc: { connection_timeout: '120s', enable_reflection: false, latency_buckets_ms: [10, 100, 1000] },
    http: { disable_http_keep_alives: false, idle_timeout: '30s', latency_buckets_ms: [10, 100, 1000], max_header_bytes: 1048576, read_header_timeout: '10s', read_timeout: '10s', write_timeout: '45s' },
    grpc_gateway: { grpc_server_address: '' },
    tls: { allowed_cn: '', cert_file: '', client_ca_file: '', key_file: '', enabled: false },
  }, { registry: metrics });
  const discovery = createStaticDiscovery({ entities: [{ ip_address: '10.0.0.1', uid: 'web', services: ['web'] }] });
  registerFlowControlServices(server, engine, discovery);
  const registry = registerPreviewService(server, engine, config, { maxWaitMs });
  await server.start();
  const port = server.address().port;
  const grpcAddress = `127.0.0.1:${port}`;
  const checkHttp = new (serviceClient('flowControlHttp'))(grpcAddress, grpc.credentials.createInsecure()) as unknown as Client;
  const preview = new (serviceClient('flowPreview'))(grpcAddress, grpc.credentials.createInsecure()) as unknown as Client;
  t.after(async () => {
    checkHttp.close();
    preview.close();
    await server.shutdown({ deadlineMs: 2000 });
  });
  const flow = (path: string, headers: Record<string, string> = {}, controlPoint = 'ingress', destination = '10.0.0.1', body = ''): Promise<unknown> => {
    const req: CheckHTTPRequest = {
      control_point: controlPoint,
      source: { address: '10.0.0.9', port: 40000 },
      destination: { address: destination, port: 8080 },
      request: { method: 'GET', path, host: 'web', scheme: 'http', size: body.length, protocol: 'HTTP/1.1', headers, body, truncated_body: false },
    };
    return call(checkHttp, 'CheckHTTP', req);
  };
  const handled = async (rpc: string): Promise<number> =>
    (await metrics.getSingleMetric('grpcserver_handled_total')!.get()).values.filter((v) => v.labels.grpc_method === rpc).reduce((n, v) => n + v.value, 0);
  return { engine, registry, base: `http://127.0.0.1:${port}`, port, flow, preview, handled };
}

function post(base: string, path: string, body: string | undefined, headers: Record<string, string> = { 'content-type': 'application/json' }, signal?: AbortSignal): Promise<Response> {
  return fetch(`${base}${path}`, { method: 'POST', headers, ...(body !== undefined ? { body } : {}), ...(signal ? { signal } : {}) });
}

async function until(cond: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

type HttpSample = { attributes: { request: { http: { path: string; headers: Record<string, string> } }; destination: { socketAddress: { address: string; port: number } } }; parsed_path: string[]; parsed_query: Record<string, string[]>; arrival_unix_ms: number };

test('HTTP preview over HTTP: N samples of CheckHTTP traffic, filter and service applied', async (t) => {
  const { base, registry, flow, handled } = await start(t);
  const pending = post(base, '/v1/flowcontrol/preview/http_requests/ingress?samples=2&service=web', JSON.stringify({ match_labels: { 'http.request.header.x_tier': 'gold' } }));
  await until(() => registry?.size === 1);
  const seen = Date.now();
  await flow('/skip', { 'x-tier': 'silver' });
  await flow('/other-service', { 'x-tier': 'gold' }, 'ingress', '10.9.9.9');
  await flow('/one?a=1&a=2', { 'x-tier': 'gold' });
  await flow('/two/x', { 'x-tier': 'gold' });
  const res = await pending;
  assert.equal(res.status, 200);
  const { samples } = (await res.json()) as { samples: HttpSample[] };
  assert.deepEqual(samples.map((s) => s.attributes.request.http.path), ['/one?a=1&a=2', '/two/x']);
  assert.deepEqual(samples[0].parsed_query, { a: ['1', '2'] });
  assert.deepEqual(samples[1].parsed_path, ['two', 'x']);
  assert.deepEqual(samples[0].attributes.destination, { socketAddress: { address: '10.0.0.1', port: 8080 } });
  assert.equal(samples[0].attributes.request.http.headers['x-tier'], 'gold');
  assert.ok(samples.every((s) => s.arrival_unix_ms >= seen && s.arrival_unix_ms <= Date.now()), 'each sample carries when the flow was seen');
  assert.ok(samples[0].arrival_unix_ms <= samples[1].arrival_unix_ms);
  assert.equal(await handled('PreviewHTTPRequests'), 0, 'served in process: no google.protobuf.Struct round trip through gRPC');
});

test('HTTP samples come out of the gRPC Structs as the same plain JSON: odd keys, deep bodies', async (t) => {
  const { base, registry, flow } = await start(t);
  const pending = post(base, '/v1/flowcontrol/preview/http_requests/ingress?samples=2', '{}');
  await until(() => registry?.size === 1);
  const nest = (n: number): string => '['.repeat(n) + ']'.repeat(n);
  const json = JSON.parse('{"content-type":"application/json","__proto__":"h"}') as Record<string, string>;
  await flow('/a?__proto__=p&constructor=c', json, 'ingress', '10.0.0.1', `{"n":1.5,"t":true,"z":null,"deep":${nest(PREVIEW_STRUCT_MAX_DEPTH - 2)}}`);
  await flow('/b', json, 'ingress', '10.0.0.1', `{"deep":${nest(PREVIEW_STRUCT_MAX_DEPTH - 1)}}`);
  const res = await pending;
  assert.equal(res.status, 200);
  const { samples } = (await res.json()) as { samples: (HttpSample & { parsed_body: unknown })[] };
  assert.deepEqual(samples[0].parsed_query, JSON.parse('{"__proto__":["p"],"constructor":["c"]}'));
  assert.deepEqual(samples[0].parsed_body, JSON.parse(`{"n":1.5,"t":true,"z":null,"deep":${nest(PREVIEW_STRUCT_MAX_DEPTH - 2)}}`));
  assert.deepEqual(Object.entries(samples[0].attributes.request.http.headers), [['content-type', 'application/json'], ['__proto__', 'h']]);
  assert.equal(samples[1].parsed_body, null, 'a body nesting past what a Struct carries is left unparsed');
  assert.equal(samples[1].attributes.request.http.path, '/b');
});

test('label preview over HTTP sees SDK Check flows; the wait ends with a partial answer', async (t) => {
  const { base, engine, registry } = await start(t, { enabled: true }, 300);
  const pending = post(base, '/v1/flowcontrol/preview/labels/feature?samples=3', '{}');
  await until(() => registry?.size === 1);
  const seen = Date.now();
  await engine.check({ controlPoint: 'feature', labels: { user: 'u1' }, services: [] });
  const t0 = Date.now();
  const res = await pending;
  assert.equal(res.status, 200);
  const body = await res.json() as { samples: { labels: Record<string, string>; arrival_unix_ms: number }[] };
  assert.deepEqual(body.samples.map((s) => s.labels), [{ user: 'u1' }]);
  const at = body.samples[0]?.arrival_unix_ms ?? 0;
  assert.ok(at >= seen && at <= t0, `arrival_unix_ms ${at} is when the flow was checked (${seen}..${t0})`);
  assert.ok(Date.now() - t0 < 1000);
  const none = await post(base, '/v1/flowcontrol/preview/labels/quiet', '{}');
  assert.deepEqual(await none.json(), { samples: [] });
});

test('a URL-encoded slash is part of the control point name', async (t) => {
  const { base, registry, flow } = await start(t);
  const pending = post(base, '/v1/flowcontrol/preview/http_requests/svc%2Fingress?samples=1', '{}');
  await until(() => registry?.watches('svc/ingress') === true);
  await flow('/x', {}, 'svc/ingress');
  const res = await pending;
  assert.equal(res.status, 200);
  assert.equal(((await res.json()) as { samples: unknown[] }).samples.length, 1);
});

test('a client going away ends its preview', async (t) => {
  const { base, registry } = await start(t, { enabled: true }, 20_000);
  const ac = new AbortController();
  const pending = post(base, '/v1/flowcontrol/preview/labels/gone', '{}', undefined, ac.signal).catch((e: Error) => e);
  await until(() => registry?.size === 1);
  ac.abort();
  assert.ok((await pending) instanceof Error);
  await until(() => registry?.size === 0);
  assert.equal(registry?.watches('gone'), false);
});

test('gRPC PreviewHTTPRequests and PreviewFlowLabels, bounded by the deadline, cancelled with the call', async (t) => {
  const { preview, registry, flow } = await start(t, { enabled: true }, 20_000);
  const pending = call<{ samples: unknown[] }>(preview, 'PreviewHTTPRequests', { control_point: 'ingress', samples: 1, label_matcher: jsonToStruct({ match_labels: { 'http.method': 'GET' } }) });
  await until(() => registry?.size === 1);
  await flow('/grpc');
  const res = await pending;
  assert.equal(res.samples.length, 1);
  assert.ok(JSON.stringify(res.samples[0]).includes('/grpc'), 'sample travels as a Struct');
  const t0 = Date.now();
  const partial = await call<{ samples: unknown[] }>(preview, 'PreviewFlowLabels', { control_point: 'quiet' }, 2000);
  assert.deepEqual(partial.samples, []);
  assert.ok(Date.now() - t0 < 2000, 'answered before the deadline');
  assert.ok(Date.now() - t0 >= 1700, 'waited for samples until the margin before the deadline (a tenth of it)');
  await assert.rejects(call(preview, 'PreviewFlowLabels', { control_point: 'x', samples: 5000 }), (e: grpc.ServiceError) => e.code === grpc.status.INVALID_ARGUMENT && /samples/.test(e.details));
  await assert.rejects(call(preview, 'PreviewFlowLabels', { control_point: 'x', label_matcher: jsonToStruct({ match_expressions: [{ key: 'a', operator: 'Near' }] }) }), (e: grpc.ServiceError) => e.code === grpc.status.INVALID_ARGUMENT && /operator/.test(e.details));
  const c = (preview.PreviewFlowLabels as unknown as (req: unknown, cb: Cb) => grpc.ClientUnaryCall)({ control_point: 'long' }, () => undefined);
  await until(() => registry?.size === 1);
  c.cancel();
  await until(() => registry?.size === 0);
});

test('disabled preview answers 501 / UNIMPLEMENTED naming the key and its variable', async (t) => {
  const { base, preview, engine } = await start(t, { enabled: false });
  for (const kind of ['http_requests', 'labels']) {
    const res = await post(base, `/v1/flowcontrol/preview/${kind}/ingress`, '{}');
    assert.equal(res.status, 501);
    const body = (await res.json()) as { code: number; message: string };
    assert.equal(body.code, 12);
    assert.ok(body.message.startsWith(DISABLED_PREFIX));
    assert.match(body.message, /flow_control\.preview_service\.enabled/);
    assert.match(body.message, /SLUICE_AGENT_FLOW_CONTROL_PREVIEW_SERVICE_ENABLED/);
  }
  for (const [path, body] of [['labels/x?samples=abc&service=a&service=b', '[]'], ['http_requests/x', undefined], [`labels/${'c'.repeat(10_000)}`, 'null']] as const) {
    const res = await post(base, `/v1/flowcontrol/preview/${path}`, body);
    assert.equal(res.status, 501, `${path.slice(0, 40)}: disabled comes before any check of the request`);
    assert.match(((await res.json()) as { message: string }).message, /flow_control\.preview_service\.enabled/);
  }
  await assert.rejects(call(preview, 'PreviewFlowLabels', { control_point: 'x' }), (e: grpc.ServiceError) => e.code === grpc.status.UNIMPLEMENTED && /SLUICE_AGENT_FLOW_CONTROL_PREVIEW_SERVICE_ENABLED/.test(e.details));
  assert.equal((await engine.check({ controlPoint: 'x', labels: {}, services: [] })).accepted, true);
});

test('malformed preview requests are answered with the right status while a good preview keeps being served', async (t) => {
  const { base, registry, flow } = await start(t, { enabled: true }, 20_000);
  const good = post(base, '/v1/flowcontrol/preview/http_requests/good?samples=5', JSON.stringify({ match_labels: { 'http.method': 'GET' } }));
  await until(() => registry?.size === 1);
  const P = '/v1/flowcontrol/preview/http_requests/ingress';
  const L = '/v1/flowcontrol/preview/labels/ingress';
  let deep: unknown = { label_exists: 'a' };
  for (let i = 0; i < 1000; i++) deep = { not: deep };
  let deep55: unknown = { label_exists: 'a' };
  for (let i = 0; i < 55; i++) deep55 = { not: deep55 };
  let deep33: unknown = { label_exists: 'a' };
  for (let i = 0; i < 33; i++) deep33 = { not: deep33 };
  const j = (v: unknown) => JSON.stringify(v);
  const cases: [string, string, string | undefined, number, RegExp, Record<string, string>?][] = [
    ['no body', P, undefined, 400, /body is required/],
    ['empty body', P, '', 400, /body is required/],
    ['invalid JSON', P, '{"match_labels":', 400, /not valid JSON/],
    ['text/plain', P, '{}', 415, /application\/json/, { 'content-type': 'text/plain' }],
    ['form content type', P, 'a=b', 415, /application\/json/, { 'content-type': 'application/x-www-form-urlencoded' }],
    ['unsupported charset', P, '{}', 415, /encoding|charset/, { 'content-type': 'application/json; charset=latin1' }],
    ['array body', P, '[]', 400, /must be a JSON object/],
    ['string body', P, '"x"', 400, /must be a JSON object/],
    ['null body', P, 'null', 400, /must be a JSON object/],
    ['number body', P, '42', 400, /must be a JSON object/],
    ['unknown top-level member', P, j({ foo: 1 }), 400, /foo/],
    ['match_labels array', P, j({ match_labels: [] }), 400, /match_labels/],
    ['match_labels value not a string', P, j({ match_labels: { a: 1 } }), 400, /match_labels/],
    ['match_expressions object', P, j({ match_expressions: {} }), 400, /match_expressions/],
    ['unknown operator', P, j({ match_expressions: [{ key: 'a', operator: 'Near', values: ['x'] }] }), 400, /match_expressions\[0\]\.operator/],
    ['missing key', P, j({ match_expressions: [{ operator: 'In', values: ['x'] }] }), 400, /match_expressions\[0\]\.key/],
    ['In without values', P, j({ match_expressions: [{ key: 'a', operator: 'In', values: [] }] }), 400, /values/],
    ['Exists with values', P, j({ match_expressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] }), 400, /values/],
    ['value not a string', P, j({ match_expressions: [{ key: 'a', operator: 'In', values: [1] }] }), 400, /values\[0\]/],
    ['bad regex', P, j({ expression: { label_matches: { label: 'a', regex: '(' } } }), 400, /regex/],
    ['look-ahead regex', P, j({ expression: { label_matches: { label: 'a', regex: '(?=x)' } } }), 400, /regex/],
    ['label_matches without regex', P, j({ expression: { label_matches: { label: 'a' } } }), 400, /regex/],
    ['label_equals without label', P, j({ expression: { label_equals: { value: 'x' } } }), 400, /label/],
    ['empty expression', P, j({ expression: {} }), 400, /expression/],
    ['expression with two members', P, j({ expression: { label_exists: 'a', not: { label_exists: 'b' } } }), 400, /expression/],
    ['unknown expression member', P, j({ expression: { bogus: 1 } }), 400, /bogus/],
    ['label_exists not a string', P, j({ expression: { label_exists: 5 } }), 400, /label_exists/],
    ['any.of not an array', P, j({ expression: { any: { of: 'x' } } }), 400, /of/],
    ['depth 33', P, j({ expression: deep33 }), 400, /deep|depth|levels/],
    ['depth 55 (past a Struct on the wire)', P, j({ expression: deep55 }), 400, /deeper than 50 levels/],
    ['depth 1000', P, j({ expression: deep }), 400, /deep|depth|levels/],
    ['10 MB body', P, j({ match_labels: { a: 'x'.repeat(10 * 1024 * 1024) } }), 413, /exceeds/],
    ['samples=0', `${P}?samples=0`, '{}', 400, /samples/],
    ['samples=-1', `${P}?samples=-1`, '{}', 400, /samples/],
    ['samples=abc', `${P}?samples=abc`, '{}', 400, /samples/],
    ['samples=1.5', `${P}?samples=1.5`, '{}', 400, /samples/],
    ['samples=100000', `${P}?samples=100000`, '{}', 400, /samples/],
    ['samples empty', `${P}?samples=`, '{}', 400, /samples/],
    ['samples repeated', `${P}?samples=1&samples=2`, '{}', 400, /samples/],
    ['service repeated', `${P}?service=a&service=b`, '{}', 400, /service/],
    ['10 KB control point', `/v1/flowcontrol/preview/http_requests/${'c'.repeat(10 * 1024)}`, '{}', 400, /control_point/],
    ['raw slash in control point', '/v1/flowcontrol/preview/http_requests/a/b', '{}', 404, /./],
    ['empty control point', '/v1/flowcontrol/preview/http_requests/', '{}', 404, /./],
    ['labels route: unknown operator', L, j({ match_expressions: [{ key: 'a', operator: 'Near' }] }), 400, /operator/],
    ['labels route: samples=abc', `${L}?samples=abc`, '{}', 400, /samples/],
  ];
  assert.ok(cases.length >= 40);
  let fed = 0;
  for (const [i, [name, path, body, status, message, headers]] of cases.entries()) {
    const res = await post(base, path, body, headers);
    assert.equal(res.status, status, `${name}: status`);
    const text = await res.text();
    const json = JSON.parse(text) as { code: number; message: string; details: unknown[] };
    assert.equal(typeof json.code, 'number', `${name}: gateway error shape`);
    assert.match(json.message, message, `${name}: message ${json.message}`);
    assert.ok(Array.isArray(json.details));
    if (i % 9 === 8 && fed < 4) {
      await flow(`/good-${fed}`, {}, 'good');
      fed++;
    }
  }
  assert.equal(registry?.size, 1, 'the good preview is still waiting, the bad ones left nothing behind');
  while (fed < 5) {
    await flow(`/good-${fed}`, {}, 'good');
    fed++;
  }
  const res = await good;
  assert.equal(res.status, 200);
  const { samples } = (await res.json()) as { samples: HttpSample[] };
  assert.deepEqual(samples.map((s) => s.attributes.request.http.path), ['/good-0', '/good-1', '/good-2', '/good-3', '/good-4']);
});

test('a preview path with invalid percent-encoding is 400 in the gateway shape (both routes)', async (t) => {
  const { base } = await start(t);
  for (const path of ['/v1/flowcontrol/preview/http_requests/%E0%A4%A', '/v1/flowcontrol/preview/labels/%E0%A4%A', '/v1/flowcontrol/preview/labels/%']) {
    const r = await post(base, path, '{}');
    assert.equal(r.status, 400, path);
    const body = await r.json() as { code: number; message: string };
    assert.equal(body.code, 3);
    assert.match(body.message, /not valid percent-encoding/);
  }
});

test('wait_ms shortens a preview\'s wait over HTTP (never past the longest); a bad one is 400 naming wait_ms', async (t) => {
  const { base } = await start(t, { enabled: true }, 20_000);
  const t0 = Date.now();
  const res = await post(base, '/v1/flowcontrol/preview/labels/quiet?samples=5&wait_ms=200', '{}');
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { samples: [] });
  assert.ok(Date.now() - t0 < 5000, 'answered at the end of the shorter wait, not the 20 s one');
  for (const bad of ['0', 'soon', '-5']) {
    const r = await post(base, `/v1/flowcontrol/preview/labels/quiet?wait_ms=${bad}`, '{}');
    assert.equal(r.status, 400, bad);
    assert.match(JSON.stringify(await r.json()), /wait_ms/);
  }
});

test('the margin kept before a gRPC deadline is a tenth of the time left, between 50 ms and 1 s', () => {
  assert.equal(deadlineMarginMs(100), 50);
  assert.equal(deadlineMarginMs(2000), 200);
  assert.equal(deadlineMarginMs(60_000), 1000);
});
