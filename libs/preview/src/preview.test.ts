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
  await engine.check({ controlPoint: 'feature', labels: { user: 'u1' }, services: [] });
  assert.deepEqual(await labels.result, [{ labels: { user: 'u1', tier: 'gold' } }]);
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
