import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileLabelMatcher } from '@sluice/selectors';
import { Engine, httpFlowLabels } from '@sluice/flowcontrol';
import { jsonToStruct, serviceClient, structToJson, type CheckHTTPRequest__Output, type ProtoStruct } from '@sluice/proto';
import { PREVIEW_STRUCT_MAX_DEPTH, PreviewRegistry, httpSample, parsedPath, parsedPairs } from './index.js';

export function httpFlow(path: string, headers: Record<string, string> = {}, controlPoint = 'ingress', body = ''): CheckHTTPRequest__Output {
  return {
    control_point: controlPoint,
    source: { address: '10.0.0.9', port: 40000, protocol: 'TCP' },
    destination: { address: '10.0.0.1', port: 8080, protocol: 'TCP' },
    request: { method: 'POST', path, host: 'shop', scheme: 'http', size: body.length, protocol: 'HTTP/1.1', headers, body, truncated_body: false },
    ramp_mode: false,
  };
}

function feed(engine: Engine, req: CheckHTTPRequest__Output, services: string[] = []): void {
  void engine.check({ controlPoint: req.control_point, labels: httpFlowLabels(req.request), services, type: 'http', http: req });
}

function setup(): { engine: Engine; registry: PreviewRegistry } {
  const engine = new Engine();
  const registry = new PreviewRegistry();
  engine.addObserver(registry);
  return { engine, registry };
}

const all = compileLabelMatcher({});

test('the HTTP sample has the documented shape', () => {
  const s = httpSample(httpFlow('/api/v1/a%20b/?q=1&q=2&x=', { 'content-type': 'application/json' }, 'cp', '{"k":[1,2]}'));
  assert.deepEqual(s, {
    attributes: {
      request: { http: { method: 'POST', path: '/api/v1/a%20b/?q=1&q=2&x=', host: 'shop', scheme: 'http', size: 11, protocol: 'HTTP/1.1', headers: { 'content-type': 'application/json' }, body: '{"k":[1,2]}' } },
      source: { socketAddress: { address: '10.0.0.9', port: 40000 } },
      destination: { socketAddress: { address: '10.0.0.1', port: 8080 } },
    },
    parsed_path: ['api', 'v1', 'a b'],
    parsed_query: { q: ['1', '2'], x: [''] },
    parsed_body: { k: [1, 2] },
    truncated_body: false,
  });
  const form = httpSample(httpFlow('/f', { 'Content-Type': 'application/x-www-form-urlencoded' }, 'cp', 'a=1&b=x+y&a=2'));
  assert.deepEqual(form.parsed_body, { a: ['1', '2'], b: ['x y'] });
  assert.equal(httpSample(httpFlow('/t', { 'content-type': 'text/plain' }, 'cp', 'hello')).parsed_body, null);
  assert.equal(httpSample(httpFlow('/t', { 'content-type': 'application/json' }, 'cp', '{broken')).parsed_body, null);
  assert.deepEqual(parsedPath('/%E0%A4%A/x'), ['%E0%A4%A', 'x'], 'undecodable segments kept');
  assert.deepEqual(Object.keys(parsedPairs('__proto__=1')), ['__proto__']);
});

test('a JSON body nesting past what a Struct carries over gRPC is left unparsed; every sample crosses the wire', () => {
  const nest = (n: number): string => '{"a":'.repeat(n - 1) + '{}' + '}'.repeat(n - 1);
  const json = { 'content-type': 'application/json' };
  const fits = httpSample(httpFlow('/f', json, 'cp', nest(PREVIEW_STRUCT_MAX_DEPTH - 1)));
  assert.deepEqual(fits.parsed_body, JSON.parse(nest(PREVIEW_STRUCT_MAX_DEPTH - 1)));
  const tooDeep = httpSample(httpFlow('/d', json, 'cp', nest(PREVIEW_STRUCT_MAX_DEPTH)));
  assert.equal(tooDeep.parsed_body, null);
  const huge = httpSample(httpFlow('/h', json, 'cp', '['.repeat(100_000) + ']'.repeat(100_000)));
  assert.equal(huge.parsed_body, null);
  const rpc = serviceClient('flowPreview').service.PreviewHTTPRequests;
  for (const s of [fits, tooDeep, huge]) {
    const wire = rpc.responseDeserialize(rpc.responseSerialize({ samples: [jsonToStruct(s, PREVIEW_STRUCT_MAX_DEPTH)] })) as { samples: ProtoStruct[] };
    assert.deepEqual(structToJson(wire.samples[0]), s, 'the sample crosses the wire unchanged');
  }
});

test('returns as soon as N matching requests were seen', async () => {
  const { engine, registry } = setup();
  const p = registry.start({ kind: 'http', controlPoint: 'ingress', service: 'any', samples: 2, matcher: all, waitMs: 10_000 });
  feed(engine, httpFlow('/1'));
  feed(engine, httpFlow('/2'));
  feed(engine, httpFlow('/3'));
  const samples = await p.result;
  assert.deepEqual(samples.map((s) => (s.attributes as { request: { http: { path: string } } }).request.http.path), ['/1', '/2']);
  assert.equal(registry.size, 0);
  assert.equal(registry.watches('ingress'), false, 'finished previews leave the engine alone');
});

test('the wait ends with what was seen, possibly nothing', async () => {
  const { engine, registry } = setup();
  const p = registry.start({ kind: 'http', controlPoint: 'ingress', service: 'any', samples: 5, matcher: all, waitMs: 50 });
  feed(engine, httpFlow('/only'));
  assert.equal((await p.result).length, 1);
  const none = registry.start({ kind: 'labels', controlPoint: 'quiet', service: 'any', samples: 5, matcher: all, waitMs: 10 });
  assert.deepEqual(await none.result, []);
});

test('concurrent previews are independent; filter and service apply; cancel ends one', async () => {
  const { engine, registry } = setup();
  const gets = registry.start({ kind: 'http', controlPoint: 'ingress', service: 'any', samples: 2, matcher: compileLabelMatcher({ match_labels: { 'http.request.header.x_tier': 'gold' } }), waitMs: 5000 });
  const web = registry.start({ kind: 'labels', controlPoint: 'ingress', service: 'web', samples: 2, matcher: all, waitMs: 5000 });
  const cancelled = registry.start({ kind: 'labels', controlPoint: 'ingress', service: 'any', samples: 100, matcher: all, waitMs: 5000 });
  assert.equal(registry.size, 3);
  feed(engine, httpFlow('/a', { 'x-tier': 'silver' }), ['api']);
  feed(engine, httpFlow('/b', { 'x-tier': 'gold' }), ['web']);
  cancelled.cancel();
  assert.equal((await cancelled.result).length, 2, 'cancel answers what it had');
  feed(engine, httpFlow('/c', { 'x-tier': 'gold' }), ['api']);
  feed(engine, httpFlow('/d', { 'x-tier': 'silver' }), ['api', 'web']);
  const g = await gets.result;
  assert.deepEqual(g.map((s) => (s.attributes as { request: { http: { path: string } } }).request.http.path), ['/b', '/c']);
  const w = await web.result;
  assert.deepEqual(w.map((s) => (s.labels as Record<string, string>)['http.target']), ['/b', '/d']);
});

test('label previews see SDK flows with classified labels; HTTP previews only CheckHTTP flows; the filter sees labels before classification', async () => {
  const { engine, registry } = setup();
  engine.register({ kind: 'classifier', identity: { policy_name: 'p', policy_hash: '', classifier_index: 0 }, classify: () => ({ tier: 'gold' }) }, { control_point: 'feature' });
  const labels = registry.start({ kind: 'labels', controlPoint: 'feature', service: 'any', samples: 1, matcher: compileLabelMatcher({ match_labels: { user: 'u1' } }), waitMs: 1000 });
  const byClassified = registry.start({ kind: 'labels', controlPoint: 'feature', service: 'any', samples: 1, matcher: compileLabelMatcher({ match_labels: { tier: 'gold' } }), waitMs: 100 });
  const http = registry.start({ kind: 'http', controlPoint: 'feature', service: 'any', samples: 1, matcher: all, waitMs: 100 });
  const before = Date.now();
  await engine.check({ controlPoint: 'feature', labels: { user: 'u1' }, services: [] });
  const after = Date.now();
  const got = await labels.result;
  assert.deepEqual(got.map((s) => s.labels), [{ user: 'u1', tier: 'gold' }]);
  const at = got[0]?.arrival_unix_ms as number;
  assert.ok(at >= before && at <= after, 'each sample carries when the flow was seen');
  assert.deepEqual(await byClassified.result, [], 'classifier output is not seen by the filter');
  assert.deepEqual(await http.result, [], 'no HTTP request behind an SDK flow');
});

test('too many previews at once are refused', () => {
  const registry = new PreviewRegistry(2);
  const a = registry.start({ kind: 'labels', controlPoint: 'x', service: 'any', samples: 1, matcher: all, waitMs: 1000 });
  const b = registry.start({ kind: 'labels', controlPoint: 'x', service: 'any', samples: 1, matcher: all, waitMs: 1000 });
  assert.throws(() => registry.start({ kind: 'labels', controlPoint: 'x', service: 'any', samples: 1, matcher: all, waitMs: 1000 }), /too many previews/);
  a.cancel();
  b.cancel();
  assert.equal(registry.watches('x'), false);
});

const jsonBody = (n: number): string => JSON.stringify({ items: Array.from({ length: n }, (_, i) => ({ id: i, name: `item-${i}` })) });

test('a preview is bounded by bytes: when its samples reach the budget it answers with what it has', async () => {
  const engine = new Engine();
  const registry = new PreviewRegistry({ maxBytesPerPreview: 10_000 });
  engine.addObserver(registry);
  const p = registry.start({ kind: 'http', controlPoint: 'ingress', service: 'any', samples: 1000, matcher: all, waitMs: 10_000 });
  const body = 'x'.repeat(3000);
  for (let i = 0; i < 10; i++) feed(engine, httpFlow(`/${i}`, { 'content-type': 'text/plain' }, 'ingress', body));
  const samples = await p.result;
  assert.equal(samples.length, 3, '3 samples of ~3.3 KB fit in 10 000 bytes; the 4th ends the preview');
  assert.equal(registry.size, 0, 'it answered long before its wait');
  assert.equal(registry.bytesHeld, 0, 'the bytes go back once the answer is built');
});

test('all previews together are bounded by bytes: a sample past the total is skipped, not kept', async () => {
  const engine = new Engine();
  const registry = new PreviewRegistry({ maxBytesPerPreview: 1_000_000, maxTotalBytes: 8_000 });
  engine.addObserver(registry);
  const a = registry.start({ kind: 'http', controlPoint: 'ingress', service: 'any', samples: 1000, matcher: all, waitMs: 100 });
  const b = registry.start({ kind: 'http', controlPoint: 'ingress', service: 'any', samples: 1000, matcher: all, waitMs: 100 });
  const body = 'y'.repeat(1700);
  for (let i = 0; i < 10; i++) feed(engine, httpFlow(`/${i}`, {}, 'ingress', body));
  assert.ok(registry.bytesHeld <= 8_000, `held ${registry.bytesHeld}`);
  const [sa, sb] = await Promise.all([a.result, b.result]);
  assert.equal(sa.length + sb.length, 4, '4 samples of ~2 KB fit in 8 000 bytes over both previews');
  assert.equal(registry.bytesHeld, 0);
});

test('capture on the check path keeps the request as it came: its body is parsed only when the preview answers', async () => {
  const { engine, registry } = setup();
  const p = registry.start({ kind: 'http', controlPoint: 'ingress', service: 'any', samples: 2, matcher: all, waitMs: 10_000 });
  const req = httpFlow('/late', { 'content-type': 'application/json' }, 'ingress', '{"a":1}');
  let reads = 0;
  const r = req.request!;
  const body = r.body;
  Object.defineProperty(r, 'body', { get: () => { reads++; return body; }, enumerable: true, configurable: true });
  const before = reads;
  feed(engine, req);
  const onCheckPath = reads - before;
  assert.ok(onCheckPath <= 1, `the body was read ${onCheckPath} times on the check path (its length only)`);
  feed(engine, httpFlow('/second'));
  const [first] = await p.result;
  assert.deepEqual(first.parsed_body, { a: 1 }, 'parsed when answering');
});

test('building a large answer yields to the event loop between slices', async () => {
  const { mapInSlices } = await import('./index.js');
  const items = Array.from({ length: 400 }, () => jsonBody(200));
  let ticks = 0;
  const ticker = setInterval(() => { ticks++; }, 0);
  let maxGapMs = 0;
  let last = performance.now();
  const probe = setInterval(() => { const now = performance.now(); maxGapMs = Math.max(maxGapMs, now - last); last = now; }, 1);
  try {
    const out = await mapInSlices(items, (s) => JSON.parse(s) as unknown);
    assert.equal(out.length, 400);
  } finally {
    clearInterval(ticker);
    clearInterval(probe);
  }
  assert.ok(ticks > 0, 'timers ran while the answer was being built');
  assert.ok(maxGapMs < 250, `longest stall ${maxGapMs.toFixed(1)} ms (the tap's check timeout is 250 ms)`);
});

test('the JSON text of a sample is the sample: JSON bodies go in as their own text, others as parsed', async () => {
  const { httpSampleJson } = await import('./index.js');
  const deep = `${'['.repeat(80)}${']'.repeat(80)}`;
  const cases: [string, string][] = [
    ['application/json', '{"k":[1,2,{"x":"\\u2028 \\"q\\""}],"n":null}'],
    ['application/json; charset=utf-8', '  [1, 2, 3]  '],
    ['application/json', '{"broken":'],
    ['application/json', deep],
    ['application/json', '"parsed_body":null,"truncated_body":'],
    ['application/x-www-form-urlencoded', 'a=1&a=2&b=%20'],
    ['text/plain', 'hello'],
    ['application/json', ''],
  ];
  for (const [type, body] of cases) {
    const req = httpFlow('/p?q=1', { 'content-type': type }, 'cp', body);
    assert.deepEqual(JSON.parse(httpSampleJson(req)), httpSample(req), `${type} ${body.slice(0, 30)}`);
  }
});
